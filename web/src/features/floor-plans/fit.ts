/**
 * What the map draws inside a desk and how far it zooms, so that it stays legible with real desk
 * names and usable by touch (docs/behaviour.md#desk-labels-and-tap-targets-on-the-map): a label
 * fits its desk's box (shortened, else left out: the full name is in the desk's tooltip, its
 * accessible name and its booking dialog), is never upside down, is drawn only when large enough
 * to read at the current zoom, and a phone's map never shows a desk smaller than a 24 × 24 px target.
 */

/** WCAG 2.2 target size (2.5.8, AA): a desk on the map is at least this many CSS pixels each way. */
export const MIN_TARGET_PX = 24;
/** Labels smaller than this (CSS pixels of font size) are not drawn: unreadable text is noise. */
export const MIN_LABEL_PX = 10;

/**
 * Advance widths (in em) of bold sans-serif text, taken on the wide side (DejaVu Sans Bold, the
 * fallback of Linux browsers; Arial and Helvetica are narrower), so that an estimate never falls short.
 */
function charWidth(char: string): number {
  if (/[0-9]/.test(char)) return 0.7;
  if (/[mwMW]/.test(char)) return 1.05;
  if (/[a-z]/.test(char)) return 0.72;
  if (/[A-Z]/.test(char)) return 0.86;
  if (char === ' ') return 0.35;
  if (/[.,:;'!|il]/.test(char)) return 0.42;
  if (/[-–()/]/.test(char)) return 0.5;
  return 1.05;
}

/** The width of `text` in em, with a margin. */
export const textWidthEm = (text: string): number => [...text].reduce((sum, char) => sum + charWidth(char), 0) * 1.05;
/** The height of a line of text in em (ascent and descent of common sans-serif fonts, with a margin). */
export const LINE_HEIGHT_EM = 1.25;

/**
 * The shorter forms of a desk's name, longest first: the name; without a leading "Desk" (the map
 * shows nothing but desks); its last part after a space, hyphen or dot ("Desk 1.02-01" → "01"; the
 * room is named on the plan).
 */
export function shortNames(name: string): string[] {
  const forms = [name.trim()];
  const withoutWord = forms[0]!.replace(/^desk\s+/i, '');
  forms.push(withoutWord);
  const tail = /[\s.-]([^\s.-]+)$/.exec(withoutWord)?.[1];
  if (tail) forms.push(tail);
  return [...new Set(forms.filter((form) => form.length > 0))];
}

export interface DeskLabel {
  text: string;
  /** Font size in plan units. */
  fontSize: number;
}

/**
 * The label drawn in a desk box of `width` × `height` plan units (before its rotation): the
 * longest form of the name, after the state's `mark`, that fits the box at a readable size when a
 * plan unit is `pixelsPerUnit` CSS pixels; else the mark alone; else nothing. The size follows
 * both the box's width (the text's length) and its height.
 */
export function fitDeskLabel(name: string, mark: string, width: number, height: number, pixelsPerUnit: number): DeskLabel | undefined {
  const pad = Math.min(width, height) * 0.1;
  const room = { width: width - 2 * pad, height: height - 2 * pad };
  const candidates = [...shortNames(name).map((form) => (mark ? `${mark} ${form}` : form)), ...(mark ? [mark] : [])];
  for (const text of candidates) {
    const fontSize = Math.min(room.height / LINE_HEIGHT_EM, room.width / textWidthEm(text));
    if (fontSize * pixelsPerUnit >= MIN_LABEL_PX) return { text, fontSize };
  }
  return undefined;
}

/** The turn (degrees) that draws text along a desk turned `rotation` degrees, never upside down: within ±90°. */
export function uprightRotation(rotation: number): number {
  const turned = ((rotation % 360) + 360) % 360;
  if (turned > 90 && turned < 270) return turned - 180;
  return turned >= 270 ? turned - 360 : turned;
}

/**
 * The least zoom of a map whose smallest desk is `smallestUnits` plan units across (its shorter
 * side), drawn at `pixelsPerUnit` CSS pixels a unit at zoom 1, so that every desk is a target of at
 * least MIN_TARGET_PX: 1 when they already are, at most `maxScale`.
 */
export function minScaleForTargets(smallestUnits: number, pixelsPerUnit: number, maxScale: number): number {
  if (!(smallestUnits > 0) || !(pixelsPerUnit > 0)) return 1;
  return Math.min(maxScale, Math.max(1, MIN_TARGET_PX / (smallestUnits * pixelsPerUnit)));
}
