import { EQUIPMENT_TYPES } from './fields.js';
import { activeLanguage, translate } from './translate.js';

/**
 * Inventory in words: departments are "offices" to people (README, Vocabulary). Every text is
 * translated when asked for (namespace `labels`, loaded before the first paint: pages of every
 * area name offices, floors and desks; docs/i18n.md).
 */

export { EQUIPMENT_TYPES };
export type EquipmentType = (typeof EQUIPMENT_TYPES)[number];

/** "Docking station", "Monitor", … in the language in use; an unknown type as it is. */
export const equipmentLabel = (type: string) => ((EQUIPMENT_TYPES as readonly string[]).includes(type) ? translate(`labels:equipment.${type}`) : type);

/** The choices of a desk's type, with what each means. */
export const deskTypeChoices = () =>
  [
    { value: 'FLEX', label: translate('labels:deskType.flexChoice') },
    { value: 'FIXED', label: translate('labels:deskType.fixedChoice') },
  ] as const;

/** What names a department. */
export interface DepartmentSummary {
  id: string;
  location: string;
  building: string;
  floor: number;
}

/** "Berlin · Spree House · Floor 2": how people name an office. */
export const departmentLabel = (department: Omit<DepartmentSummary, 'id'>) =>
  translate('labels:office.label', { location: department.location, building: department.building, floor: floorLabel(department.floor) });

export const floorLabel = (floor: number) =>
  floor === 0
    ? translate('labels:floor.ground')
    : floor < 0
      ? translate('labels:floor.basement', { level: -floor })
      : translate('labels:floor.upper', { floor });

/** Whether a desk's name already says it is a desk: "Desk 1.02-01" (or the language's word for desk). */
const saysDesk = (name: string) => {
  const word = translate('labels:desk.word').toLowerCase();
  const start = name.trim().toLowerCase();
  return /^desk\b/.test(start) || start === word || start.startsWith(`${word} `);
};

/**
 * A desk named inside a sentence: "desk A1", or its name alone when that already says it is a desk
 * ("Desk 1.02-01", never "desk Desk 1.02-01"; docs/behaviour.md#what-people-see-of-a-desk).
 */
export const deskPhrase = (name: string) => (saysDesk(name) ? name : translate('labels:desk.phrase', { name }));
/** The same at the start of a sentence or as a title: "Desk A1", "Desk 1.02-01". */
export const deskTitle = (name: string) => {
  if (!saysDesk(name)) return translate('labels:desk.title', { name });
  return name.charAt(0).toUpperCase() + name.slice(1);
};

export const deskTypeLabel = (type: string) => (type === 'FIXED' ? translate('labels:deskType.fixedDesk') : translate('labels:deskType.flexDesk'));

/**
 * What a desk has, in words, one entry per kind in the order of EQUIPMENT_TYPES: "Docking station",
 * "Monitor × 2"; items of type OTHER by their own names.
 */
export function equipmentSummary(items: readonly { type: string; name: string }[]): string[] {
  const entries: string[] = [];
  for (const type of EQUIPMENT_TYPES) {
    const ofType = items.filter((item) => item.type === type);
    if (ofType.length === 0) continue;
    if (type === 'OTHER') entries.push(...ofType.map((item) => item.name));
    else entries.push(ofType.length > 1 ? translate('labels:equipment.times', { type: equipmentLabel(type), count: ofType.length }) : equipmentLabel(type));
  }
  return entries;
}

/** An equipment name inside a list after "with": lower case, except in German, whose nouns keep their capital. */
export const equipmentInList = (type: string): string => (activeLanguage() === 'de' ? equipmentLabel(type) : equipmentLabel(type).toLocaleLowerCase());
