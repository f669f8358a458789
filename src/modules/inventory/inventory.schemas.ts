import { Type, type Static } from '@sinclair/typebox';
import { Uuid } from '../../shared/schemas.js';

/**
 * Response shapes of the inventory, exactly interface.md's fields. Shared by the inventory
 * routes and by search (Room with its desks, Department without rooms).
 */

export const DESK_TYPES = ['FLEX', 'FIXED'] as const;
export const EQUIPMENT_TYPES = ['DOCKING_STATION', 'MONITOR', 'KEYBOARD', 'MOUSE', 'HEADSET', 'WEBCAM', 'CHAIR', 'OTHER'] as const;

export const DeskType = Type.Union(
  DESK_TYPES.map((value) => Type.Literal(value)),
  { description: 'FLEX: a shared desk anyone may book (the default). FIXED: assigned by an admin; users cannot book it.' },
);
export const EquipmentType = Type.Union(
  EQUIPMENT_TYPES.map((value) => Type.Literal(value)),
  { description: EQUIPMENT_TYPES.join(', ') + '.' },
);

export const Department = Type.Object(
  {
    id: Uuid(),
    location: Type.String({ description: 'City or site, e.g. "Berlin".' }),
    building: Type.String(),
    floor: Type.Integer(),
  },
  { title: 'Department' },
);
export type DepartmentDto = Static<typeof Department>;

export const DepartmentWithRooms = Type.Object(
  { ...Department.properties, rooms: Type.Array(Uuid(), { description: 'Ids of its rooms, ordered by room name.' }) },
  { title: 'DepartmentWithRooms' },
);
export type DepartmentWithRoomsDto = Static<typeof DepartmentWithRooms>;

export const Desk = Type.Object(
  {
    id: Uuid(),
    name: Type.String(),
    type: DeskType,
    roomId: Uuid(),
    departmentId: Uuid(),
  },
  { title: 'Desk' },
);
export type DeskDto = Static<typeof Desk>;

export const Room = Type.Object(
  {
    id: Uuid(),
    name: Type.String(),
    departmentId: Uuid(),
    available: Type.Boolean({ description: 'False: its desks cannot be booked by users (admins still can).' }),
    desks: Type.Array(Desk, { description: 'Its desks, ordered by name (in room search: the desks that match).' }),
  },
  { title: 'Room' },
);
export type RoomDto = Static<typeof Room>;

export const Equipment = Type.Object(
  {
    id: Uuid(),
    name: Type.String(),
    description: Type.String(),
    type: EquipmentType,
  },
  { title: 'Equipment' },
);
export type EquipmentDto = Static<typeof Equipment>;
