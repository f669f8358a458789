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
 * The forms of a desk's name a map label may take, longest first: without a leading "Desk" (the
 * map shows nothing but desks); then its last part after a space, hyphen or dot ("Desk 1.02-01" →
 * "01"; the room is named on the plan). The full name is in the desk's tooltip and accessible name.
 */
export function shortNames(name: string): string[] {
  const withoutWord = name.trim().replace(/^desk\s+/i, '');
  const tail = /[\s.-]([^\s.-]+)$/.exec(withoutWord)?.[1];
  return [...new Set([withoutWord, ...(tail ? [tail] : [])].filter((form) => form.length > 0))];
}

export interface DeskLabel {
  text: string;
  /** Font size in plan units. */
  fontSize: number;
}

/** A desk's box (plan units, before its rotation) and what its label says. */
export interface LabelledDesk {
  id: string;
  /** Desks of one group (a room) get labels of one form and one size. */
  group: string;
  name: string;
  /** The state's mark, written before the name ('' for none). */
  mark: string;
  width: number;
  height: number;
}

/** The largest font size (plan units) at which `text` fits a box, inside a margin of a tenth of its shorter side. */
export function fitSize(text: string, width: number, height: number): number {
  const pad = Math.min(width, height) * 0.1;
  return Math.min((height - 2 * pad) / LINE_HEIGHT_EM, (width - 2 * pad) / textWidthEm(text));
}

const withMark = (mark: string, form: string) => (mark ? `${mark} ${form}` : form);

/**
 * The labels of a map's desks when a plan unit is drawn `pixelsPerUnit` CSS pixels wide. The
 * desks of a group (a room) share one form of their names (the longest that fits every one of them
 * at a readable size) and one font size (the largest all of them fit), so that a room reads
 * evenly. Where no form fits every desk of the group, each desk takes the longest form that fits
 * it, else its mark alone, else no label (it is too small to read at this zoom). The size follows
 * both the box's width (the text's length) and its height.
 */
export function fitDeskLabels(desks: readonly LabelledDesk[], pixelsPerUnit: number): Map<string, DeskLabel | undefined> {
  const readable = (size: number) => size * pixelsPerUnit >= MIN_LABEL_PX;
  const labels = new Map<string, DeskLabel | undefined>();
  const groups = new Map<string, LabelledDesk[]>();
  for (const desk of desks) groups.set(desk.group, [...(groups.get(desk.group) ?? []), desk]);
  for (const members of groups.values()) {
    const levels = Math.max(...members.map((desk) => shortNames(desk.name).length));
    let placed = false;
    for (let level = 0; level < levels && !placed; level++) {
      const texts = members.map((desk) => {
        const forms = shortNames(desk.name);
        return withMark(desk.mark, forms[Math.min(level, forms.length - 1)]!);
      });
      const sizes = members.map((desk, index) => fitSize(texts[index]!, desk.width, desk.height));
      const shared = Math.min(...sizes);
      if (!readable(shared)) continue;
      members.forEach((desk, index) => labels.set(desk.id, { text: texts[index]!, fontSize: shared }));
      placed = true;
    }
    if (placed) continue;
    for (const desk of members) {
      const candidates = [...shortNames(desk.name).map((form) => withMark(desk.mark, form)), ...(desk.mark ? [desk.mark] : [])];
      const text = candidates.find((candidate) => readable(fitSize(candidate, desk.width, desk.height)));
      labels.set(desk.id, text === undefined ? undefined : { text, fontSize: fitSize(text, desk.width, desk.height) });
    }
  }
  return labels;
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
  // A hundredth more: sub-pixel rounding of the drawn size must not leave a desk at 23.9 px.
  return Math.min(maxScale, Math.max(1, (MIN_TARGET_PX * 1.01) / (smallestUnits * pixelsPerUnit)));
}
