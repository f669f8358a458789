import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { NoContent, problemResponses } from '../../shared/schemas.js';
import {
  AddDesksBody,
  AddedDesks,
  CreateDepartmentBody,
  CreateDeskBody,
  CreateEquipmentBody,
  CreateRoomBody,
  DeleteQuery,
  DepartmentListQuery,
  DepartmentPage,
  DepartmentParams,
  DepartmentWithRooms,
  Desk,
  DeskEquipmentListQuery,
  DeskEquipmentPage,
  DeskListQuery,
  DeskPage,
  DeskParams,
  Equipment,
  EquipmentListQuery,
  EquipmentPage,
  EquipmentParams,
  Room,
  RoomListQuery,
  RoomPage,
  RoomParams,
  UpdateDepartmentBody,
  UpdateDeskBody,
  UpdateEquipmentBody,
  UpdateRoomBody,
} from './inventory.schemas.js';
import { MAX_DESKS_AT_ONCE, MAX_IMPORT_BYTES, type InventoryService } from './inventory.service.js';
import { AppError } from '../../shared/errors.js';
import type { RoomParams as RoomParamsType } from './inventory.schemas.js';

const DEPARTMENTS = '/api/departments';
const DEPARTMENT = `${DEPARTMENTS}/:departmentId`;
const ROOMS = `${DEPARTMENT}/rooms`;
const ROOM = `${ROOMS}/:roomId`;
const DESKS = `${ROOM}/desks`;
const DESK = `${DESKS}/:deskId`;
const EQUIPMENT = `${DESK}/equipment`;
const EQUIPMENT_ITEM = `${EQUIPMENT}/:equipmentId`;
const DESK_EQUIPMENT = `${DEPARTMENT}/desk-equipment`;

const PATH_NOTE = 'Every id of the path must name a child of the one before it: a room of another department, say, is 404 like an unknown id.';
const ADMIN_NOTE = 'Admins only (403 for users).';
const PARTIAL_NOTE = 'Members left out keep their value.';
const NAMES_NOTE =
  'Names are trimmed. A room name is unique within its department, a desk name within its room, ignoring case: another one with the same name is 409 NAME_TAKEN (docs/behaviour.md#names-of-rooms-and-desks).';
const ADD_MANY_NOTE =
  `All or none (docs/behaviour.md#adding-many-desks-at-once): at most ${MAX_DESKS_AT_ONCE} desks; each name present, at most 200 characters, not twice in the list and not already in the room (ignoring case); type FLEX or FIXED (empty: FLEX). ` +
  'Any refused row makes it 400 IMPORT_INVALID, whose `rows` lists every refused row with its `line`, `column`, `reason` and `message`; nothing is added. Answers the desks added.';
const utf8 = new TextDecoder('utf-8', { fatal: true });
const FORCE_NOTE =
  'Without `force=true`, 409 HAS_DEPENDENTS (its `dependents` member counts what is in the way: rooms, desks, equipment, futureReservations) while anything listed here remains; with it, everything beneath is deleted too ' +
  '(reservations of its desks included, past and future). Reservations that have ended never block: they are deleted with their desk. ' +
  'Defect reports that named a deleted place stay, with that reference set to null.';

