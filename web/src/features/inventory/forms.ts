import { Type } from '@sinclair/typebox';
import { DeskType, EquipmentDescription, EquipmentType, Floor, Name } from '../../lib/fields.js';
import type { FormRules } from '../../lib/forms.js';
import { translate } from '../../lib/translate.js';

/** The inventory's forms, made of the server's field schemas. The labels of their messages are read at each check, in the language in use. */

export const DepartmentForm = Type.Object({ location: Name('Location'), building: Name('Building'), floor: Floor() });
export const DEPARTMENT_RULES: FormRules<{ location: string; building: string }> = { trim: ['location', 'building'] };

export const RoomForm = Type.Object({ name: Name('Room name'), available: Type.Boolean() });
export const ROOM_RULES: FormRules<{ name: string }> = {
  get labels() {
    return { name: translate('inventory:room.name') };
  },
  trim: ['name'],
};

export const DeskForm = Type.Object({ name: Name('Desk name'), type: DeskType });
export const DESK_RULES: FormRules<{ name: string; type: string }> = {
  get labels() {
    return { name: translate('inventory:desk.name'), type: translate('inventory:desk.type') };
  },
  trim: ['name'],
};

export const EquipmentForm = Type.Object({ name: Name('Equipment name'), type: EquipmentType, description: EquipmentDescription() });
export const EQUIPMENT_RULES: FormRules<{ name: string; type: string }> = {
  get labels() {
    return { name: translate('inventory:equipment.name'), type: translate('inventory:equipment.type') };
  },
  trim: ['name'],
};
