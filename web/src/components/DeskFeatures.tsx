import type { Equipment } from '../api/types.js';
import { deskTypeLabel, equipmentSummary } from '../lib/labels.js';

/**
 * What a desk is and has, in one line (docs/behaviour.md#what-people-see-of-a-desk): "Flexible
 * desk · Docking station · Monitor × 2". `equipment` undefined: not known yet, only the type is said.
 */
export function deskFeaturesText(type: string, equipment: readonly Equipment[] | undefined): string {
  if (equipment === undefined) return deskTypeLabel(type);
  const items = equipmentSummary(equipment);
  return [deskTypeLabel(type), ...(items.length > 0 ? items : ['no equipment'])].join(' · ');
}

/** The sentence a booking's confirmation ends with: what the desk booked has. */
export function equipmentSentence(equipment: readonly Equipment[] | undefined): string {
  if (equipment === undefined) return '';
  const items = equipmentSummary(equipment);
  return items.length > 0 ? ` It has: ${items.join(', ')}.` : ' It has no equipment.';
}

export function DeskFeatures({ type, equipment, id }: { type: string; equipment: readonly Equipment[] | undefined; id?: string }) {
  return (
    <p className="desk-features" id={id}>
      {deskFeaturesText(type, equipment)}
    </p>
  );
}
