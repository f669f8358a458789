import { Fragment, type ReactNode } from 'react';

/**
 * A translated sentence with elements inside it (a <code>, a link, a bold name), kept one message
 * (docs/i18n.md#message-format): pass `mark('url')` as the argument's value to t(), then hand the
 * text and the elements to `withElements`, which puts each element where its mark landed — wherever
 * the language's word order put it.
 */
const MARK = '\u0001';

export const mark = (name: string) => `${MARK}${name}${MARK}`;

export function withElements(text: string, elements: Record<string, ReactNode>): ReactNode {
  return text.split(MARK).map((part, index) => <Fragment key={index}>{index % 2 === 1 ? (elements[part] ?? part) : part}</Fragment>);
}
