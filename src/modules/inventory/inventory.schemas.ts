import { Type, type Static } from '@sinclair/typebox';
import { Page, pageQueryProperties } from '../../shared/paging.js';
import { DESK_TYPES, DeskType, EQUIPMENT_TYPES, EquipmentDescription, EquipmentType, FLOOR_MAX, FLOOR_MIN, Floor } from '../../shared/fields.js';
import { Name, SHORT_TEXT_MAX, Uuid } from '../../shared/schemas.js';

/**
 * Response shapes of the inventory, exactly the fields of docs/api.md#resources. Shared by the inventory
 * routes and by search (Room with its desks, Department without rooms).
 */

export { DESK_TYPES, DeskType, EQUIPMENT_TYPES, EquipmentType, FLOOR_MAX, FLOOR_MIN };

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

/**
 * One desk of a department and all its equipment (GET /api/departments/{departmentId}/desk-equipment):
 * a resource of its own, so that what a desk has can be shown beside search results and on the map
 * without growing the interface's Desk or Room (docs/api.md#desk-equipment).
 */
export const DeskEquipment = Type.Object(
  {
    deskId: Uuid(),
    roomId: Uuid(),
    equipment: Type.Array(Equipment, { description: "The desk's equipment, ordered by type, name, id; empty when it has none." }),
  },
  { title: 'DeskEquipment' },
);
export type DeskEquipmentDto = Static<typeof DeskEquipment>;

// ---- pages, paths, queries and bodies of the inventory routes ---------------------------------

export const DepartmentPage = Page(DepartmentWithRooms, 'PageOfDepartmentWithRooms');
export const RoomPage = Page(Room, 'PageOfRoom');
export const DeskPage = Page(Desk, 'PageOfDesk');
export const EquipmentPage = Page(Equipment, 'PageOfEquipment');
export const DeskEquipmentPage = Page(DeskEquipment, 'PageOfDeskEquipment');

export const DepartmentParams = Type.Object({ departmentId: Uuid() });
export const RoomParams = Type.Object({ departmentId: Uuid(), roomId: Uuid() });
export const DeskParams = Type.Object({ departmentId: Uuid(), roomId: Uuid(), deskId: Uuid() });
export const EquipmentParams = Type.Object({ departmentId: Uuid(), roomId: Uuid(), deskId: Uuid(), equipmentId: Uuid() });
export type DepartmentParams = Static<typeof DepartmentParams>;
export type RoomParams = Static<typeof RoomParams>;
export type DeskParams = Static<typeof DeskParams>;
export type EquipmentParams = Static<typeof EquipmentParams>;

/** At most this many ids in one `ids` filter (the largest page). */
export const MAX_IDS = 1000;
/** At most this many values in one equipment `filter`. */
export const MAX_FILTER_VALUES = 50;

/** A repeatable parameter whose values may also be comma-separated lists. */
const ListParam = (description: string, maxItems: number, maxLength: number) =>
  Type.Optional(Type.Array(Type.String({ maxLength }), { maxItems, description }));

export const DepartmentListQuery = Type.Object({
  ...pageQueryProperties,
  ids: ListParam(
    `Only these departments: repeat the parameter (\`ids=a&ids=b\`), separate with commas (\`ids=a,b\`), or both; at most ${MAX_IDS} ids. Empty values are ignored (so \`ids=\` alone lists every department); a malformed id is a 400.`,
    MAX_IDS,
    MAX_IDS * 37,
  ),
});
export type DepartmentListQuery = Static<typeof DepartmentListQuery>;

export const RoomListQuery = Type.Object({
  ...pageQueryProperties,
  available: Type.Optional(Type.Boolean({ description: 'Only rooms whose `available` is this value.' })),
});
export type RoomListQuery = Static<typeof RoomListQuery>;

export const DeskListQuery = Type.Object({
  ...pageQueryProperties,
  type: Type.Optional({ ...DeskType, description: 'Only desks of this type.' }),
});
export type DeskListQuery = Static<typeof DeskListQuery>;

