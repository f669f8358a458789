import { Fragment, type ReactNode } from 'react';

/**
 * An element (a link, a bold number) inside a translated sentence, which stays one message
 * (docs/i18n.md#converting-a-page): the message gets `mark(0)`, `mark(1)`… as the arguments where
 * the elements go, and `fill` puts the elements in their places.
 */
export const mark = (index: number) => String.fromCharCode(0xe000 + index);

export function fill(text: string, elements: readonly ReactNode[]): ReactNode[] {
  return text.split(/([\uE000-\uE0FF])/u).map((part, index) => {
    const element = part.length === 1 ? part.charCodeAt(0) - 0xe000 : -1;
    return element >= 0 && element < elements.length ? <Fragment key={index}>{elements[element]}</Fragment> : part;
  });
}
