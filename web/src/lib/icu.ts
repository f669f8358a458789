/**
 * The ICU message format, the part Deskbook's messages use (docs/i18n.md#message-format):
 * `{name}` arguments, `{n, plural, =0 {…} one {…} other {…}}` with `#` for the number (in the
 * language's plural rules, Intl.PluralRules), and `{x, select, a {…} other {…}}`. It stands in
 * for i18next-icu, whose parser would put the first page's JavaScript over its budget; a unit
 * test checks that it formats every shipped message as intl-messageformat (the full ICU) does.
 * Apostrophe quoting is not supported: messages use ’ (or a lone ', which ICU keeps as it is).
 */

type Values = Record<string, unknown>;

interface Node {
  text?: string;
  argument?: string;
  kind?: 'plural' | 'select';
  options?: Record<string, Node[]>;
  pound?: boolean;
}

/** Parses from `at` up to the closing brace of the enclosing branch (or the end); answers the nodes and where it stopped. */
function parse(message: string, at = 0, inPlural = false): [Node[], number] {
  const nodes: Node[] = [];
  let text = '';
  const flush = () => {
    if (text) nodes.push({ text });
    text = '';
  };
  while (at < message.length) {
    const char = message[at]!;
    if (char === '}') break;
    if (char === '#' && inPlural) {
      flush();
      nodes.push({ pound: true });
      at++;
    } else if (char === '{') {
      flush();
      const close = /[,}]/g;
      close.lastIndex = at + 1;
      const end = close.exec(message);
      if (!end) throw new SyntaxError(`unclosed argument in "${message}"`);
      const argument = message.slice(at + 1, end.index).trim();
      if (end[0] === '}') {
        nodes.push({ argument });
        at = end.index + 1;
        continue;
      }
      const typeEnd = message.indexOf(',', end.index + 1);
      const kind = message.slice(end.index + 1, typeEnd).trim();
      if (kind !== 'plural' && kind !== 'select') throw new SyntaxError(`unsupported argument type ${kind} in "${message}"`);
      at = typeEnd + 1;
      const options: Record<string, Node[]> = {};
      for (;;) {
        while (/\s/.test(message[at] ?? '')) at++;
        if (message[at] === '}') break;
        const open = message.indexOf('{', at);
        if (open < 0) throw new SyntaxError(`unclosed ${kind} in "${message}"`);
        const selector = message.slice(at, open).trim();
        const [branch, stop] = parse(message, open + 1, kind === 'plural' || inPlural);
        options[selector] = branch;
        at = stop + 1;
      }
      nodes.push({ argument, kind, options });
      at++;
    } else {
      text += char;
      at++;
    }
  }
  flush();
  return [nodes, at];
}

const parsed = new Map<string, Node[]>();

function format(nodes: Node[], values: Values, locale: string, count?: number): string {
  let out = '';
  for (const node of nodes) {
    if (node.text !== undefined) out += node.text;
    else if (node.pound) out += count === undefined ? '#' : new Intl.NumberFormat(locale).format(count);
    else if (node.kind && node.options && node.argument !== undefined) {
      const value = values[node.argument];
      if (node.kind === 'plural') {
        const number = Number(value);
        const branch = node.options[`=${number}`] ?? node.options[new Intl.PluralRules(locale).select(number)] ?? node.options.other ?? [];
        out += format(branch, values, locale, number);
      } else out += format(node.options[String(value)] ?? node.options.other ?? [], values, locale, count);
    } else if (node.argument !== undefined) {
      const value = values[node.argument];
      out += value === undefined ? `{${node.argument}}` : String(value);
    }
  }
  return out;
}

/** One message formatted with its values in a locale. */
export function formatMessage(message: string, values: Values, locale: string): string {
  let nodes = parsed.get(message);
  if (!nodes) {
    nodes = parse(message)[0];
    parsed.set(message, nodes);
  }
  return format(nodes, values, locale);
}

/** The i18next plugin that formats every message as ICU (docs/i18n.md#message-format). */
export const icuFormat = {
  type: 'i18nFormat' as const,
  init: () => undefined,
  parse: (message: string, values: Values | undefined, language: string) => formatMessage(message, values ?? {}, language === 'en-XA' ? 'en' : language),
  addLookupKeys: (finalKeys: string[]) => finalKeys,
};
