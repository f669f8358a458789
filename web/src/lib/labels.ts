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