export const EquipmentListQuery = Type.Object({
  ...pageQueryProperties,
  filter: ListParam(
    'Repeatable, and each value may be a comma-separated list. An item is listed when its `type` equals one of the values or its `name` contains one of them, ignoring case ' +
      `(\`%\`, \`_\` and \`\\\` are taken literally). At most ${MAX_FILTER_VALUES} values of up to ${SHORT_TEXT_MAX} characters; empty values are ignored.`,
    MAX_FILTER_VALUES,
    MAX_FILTER_VALUES * (SHORT_TEXT_MAX + 1),
  ),
});
export type EquipmentListQuery = Static<typeof EquipmentListQuery>;

export const DeskEquipmentListQuery = Type.Object({ ...pageQueryProperties });
export type DeskEquipmentListQuery = Static<typeof DeskEquipmentListQuery>;

export const DeleteQuery = Type.Object({
  force: Type.Optional(Type.Boolean({ description: 'true: also delete everything under it (default false).' })),
});
export type DeleteQuery = Static<typeof DeleteQuery>;

export const CreateDepartmentBody = Type.Object(
  { location: Name('Location, e.g. a city or site'), building: Name('Building'), floor: Floor() },
  { additionalProperties: false },
);
export type CreateDepartmentBody = Static<typeof CreateDepartmentBody>;
export const UpdateDepartmentBody = Type.Partial(CreateDepartmentBody, { additionalProperties: false });
export type UpdateDepartmentBody = Static<typeof UpdateDepartmentBody>;

export const CreateRoomBody = Type.Object(
  { name: Name('Room name'), available: Type.Optional(Type.Boolean({ description: 'Default true.' })) },
  { additionalProperties: false },
);
export type CreateRoomBody = Static<typeof CreateRoomBody>;
export const UpdateRoomBody = Type.Object(
  {
    name: Type.Optional(Name('Room name')),
    available: Type.Optional(Type.Boolean()),
    departmentId: Type.Optional(Uuid('Moves the room (with its desks, their equipment and reservations) to this department.')),
  },
  { additionalProperties: false },
);
export type UpdateRoomBody = Static<typeof UpdateRoomBody>;

export const CreateDeskBody = Type.Object(
  { name: Name('Desk name'), type: Type.Optional({ ...DeskType, description: 'FLEX (default) or FIXED.' }) },
  { additionalProperties: false },
);
export type CreateDeskBody = Static<typeof CreateDeskBody>;
export const UpdateDeskBody = Type.Object(
  {
    name: Type.Optional(Name('Desk name')),
    type: Type.Optional(DeskType),
    roomId: Type.Optional(Uuid('Moves the desk (with its equipment and reservations) to this room, which may belong to another department.')),
  },
  { additionalProperties: false },
);
export type UpdateDeskBody = Static<typeof UpdateDeskBody>;

export const CreateEquipmentBody = Type.Object(
  {
    name: Name('Equipment name'),
    description: EquipmentDescription(),
    type: EquipmentType,
  },
  { additionalProperties: false },
);
export type CreateEquipmentBody = Static<typeof CreateEquipmentBody>;
export const UpdateEquipmentBody = Type.Partial(CreateEquipmentBody, { additionalProperties: false });
export type UpdateEquipmentBody = Static<typeof UpdateEquipmentBody>;

/** Several desks at once (docs/behaviour.md#adding-many-desks-at-once). */
export const AddDesksBody = Type.Object(
  {
    desks: Type.Array(CreateDeskBody, {
      minItems: 1,
      maxItems: 500,
      description: 'The desks to add, 1 to 500; all or none. A refused entry is named in `rows` by its 1-based position (`line`).',
    }),
  },
  { additionalProperties: false },
);
export type AddDesksBody = Static<typeof AddDesksBody>;

export const AddedDesks = Type.Object({ desks: Type.Array(Desk, { description: 'The desks added, in the order given.' }) }, { title: 'AddedDesks' });
export type AddedDesksDto = Static<typeof AddedDesks>;
