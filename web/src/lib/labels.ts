import { EQUIPMENT_TYPES } from './fields.js';

/** Inventory in words: departments are "offices" to people (README, Vocabulary). */

export { EQUIPMENT_TYPES };
export type EquipmentType = (typeof EQUIPMENT_TYPES)[number];

const EQUIPMENT_LABELS: Record<EquipmentType, string> = {
  DOCKING_STATION: 'Docking station',
  MONITOR: 'Monitor',
  KEYBOARD: 'Keyboard',
  MOUSE: 'Mouse',
  HEADSET: 'Headset',
  WEBCAM: 'Webcam',
  CHAIR: 'Chair',
  OTHER: 'Other',
};

export const equipmentLabel = (type: string) => EQUIPMENT_LABELS[type as EquipmentType] ?? type;

export const DESK_TYPE_CHOICES = [
  { value: 'FLEX', label: 'Flexible (anyone can book it)' },
  { value: 'FIXED', label: 'Fixed (assigned by an admin)' },
] as const;

/** What names a department. */
export interface DepartmentSummary {
  id: string;
  location: string;
  building: string;
  floor: number;
}

/** "Berlin · Spree House · Floor 2": how people name an office. */
export const departmentLabel = (department: DepartmentSummary) => `${department.location} · ${department.building} · ${floorLabel(department.floor)}`;

export const floorLabel = (floor: number) => (floor === 0 ? 'Ground floor' : floor < 0 ? `Basement ${-floor}` : `Floor ${floor}`);

/**
 * A desk named inside a sentence: "desk A1", or its name alone when that already says it is a desk
 * ("Desk 1.02-01", never "desk Desk 1.02-01"; docs/behaviour.md#what-people-see-of-a-desk).
 */
export const deskPhrase = (name: string) => (/^desk\b/i.test(name.trim()) ? name : `desk ${name}`);
/** The same at the start of a sentence or as a title: "Desk A1", "Desk 1.02-01". */
export const deskTitle = (name: string) => {
  const phrase = deskPhrase(name);
  return phrase.charAt(0).toUpperCase() + phrase.slice(1);
};

export const deskTypeLabel = (type: string) => (type === 'FIXED' ? 'Fixed desk (assigned by an admin)' : 'Flexible desk');

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
    else entries.push(ofType.length > 1 ? `${equipmentLabel(type)} × ${ofType.length}` : equipmentLabel(type));
  }
  return entries;
}
