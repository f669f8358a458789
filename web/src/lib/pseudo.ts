/**
 * The pseudo-locale en-XA (docs/i18n.md#the-pseudo-locale): every English message with its letters
 * accented, lengthened by about a third and put in brackets, so that text that stays plain on a
 * page was never translated, and a layout that breaks with longer words shows. ICU syntax
 * (arguments, plural and select branches, `#`) is kept as it is: only message text changes.
 */

const ACCENTED: Record<string, string> = {
  a: 'á',
  b: 'ƀ',
  c: 'ç',
  d: 'ð',
  e: 'é',
  f: 'ƒ',
  g: 'ĝ',
  h: 'ĥ',
  i: 'í',
  j: 'ĵ',
  k: 'ķ',
  l: 'ļ',
  m: 'ɱ',
  n: 'ñ',
  o: 'ó',
  p: 'þ',
  q: 'ǫ',
  r: 'ŕ',
  s: 'š',
  t: 'ţ',
  u: 'ú',
  v: 'ṽ',
  w: 'ŵ',
  x: 'ẋ',
  y: 'ý',
  z: 'ž',
  A: 'Á',
  B: 'Ɓ',
  C: 'Ç',
  D: 'Ð',
  E: 'É',
  F: 'Ƒ',
  G: 'Ĝ',
  H: 'Ĥ',
  I: 'Í',
  J: 'Ĵ',
  K: 'Ķ',
  L: 'Ļ',
  M: 'Ṁ',
  N: 'Ñ',
  O: 'Ó',
  P: 'Þ',
  Q: 'Ǫ',
  R: 'Ŕ',
  S: 'Š',
  T: 'Ţ',
  U: 'Ú',
  V: 'Ṽ',
  W: 'Ŵ',
  X: 'Ẋ',
  Y: 'Ý',
  Z: 'Ž',
};

/** Text of a message: accented letters, every vowel's length grown by one in three. */
function stretch(text: string): string {
  let out = '';
  let vowels = 0;
  for (const char of text) {
    out += ACCENTED[char] ?? char;
    if (/[aeiouAEIOU]/.test(char) && vowels++ % 3 === 0) out += ACCENTED[char.toLowerCase()] ?? '';
  }
  return out;
}

/**
 * One ICU message made pseudo. Text sits at even brace depths (0 outside any argument, 2 inside a
 * plural or select branch, and so on); odd depths are argument names and keywords, kept.
 */
export function pseudoMessage(message: string): string {
  let depth = 0;
  let out = '';
  let text = '';
  const flush = () => {
    out += stretch(text);
    text = '';
  };
  for (const char of message) {
    if (char === '{' || char === '}') {
      if (depth % 2 === 0) flush();
      depth += char === '{' ? 1 : -1;
      out += char;
    } else if (depth % 2 === 0 && char !== '#') text += char;
    else {
      if (depth % 2 === 0) flush();
      out += char;
    }
  }
  flush();
  return `[${out}]`;
}

/** A namespace's resources (nested objects of messages) made pseudo. */
export function pseudoResources(resources: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(resources).map(([key, value]) => [
      key,
      typeof value === 'string'
        ? pseudoMessage(value)
        : typeof value === 'object' && value !== null
          ? pseudoResources(value as Record<string, unknown>)
          : value,
    ]),
  );
}
