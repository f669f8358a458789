import { useTranslation } from 'react-i18next';
import { deskTypeLabel, equipmentSummary } from '../lib/labels.js';
import type { Equipment } from '../api/types.js';
import { translate } from '../lib/translate.js';

/**
 * What a desk is and has, in one line (docs/behaviour.md#what-people-see-of-a-desk): "Flexible
 * desk · Docking station · Monitor × 2". `equipment` undefined: not known yet, only the type is said.
 */
export function deskFeaturesText(type: string, equipment: readonly Equipment[] | undefined): string {
  if (equipment === undefined) return deskTypeLabel(type);
  const items = equipmentSummary(equipment);
  return [deskTypeLabel(type), ...(items.length > 0 ? items : [translate('booking:desk.noEquipment')])].join(' · ');
}

/** The sentence a booking's confirmation ends with: what the desk booked has (with its leading space). */
export function equipmentSentence(equipment: readonly Equipment[] | undefined): string {
  if (equipment === undefined) return '';
  const items = equipmentSummary(equipment);
  return ` ${items.length > 0 ? translate('booking:desk.itHas', { items: items.join(', ') }) : translate('booking:desk.itHasNothing')}`;
}

export function DeskFeatures({ type, equipment, id }: { type: string; equipment: readonly Equipment[] | undefined; id?: string }) {
  // Waits for the namespace whose words the line is made of.
  useTranslation('booking');
  return (
    <p className="desk-features" id={id}>
      {deskFeaturesText(type, equipment)}
    </p>
  );
}
