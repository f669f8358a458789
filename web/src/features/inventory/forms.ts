import { Type } from '@sinclair/typebox';
import { DeskType, EquipmentDescription, EquipmentType, Floor, Name } from '../../lib/fields.js';
import type { FormRules } from '../../lib/forms.js';

/** The inventory's forms, made of the server's field schemas. */

export const DepartmentForm = Type.Object({ location: Name('Location'), building: Name('Building'), floor: Floor() });
export const DEPARTMENT_RULES: FormRules<{ location: string; building: string }> = { trim: ['location', 'building'] };

export const RoomForm = Type.Object({ name: Name('Room name'), available: Type.Boolean() });
export const ROOM_RULES: FormRules<{ name: string }> = { labels: { name: 'Room name' }, trim: ['name'] };

export const DeskForm = Type.Object({ name: Name('Desk name'), type: DeskType });
export const DESK_RULES: FormRules<{ name: string; type: string }> = { labels: { name: 'Desk name', type: 'Desk type' }, trim: ['name'] };

export const EquipmentForm = Type.Object({ name: Name('Equipment name'), type: EquipmentType, description: EquipmentDescription() });
export const EQUIPMENT_RULES: FormRules<{ name: string; type: string }> = { labels: { name: 'Equipment name', type: 'Equipment type' }, trim: ['name'] };
