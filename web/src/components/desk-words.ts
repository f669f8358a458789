import { EQUIPMENT_TYPES } from '../lib/fields.js';
import { activeLanguage, translate } from '../lib/translate.js';

/**
 * Desks, offices, floors and equipment in words, in the language in use (the `booking` namespace,
 * docs/i18n.md): the booking pages' own copies of lib/labels.ts's English labels, called at render time.
 */

const SAYS_DESK = /^desk\b/i;

/** A desk inside a sentence: "desk A1", or its name alone when that already says it is a desk ("Desk 1.02-01"). */
export const deskInSentence = (name: string): string => (SAYS_DESK.test(name.trim()) ? name : translate('booking:desk.phrase', { name }));

/** The same at the start of a sentence or as a title: "Desk A1". */
export const deskAsTitle = (name: string): string =>
  SAYS_DESK.test(name.trim()) ? name.charAt(0).toUpperCase() + name.slice(1) : translate('booking:desk.title', { name });

/** "Ground floor", "Floor 2", "Basement 1". */
export const floorWords = (floor: number): string =>
  floor === 0
    ? translate('booking:floor.ground')
    : floor < 0
      ? translate('booking:floor.basement', { number: -floor })
      : translate('booking:floor.numbered', { number: floor });

/** "Berlin · Spree House · Floor 2": how people name an office. */
export const officeWords = (department: { location: string; building: string; floor: number }): string =>
  translate('booking:office', { location: department.location, building: department.building, floor: floorWords(department.floor) });

/** "Docking station", "Monitor"… (an unknown type as it is). */
export const equipmentWords = (type: string): string => ((EQUIPMENT_TYPES as readonly string[]).includes(type) ? translate(`booking:equipment.${type}`) : type);

/** "Flexible desk", "Fixed desk (assigned by an admin)". */
export const deskTypeWords = (type: string): string => translate(type === 'FIXED' ? 'booking:desk.fixed' : 'booking:desk.flexible');

/** What a desk has, one entry per kind in the order of EQUIPMENT_TYPES: "Docking station", "Monitor × 2"; items of type OTHER by their own names. */
export function equipmentList(items: readonly { type: string; name: string }[]): string[] {
  const entries: string[] = [];
  for (const type of EQUIPMENT_TYPES) {
    const ofType = items.filter((item) => item.type === type);
    if (ofType.length === 0) continue;
    if (type === 'OTHER') entries.push(...ofType.map((item) => item.name));
    else entries.push(ofType.length > 1 ? `${equipmentWords(type)} × ${ofType.length}` : equipmentWords(type));
  }
  return entries;
}

/** An equipment name inside a list after "with": lower case, except in German, whose nouns keep their capital. */
export const equipmentInList = (type: string): string => (activeLanguage() === 'de' ? equipmentWords(type) : equipmentWords(type).toLocaleLowerCase());