export const inventoryRoutes: FastifyPluginAsyncTypebox<{ inventory: InventoryService }> = async (app, { inventory }) => {
  // ---- departments ----------------------------------------------------------------------------

  app.get(
    DEPARTMENTS,
    {
      schema: {
        tags: ['Department'],
        summary: 'List departments',
        description:
          'Paged; each item lists the ids of its rooms (ordered by room name, then id). Sortable: id, location, building, floor; default order location, building, floor, id. ' +
          '`ids` restricts the list to those departments (unknown ids are simply not listed).',
        querystring: DepartmentListQuery,
        response: { 200: DepartmentPage, ...problemResponses() },
      },
    },
    async (request) => inventory.listDepartments(request.query),
  );

  app.get(
    DEPARTMENT,
    {
      schema: {
        tags: ['Department'],
        summary: 'Get a department',
        description: 'With the ids of its rooms, ordered by room name, then id.',
        params: DepartmentParams,
        response: { 200: DepartmentWithRooms, ...problemResponses(404) },
      },
    },
    async (request) => inventory.getDepartment(request.params.departmentId),
  );

  app.post(
    DEPARTMENTS,
    {
      config: { role: 'ADMIN' },
      schema: {
        tags: ['Department'],
        summary: 'Create a department',
        description: `${ADMIN_NOTE} location and building are trimmed. Answers the department, with no rooms yet.`,
        body: CreateDepartmentBody,
        response: { 200: DepartmentWithRooms, ...problemResponses() },
      },
    },
    async (request) => inventory.createDepartment(request.body),
  );

  app.put(
    DEPARTMENT,
    {
      config: { role: 'ADMIN' },
      schema: {
        tags: ['Department'],
        summary: 'Change a department',
        description: `${ADMIN_NOTE} ${PARTIAL_NOTE} location and building are trimmed.`,
        params: DepartmentParams,
        body: UpdateDepartmentBody,
        response: { 200: DepartmentWithRooms, ...problemResponses(404) },
      },
    },
    async (request) => inventory.updateDepartment(request.params.departmentId, request.body),
  );

  app.delete(
    DEPARTMENT,
    {
      config: { role: 'ADMIN' },
      schema: {
        tags: ['Department'],
        summary: 'Delete a department',
        description: `${ADMIN_NOTE} Blocked by: its rooms, and future reservations of their desks. ${FORCE_NOTE} Its image goes with it.`,
        params: DepartmentParams,
        querystring: DeleteQuery,
        response: { 204: NoContent, ...problemResponses(404, 409) },
      },
    },
    async (request, reply) => {
      await inventory.deleteDepartment(request.params.departmentId, request.query.force ?? false);
      return reply.code(204).send();
    },
  );

  // ---- rooms ----------------------------------------------------------------------------------

  app.get(
    ROOMS,
    {
      schema: {
        tags: ['Room'],
        summary: 'List the rooms of a department',
        description:
          'Paged; each room lists all its desks (ordered by name, then id). Sortable: id, name, available; default order name, id. ' +
          'Unknown department: 404.',
        params: DepartmentParams,
        querystring: RoomListQuery,
        response: { 200: RoomPage, ...problemResponses(404) },
      },
    },
    async (request) => inventory.listRooms(request.params, request.query),
  );

  app.get(
    ROOM,
    {
      schema: {
        tags: ['Room'],
        summary: 'Get a room',
        description: `With all its desks, ordered by name, then id. ${PATH_NOTE}`,
        params: RoomParams,
        response: { 200: Room, ...problemResponses(404) },
      },
    },
    async (request) => inventory.getRoom(request.params),
  );

  app.post(
    ROOMS,
    {
      config: { role: 'ADMIN' },
      schema: {
        tags: ['Room'],
        summary: 'Create a room',
        description: `${ADMIN_NOTE} available defaults to true. ${NAMES_NOTE} Unknown department: 404.`,
        params: DepartmentParams,
        body: CreateRoomBody,
        response: { 200: Room, ...problemResponses(404) },
      },
    },
    async (request) => inventory.createRoom(request.params, request.body),
  );

  app.put(
    ROOM,
    {
      config: { role: 'ADMIN' },
      schema: {
        tags: ['Room'],
        summary: 'Change or move a room',
        description:
          `${ADMIN_NOTE} ${PARTIAL_NOTE} ${NAMES_NOTE} \`departmentId\` moves the room, with its desks, their equipment and reservations, to another department ` +
          '(an unknown one is a 400 naming departmentId). Making a room unavailable keeps the reservations it has: they stay until cancelled; only new bookings by users are refused. ' +
          PATH_NOTE,
        params: RoomParams,
        body: UpdateRoomBody,
        response: { 200: Room, ...problemResponses(404) },
      },
    },
    async (request) => inventory.updateRoom(request.params, request.body),
  );

  app.delete(
    ROOM,
    {
      config: { role: 'ADMIN' },
      schema: {
        tags: ['Room'],
        summary: 'Delete a room',
        description: `${ADMIN_NOTE} Blocked by: its desks (and so by any reservation of them). ${FORCE_NOTE} ${PATH_NOTE}`,
        params: RoomParams,
        querystring: DeleteQuery,
        response: { 204: NoContent, ...problemResponses(404, 409) },
      },
    },
    async (request, reply) => {
      await inventory.deleteRoom(request.params, request.query.force ?? false);
      return reply.code(204).send();
    },
  );

  // ---- desks ----------------------------------------------------------------------------------

  app.get(
    DESKS,
    {
      schema: {
        tags: ['Desk'],
        summary: 'List the desks of a room',
        description: `Paged. Sortable: id, name, type (by its name); default order name, id. ${PATH_NOTE}`,
        params: RoomParams,
        querystring: DeskListQuery,
        response: { 200: DeskPage, ...problemResponses(404) },
      },
    },
    async (request) => inventory.listDesks(request.params, request.query),
  );

  app.get(
    DESK,
    {
      schema: { tags: ['Desk'], summary: 'Get a desk', description: PATH_NOTE, params: DeskParams, response: { 200: Desk, ...problemResponses(404) } },
    },
    async (request) => inventory.getDesk(request.params),
  );

  app.post(
    DESKS,
    {
      config: { role: 'ADMIN' },
      schema: {
        tags: ['Desk'],
        summary: 'Create a desk',
        description: `${ADMIN_NOTE} type defaults to FLEX. ${NAMES_NOTE} ${PATH_NOTE}`,
        params: RoomParams,
        body: CreateDeskBody,
        response: { 200: Desk, ...problemResponses(404) },
      },
    },
    async (request) => inventory.createDesk(request.params, request.body),
  );

  app.put(
    DESK,
    {
      config: { role: 'ADMIN' },
      schema: {
        tags: ['Desk'],
        summary: 'Change or move a desk',
        description:
          `${ADMIN_NOTE} ${PARTIAL_NOTE} ${NAMES_NOTE} \`roomId\` moves the desk, with its equipment and reservations, to another room, possibly of another department ` +
          '(its departmentId follows; an unknown room is a 400 naming roomId). Making a desk FIXED keeps the reservations it has: they stay until cancelled; only new bookings by users are refused. ' +
          PATH_NOTE,
        params: DeskParams,
        body: UpdateDeskBody,
        response: { 200: Desk, ...problemResponses(404) },
      },
    },
    async (request) => inventory.updateDesk(request.params, request.body),
  );

  app.delete(
    DESK,
    {
      config: { role: 'ADMIN' },
      schema: {
        tags: ['Desk'],
        summary: 'Delete a desk',
        description: `${ADMIN_NOTE} Blocked by: its equipment and its future reservations (those ending after now). ${FORCE_NOTE} ${PATH_NOTE}`,
        params: DeskParams,
        querystring: DeleteQuery,
        response: { 204: NoContent, ...problemResponses(404, 409) },
      },
    },
    async (request, reply) => {
      await inventory.deleteDesk(request.params, request.query.force ?? false);
      return reply.code(204).send();
    },
  );

  // ---- equipment ------------------------------------------------------------------------------

  app.get(
    DESK_EQUIPMENT,
    {
      schema: {
        tags: ['Equipment'],
        summary: 'List the desks of a department with their equipment',
        description:
          'Paged (up to 1000 desks a page); one item per desk of the department, equipment or not, ordered by room name, room id, desk name, desk id; not sortable. ' +
          'What the search results and the floor map show of each desk (docs/api.md#desk-equipment). Unknown department: 404.',
        params: DepartmentParams,
        querystring: DeskEquipmentListQuery,
        response: { 200: DeskEquipmentPage, ...problemResponses(404) },
      },
    },
    async (request) => inventory.listDeskEquipment(request.params, request.query),
  );

  app.get(
    EQUIPMENT,
    {
      schema: {
        tags: ['Equipment'],
        summary: 'List the equipment of a desk',
        description: `Paged. Sortable: id, name, type (by its name), description; default order name, id. ${PATH_NOTE}`,
        params: DeskParams,
        querystring: EquipmentListQuery,
        response: { 200: EquipmentPage, ...problemResponses(404) },
      },
    },
    async (request) => inventory.listEquipment(request.params, request.query),
  );

  app.get(
    EQUIPMENT_ITEM,
    {
      schema: {
        tags: ['Equipment'],
        summary: 'Get an equipment item',
        description: PATH_NOTE,
        params: EquipmentParams,
        response: { 200: Equipment, ...problemResponses(404) },
      },
    },
    async (request) => inventory.getEquipment(request.params),
  );

  app.post(
    EQUIPMENT,
    {
      config: { role: 'ADMIN' },
      schema: {
        tags: ['Equipment'],
        summary: 'Add equipment to a desk',
        description: `${ADMIN_NOTE} All members required; description may be empty and is kept as given. ${NAMES_NOTE} ${PATH_NOTE}`,
        params: DeskParams,
        body: CreateEquipmentBody,
        response: { 200: Equipment, ...problemResponses(404) },
      },
    },
    async (request) => inventory.createEquipment(request.params, request.body),
  );

  app.put(
    EQUIPMENT_ITEM,
    {
      config: { role: 'ADMIN' },
      schema: {
        tags: ['Equipment'],
        summary: 'Change an equipment item',
        description: `${ADMIN_NOTE} ${PARTIAL_NOTE} ${NAMES_NOTE} ${PATH_NOTE}`,
        params: EquipmentParams,
        body: UpdateEquipmentBody,
        response: { 200: Equipment, ...problemResponses(404) },
      },
    },
    async (request) => inventory.updateEquipment(request.params, request.body),
  );

  app.delete(
    EQUIPMENT_ITEM,
    {
      config: { role: 'ADMIN' },
      schema: {
        tags: ['Equipment'],
        summary: 'Delete an equipment item',
        description: `${ADMIN_NOTE} Equipment has nothing beneath it, so it is always deletable (\`force\` is accepted and changes nothing). Defect reports that named it stay, with equipmentId null. ${PATH_NOTE}`,
        params: EquipmentParams,
        querystring: DeleteQuery,
        response: { 204: NoContent, ...problemResponses(404) },
      },
    },
    async (request, reply) => {
      await inventory.deleteEquipment(request.params);
      return reply.code(204).send();
    },
  );

  // ---- several desks at once, and sample data -------------------------------------------------

  app.post(
    `${DESKS}/batch`,
    {
      config: { role: 'ADMIN' },
      schema: {
        tags: ['Desk'],
        summary: 'Add several desks to a room',
        description: `${ADMIN_NOTE} ${ADD_MANY_NOTE} ${PATH_NOTE}`,
        params: RoomParams,
        body: AddDesksBody,
        response: { 200: AddedDesks, ...problemResponses(404, 409) },
      },
    },
    async (request) => ({
      desks: await inventory.addDesks(
        request.params,
        request.body.desks.map((desk, index) => ({ line: index + 1, name: desk.name, type: desk.type })),
      ),
    }),
  );

  await app.register(async (csv) => {
    // Only this route reads CSV; a file larger than MAX_IMPORT_BYTES is 413 before it is read whole.
    csv.addContentTypeParser('text/csv', { parseAs: 'buffer', bodyLimit: MAX_IMPORT_BYTES }, (_request, body, done) => {
      try {
        done(null, utf8.decode(body as Buffer));
      } catch {
        done(new AppError('INVALID_ENCODING', 'The CSV file is not valid UTF-8'), undefined);
      }
    });
    csv.post(
      `${DESKS}/import`,
      {
        config: { role: 'ADMIN' },
        schema: {
          tags: ['Desk'],
          summary: 'Import desks into a room from a CSV file',
          description:
            `${ADMIN_NOTE} A \`text/csv\` body (UTF-8, at most ${MAX_IMPORT_BYTES / 1024} KB, larger is 413): a header line naming the columns \`name\` and, optionally, \`type\` (any order and case), then one desk per line; ` +
            'fields separated by commas (or semicolons when the header has no comma), quoted with double quotes where needed. `line` in `rows` is the line of the file (the header is line 1). ' +
            `${ADD_MANY_NOTE} ${PATH_NOTE}`,
          params: RoomParams,
          body: { content: { 'text/csv': { schema: Type.String({ description: 'The CSV file.' }) } } },
          response: { 200: AddedDesks, ...problemResponses(404, 409, 413, 415) },
        },
      },
      // The typed provider does not follow a body given per content type: its shapes are said here.
      async (request) => {
        // Another media type the service reads (JSON), or no body at all, is not a CSV file.
        if (typeof request.body !== 'string' || !/^text\/csv\b/i.test(request.headers['content-type'] ?? '')) {
          throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the file as a text/csv body');
        }
        return { desks: await inventory.importDesks(request.params as RoomParamsType, request.body) };
      },
    );
  });

  app.post(
    '/api/sample-data',
    {
      config: { role: 'ADMIN' },
      schema: {
        tags: ['Department'],
        summary: 'Load the sample office into an empty install',
        description:
          `${ADMIN_NOTE} Adds one sample office (location "Sample office") with two rooms, nine desks (one of them FIXED) and their equipment, so a new install can be tried at once; no people, no reservations. ` +
          'Only while no office exists: otherwise 409 INSTALL_NOT_EMPTY (so it is loaded at most once; two at once load it once). Answers the office (docs/behaviour.md#an-empty-install).',
        response: { 200: DepartmentWithRooms, ...problemResponses(409) },
      },
    },
    async () => inventory.loadSampleData(),
  );
};
