import type { Database } from '../../db/client.js';
import { pgConstraint, pgErrorCode, PG } from '../../db/errors.js';
import type { Clock } from '../../shared/clock.js';
import { AppError, invalid, notFound, type ImportRowError } from '../../shared/errors.js';
import { CsvError, parseCsv } from '../../shared/csv.js';
import { pageOf, parsePageRequest, type PageOf } from '../../shared/paging.js';
import { SHORT_TEXT_MAX } from '../../shared/schemas.js';
import { isUuid } from '../../shared/text.js';
import {
  DEPARTMENT_SORTABLE,
  DESK_SORTABLE,
  EQUIPMENT_SORTABLE,
  InventoryRepository,
  ROOM_SORTABLE,
  type DepartmentRow,
  type Dependents,
  type DeskPatch,
  type EquipmentFilter,
  type RoomPatch,
  type RoomRow,
} from './inventory.repository.js';
import { toDepartmentDto, toRoomDto } from './inventory.mappers.js';
import { SAMPLE_DEPARTMENT, SAMPLE_ROOMS } from './inventory.sample.js';
import {
  EQUIPMENT_TYPES,
  MAX_FILTER_VALUES,
  MAX_IDS,
  type CreateDepartmentBody,
  type CreateDeskBody,
  type CreateEquipmentBody,
  type CreateRoomBody,
  type DepartmentListQuery,
  type DepartmentParams,
  type DepartmentWithRoomsDto,
  type DeskDto,
  type DeskEquipmentDto,
  type DeskEquipmentListQuery,
  type DeskListQuery,
  type DeskParams,
  type EquipmentDto,
  type EquipmentListQuery,
  type EquipmentParams,
  type RoomDto,
  type RoomListQuery,
  type RoomParams,
  type UpdateDepartmentBody,
  type UpdateDeskBody,
  type UpdateEquipmentBody,
  type UpdateRoomBody,
} from './inventory.schemas.js';

/** Values of a repeatable parameter whose values may be comma-separated lists; blanks dropped. */
function listValues(raw: string[] | undefined): string[] {
  return (raw ?? [])
    .flatMap((value) => value.split(','))
    .map((value) => value.trim())
    .filter((value) => value.length > 0);
}

/** The `ids` filter, or undefined when none was given. */
function parseIds(raw: string[] | undefined): string[] | undefined {
  const values = listValues(raw);
  if (values.length === 0) return undefined;
  const position = values.findIndex((value) => !isUuid(value));
  if (position >= 0) throw invalid('ids', `must be UUIDs; value ${position + 1} is not one`);
  const ids = [...new Set(values.map((value) => value.toLowerCase()))];
  if (ids.length > MAX_IDS) throw invalid('ids', `at most ${MAX_IDS} ids`);
  return ids;
}

/** Each `filter` value is tried both as an equipment type (any case) and as a part of the name. */
function parseEquipmentFilter(raw: string[] | undefined): EquipmentFilter {
  const values = listValues(raw);
  if (values.length > MAX_FILTER_VALUES) throw invalid('filter', `at most ${MAX_FILTER_VALUES} values`);
  if (values.some((value) => value.length > SHORT_TEXT_MAX)) throw invalid('filter', `each value has at most ${SHORT_TEXT_MAX} characters`);
  const types = EQUIPMENT_TYPES.filter((type) => values.some((value) => value.toUpperCase() === type));
  return { types, nameParts: values };
}

const counted = (number: number, singular: string, plural = `${singular}s`) => `${number} ${number === 1 ? singular : plural}`;

/** 409 naming what is in the way, e.g. "Room … still has 2 desks and 1 future reservation". */
function hasDependents(what: string, dependents: Dependents): AppError {
  const parts = [
    dependents.rooms > 0 ? counted(dependents.rooms, 'room') : undefined,
    dependents.desks > 0 ? counted(dependents.desks, 'desk') : undefined,
    dependents.equipment > 0 ? counted(dependents.equipment, 'equipment item') : undefined,
    dependents.futureReservations > 0 ? counted(dependents.futureReservations, 'future reservation') : undefined,
  ].filter((part): part is string => part !== undefined);
  const list = parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}` : parts[0];
  const { rooms, desks, equipment, futureReservations } = dependents;
  return new AppError('HAS_DEPENDENTS', `${what} still has ${list}; remove them first or delete with ?force=true`, {
    dependents: { rooms, desks, equipment, futureReservations },
  });
}

const isForeignKeyViolation = (error: unknown) => pgErrorCode(error) === PG.FOREIGN_KEY_VIOLATION;

/**
 * The unique indexes of migration 0020 (docs/behaviour.md#names-of-rooms-and-desks): a room name
 * within its department, a desk name within its room, ignoring case. 409 NAME_TAKEN naming it.
 */
function nameTaken(error: unknown, name: string | undefined): AppError | undefined {
  if (pgErrorCode(error) !== PG.UNIQUE_VIOLATION) return undefined;
  const constraint = pgConstraint(error);
  const what = constraint === 'rooms_department_name_key' ? 'room' : constraint === 'desks_room_name_key' ? 'desk' : undefined;
  if (!what) return undefined;
  const where = what === 'room' ? 'this department' : 'this room';
  const named = name === undefined ? 'the same name' : `the name "${name}"`;
  return new AppError('NAME_TAKEN', `Another ${what} of ${where} already has ${named} (names are compared ignoring case)`, {
    errors: [{ field: 'name', message: `is taken by another ${what} of ${where}` }],
  });
}

/** At most this many desks in one batch or import. */
export const MAX_DESKS_AT_ONCE = 500;
/** The largest CSV file an import takes, in bytes. */
export const MAX_IMPORT_BYTES = 64 * 1024;

/** A desk to add, with where it came from (the CSV line, or the position in a JSON batch). */
export interface DeskToAdd {
  line: number;
  name: string;
  type: string | undefined;
}

const rowError = (line: number, column: string, reason: ImportRowError['reason'], message: string): ImportRowError => ({ line, column, reason, message });

/** The desks of a CSV import: a header naming the columns `name` and, optionally, `type` (any order, any case). */
export function desksOfCsv(text: string): DeskToAdd[] {
  let records;
  try {
    records = parseCsv(text);
  } catch (error) {
    if (error instanceof CsvError) {
      throw new AppError('IMPORT_INVALID', `Line ${error.line}: ${error.message}`, { rows: [rowError(error.line, '', 'UNCLOSED_QUOTE', error.message)] });
    }
    throw error;
  }
  const [header, ...rows] = records;
  if (!header) throw new AppError('IMPORT_INVALID', 'The file is empty', { rows: [rowError(1, 'name', 'MISSING', 'the header line (name,type) is missing')] });
  const columns = header.fields.map((field) => field.trim().toLowerCase());
  const unknown = columns.map((column, index) => ({ column, index })).filter(({ column }) => column !== 'name' && column !== 'type');
  const nameAt = columns.indexOf('name');
  const problems: ImportRowError[] = unknown.map(({ column }) => rowError(header.line, column, 'UNKNOWN_COLUMN', 'the columns are name and, optionally, type'));
  if (nameAt < 0) problems.push(rowError(header.line, 'name', 'MISSING', 'the header line names no column "name"'));
  if (problems.length > 0) throw new AppError('IMPORT_INVALID', 'The header line is not name,type', { rows: problems });
  const typeAt = columns.indexOf('type');
  const tooWide = rows.filter((row) => row.fields.length > columns.length);
  if (tooWide.length > 0) {
    throw new AppError('IMPORT_INVALID', `Line ${tooWide[0]!.line} has more fields than the header`, {
      rows: tooWide.map((row) => rowError(row.line, '', 'TOO_MANY_COLUMNS', `has ${row.fields.length} fields; the header has ${columns.length}`)),
    });
  }
  return rows.map((row) => ({ line: row.line, name: row.fields[nameAt] ?? '', type: typeAt < 0 ? undefined : row.fields[typeAt] }));
}

const departmentNotFound = (id: string) => notFound('Department', id);
const roomNotFound = (path: RoomParams) => notFound('Room', `${path.roomId} of department ${path.departmentId}`);
const deskNotFound = (path: DeskParams) => notFound('Desk', `${path.deskId} in room ${path.roomId} of department ${path.departmentId}`);
const equipmentNotFound = (path: EquipmentParams) =>
  notFound('Equipment', `${path.equipmentId} of desk ${path.deskId} in room ${path.roomId} of department ${path.departmentId}`);

/**
 * Departments contain rooms, rooms desks, desks equipment. Every nested path is checked as a
 * whole: a child that is not under the parent its path names is not found (404), like an
 * unknown id. Deletes refuse (409) while something is beneath, unless forced.
 */
export class InventoryService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  private get repository() {
    return new InventoryRepository(this.db);
  }

  // ---- departments ----------------------------------------------------------------------------

  async listDepartments(query: DepartmentListQuery): Promise<PageOf<DepartmentWithRoomsDto>> {
    const ids = parseIds(query.ids);
    const request = parsePageRequest(query, DEPARTMENT_SORTABLE);
    const { rows, total } = await this.repository.departmentPage(ids, request);
    return pageOf(rows, total, request);
  }

  async getDepartment(id: string): Promise<DepartmentWithRoomsDto> {
    const department = await this.repository.findDepartmentWithRooms(id);
    if (!department) throw departmentNotFound(id);
    return department;
  }

  async createDepartment(body: CreateDepartmentBody): Promise<DepartmentWithRoomsDto> {
    const row = await this.repository.insertDepartment({ location: body.location.trim(), building: body.building.trim(), floor: body.floor }, this.clock.now());
    return toDepartmentDto(row, []);
  }

  async updateDepartment(id: string, body: UpdateDepartmentBody): Promise<DepartmentWithRoomsDto> {
    const row = await this.repository.updateDepartment(
      id,
      { location: body.location?.trim(), building: body.building?.trim(), floor: body.floor },
      this.clock.now(),
    );
    if (!row) throw departmentNotFound(id);
    return this.withRooms(row);
  }

  async deleteDepartment(id: string, force: boolean): Promise<void> {
    if (force) {
      if (!(await this.repository.deleteDepartment(id))) throw departmentNotFound(id);
      return;
    }
    await this.db.transaction(async (tx) => {
      const repository = new InventoryRepository(tx);
      if (!(await repository.lockDepartmentTree(id))) throw departmentNotFound(id);
      const dependents = await repository.dependents({ departmentId: id }, this.clock.now());
      if (dependents.rooms > 0 || dependents.futureReservations > 0) throw hasDependents(`Department ${id}`, dependents);
      await repository.deleteDepartment(id);
    });
  }

  private async withRooms(row: DepartmentRow): Promise<DepartmentWithRoomsDto> {
    const roomIds = await this.repository.roomIdsOf([row.id]);
    return toDepartmentDto(row, roomIds.get(row.id) ?? []);
  }

  // ---- rooms ----------------------------------------------------------------------------------

  async listRooms(path: DepartmentParams, query: RoomListQuery): Promise<PageOf<RoomDto>> {
    const request = parsePageRequest(query, ROOM_SORTABLE);
    const found = await this.repository.roomPage(path.departmentId, query.available, request);
    if (!found) throw departmentNotFound(path.departmentId);
    return pageOf(found.rows, found.total, request);
  }

  async getRoom(path: RoomParams): Promise<RoomDto> {
    const room = await this.repository.findRoomWithDesks(path);
    if (!room) throw roomNotFound(path);
    return room;
  }

  async createRoom(path: DepartmentParams, body: CreateRoomBody): Promise<RoomDto> {
    try {
      const row = await this.repository.insertRoom(path.departmentId, { name: body.name.trim(), available: body.available ?? true }, this.clock.now());
      return toRoomDto(row, []);
    } catch (error) {
      if (isForeignKeyViolation(error)) throw departmentNotFound(path.departmentId);
      throw nameTaken(error, body.name.trim()) ?? error;
    }
  }

  async updateRoom(path: RoomParams, body: UpdateRoomBody): Promise<RoomDto> {
    const patch: RoomPatch = { name: body.name?.trim(), available: body.available, departmentId: body.departmentId };
    try {
      const row = await this.repository.updateRoom(path, patch, this.clock.now());
      if (!row) throw roomNotFound(path);
      return await this.withDesks(row);
    } catch (error) {
      if (isForeignKeyViolation(error)) throw invalid('departmentId', 'no department has this id');
      throw nameTaken(error, patch.name) ?? error;
    }
  }

  async deleteRoom(path: RoomParams, force: boolean): Promise<void> {
    if (force) {
      if (!(await this.repository.deleteRoom(path))) throw roomNotFound(path);
      return;
    }
    await this.db.transaction(async (tx) => {
      const repository = new InventoryRepository(tx);
      if (!(await repository.lockRoomTree(path))) throw roomNotFound(path);
      const dependents = await repository.dependents({ roomId: path.roomId }, this.clock.now());
      if (dependents.desks > 0) throw hasDependents(`Room ${path.roomId}`, dependents);
      await repository.deleteRoom(path);
    });
  }

  private async withDesks(row: RoomRow): Promise<RoomDto> {
    const desks = await this.repository.desksOf([row.id]);
    return toRoomDto(row, desks.get(row.id) ?? []);
  }

  // ---- desks ----------------------------------------------------------------------------------

  async listDesks(path: RoomParams, query: DeskListQuery): Promise<PageOf<DeskDto>> {
    const request = parsePageRequest(query, DESK_SORTABLE);
    const found = await this.repository.deskPage(path, query.type, request);
    if (!found) throw roomNotFound(path);
    return pageOf(found.rows, found.total, request);
  }

  async getDesk(path: DeskParams): Promise<DeskDto> {
    const desk = await this.repository.findDesk(path);
    if (!desk) throw deskNotFound(path);
    return desk;
  }

  async createDesk(path: RoomParams, body: CreateDeskBody): Promise<DeskDto> {
    if (!(await this.repository.findRoom(path))) throw roomNotFound(path);
    try {
      const id = await this.repository.insertDesk(path.roomId, { name: body.name.trim(), type: body.type ?? 'FLEX' }, this.clock.now());
      return { id, name: body.name.trim(), type: body.type ?? 'FLEX', roomId: path.roomId, departmentId: path.departmentId };
    } catch (error) {
      // The room was deleted between the check and the insert.
      if (isForeignKeyViolation(error)) throw roomNotFound(path);
      throw nameTaken(error, body.name.trim()) ?? error;
    }
  }

  async updateDesk(path: DeskParams, body: UpdateDeskBody): Promise<DeskDto> {
    const patch: DeskPatch = { name: body.name?.trim(), type: body.type, roomId: body.roomId };
    try {
      return await this.db.transaction(async (tx) => {
        const repository = new InventoryRepository(tx);
        const id = await repository.updateDesk(path, patch, this.clock.now());
        const desk = id === undefined ? undefined : await repository.findDeskById(id);
        if (!desk) throw deskNotFound(path);
        return desk;
      });
    } catch (error) {
      if (isForeignKeyViolation(error)) throw invalid('roomId', 'no room has this id');
      throw nameTaken(error, patch.name) ?? error;
    }
  }

  async deleteDesk(path: DeskParams, force: boolean): Promise<void> {
    if (force) {
      if (!(await this.repository.deleteDesk(path))) throw deskNotFound(path);
      return;
    }
    await this.db.transaction(async (tx) => {
      const repository = new InventoryRepository(tx);
      if (!(await repository.lockDesk(path))) throw deskNotFound(path);
      const dependents = await repository.dependents({ deskId: path.deskId }, this.clock.now());
      if (dependents.equipment > 0 || dependents.futureReservations > 0) throw hasDependents(`Desk ${path.deskId}`, dependents);
      await repository.deleteDesk(path);
    });
  }

  /**
   * Adds several desks to a room at once, all or none (docs/behaviour.md#adding-many-desks-at-once):
   * every row is checked first (name present and at most SHORT_TEXT_MAX characters, type FLEX or
   * FIXED or empty for FLEX, no name twice in the list nor already in the room, ignoring case), and
   * any refusal is one 400 IMPORT_INVALID listing every refused row; then one insert adds them.
   */
  async addDesks(path: RoomParams, items: DeskToAdd[]): Promise<DeskDto[]> {
    if (items.length === 0) throw new AppError('IMPORT_INVALID', 'There is no desk to add', { rows: [rowError(1, 'name', 'MISSING', 'no desk to add')] });
    if (items.length > MAX_DESKS_AT_ONCE) {
      throw invalid('desks', `at most ${MAX_DESKS_AT_ONCE} desks at once; this has ${items.length}`);
    }
    return this.db
      .transaction(async (tx) => {
        const repository = new InventoryRepository(tx);
        if (!(await repository.findRoom(path))) throw roomNotFound(path);
        const problems: ImportRowError[] = [];
        const seen = new Map<string, number>();
        const desks: { name: string; type: DeskDto['type'] }[] = [];
        for (const item of items) {
          const name = item.name.trim();
          const rawType = (item.type ?? '').trim().toUpperCase();
          if (name.length === 0) problems.push(rowError(item.line, 'name', 'MISSING', 'the desk has no name'));
          else if (name.length > SHORT_TEXT_MAX) problems.push(rowError(item.line, 'name', 'TOO_LONG', `a name has at most ${SHORT_TEXT_MAX} characters`));
          else if (seen.has(name.toLowerCase())) {
            problems.push(rowError(item.line, 'name', 'REPEATED_IN_IMPORT', `"${name}" is also on line ${seen.get(name.toLowerCase())}`));
          } else seen.set(name.toLowerCase(), item.line);
          if (rawType !== '' && rawType !== 'FLEX' && rawType !== 'FIXED')
            problems.push(rowError(item.line, 'type', 'UNKNOWN_TYPE', 'the type is FLEX or FIXED (empty: FLEX)'));
          desks.push({ name, type: rawType === 'FIXED' ? 'FIXED' : 'FLEX' });
        }
        const taken = await repository.takenDeskNames(path.roomId, [...seen.keys()]);
        for (const item of items) {
          const existing = taken.get(item.name.trim().toLowerCase());
          if (existing !== undefined && seen.get(item.name.trim().toLowerCase()) === item.line) {
            problems.push(rowError(item.line, 'name', 'NAME_TAKEN', `the room already has a desk "${existing}"`));
          }
        }
        if (problems.length > 0) {
          problems.sort((a, b) => a.line - b.line);
          throw new AppError('IMPORT_INVALID', `${problems.length} ${problems.length === 1 ? 'row is' : 'rows are'} not valid; nothing was added`, {
            rows: problems,
          });
        }
        const added = await repository.insertDesks(path.roomId, desks, this.clock.now());
        return added.map((desk) => ({ ...desk, roomId: path.roomId, departmentId: path.departmentId }));
      })
      .catch((error: unknown) => {
        // A room deleted, or a name taken, between the checks and the insert.
        if (isForeignKeyViolation(error)) throw roomNotFound(path);
        throw nameTaken(error, undefined) ?? error;
      });
  }

  /** A CSV file of desks (header `name,type`), added to the room as addDesks does. */
  async importDesks(path: RoomParams, text: string): Promise<DeskDto[]> {
    const items = desksOfCsv(text);
    if (items.length > MAX_DESKS_AT_ONCE) {
      throw new AppError('IMPORT_INVALID', `At most ${MAX_DESKS_AT_ONCE} desks at once; this file has ${items.length}`, {
        rows: [rowError(items[MAX_DESKS_AT_ONCE]!.line, '', 'TOO_MANY_ROWS', `at most ${MAX_DESKS_AT_ONCE} rows; this is one more`)],
      });
    }
    return this.addDesks(path, items);
  }

  // ---- sample data ----------------------------------------------------------------------------

  /**
   * Loads the sample office (inventory.sample.ts) into an install that has no office yet
   * (docs/behaviour.md#an-empty-install): 409 INSTALL_NOT_EMPTY otherwise, so it happens at most
   * once, and two admins loading at once load it once (they wait on one lock).
   */
  async loadSampleData(): Promise<DepartmentWithRoomsDto> {
    const now = this.clock.now();
    return this.db.transaction(async (tx) => {
      const repository = new InventoryRepository(tx);
      await repository.lockSampleData();
      if (await repository.anyDepartment()) {
        throw new AppError('INSTALL_NOT_EMPTY', 'Offices exist already; sample data is loaded only into an install without offices');
      }
      const department = await repository.insertDepartment(SAMPLE_DEPARTMENT, now);
      const roomIds: string[] = [];
      for (const sample of SAMPLE_ROOMS) {
        const room = await repository.insertRoom(department.id, { name: sample.name, available: true }, now);
        roomIds.push(room.id);
        const desks = await repository.insertDesks(
          room.id,
          sample.desks.map(({ name, type }) => ({ name, type })),
          now,
        );
        for (const [index, desk] of desks.entries()) {
          for (const item of sample.desks[index]!.equipment) await repository.insertEquipment(desk.id, item, now);
        }
      }
      return toDepartmentDto(department, roomIds);
    });
  }

  // ---- equipment ------------------------------------------------------------------------------

  /** Every desk of a department with what it has (docs/api.md#desk-equipment); not sortable. */
  async listDeskEquipment(path: DepartmentParams, query: DeskEquipmentListQuery): Promise<PageOf<DeskEquipmentDto>> {
    const request = parsePageRequest(query, []);
    const found = await this.repository.deskEquipmentPage(path.departmentId, request);
    if (!found) throw departmentNotFound(path.departmentId);
    return pageOf(found.rows, found.total, request);
  }

  async listEquipment(path: DeskParams, query: EquipmentListQuery): Promise<PageOf<EquipmentDto>> {
    const filter = parseEquipmentFilter(query.filter);
    const request = parsePageRequest(query, EQUIPMENT_SORTABLE);
    const found = await this.repository.equipmentPage(path, filter, request);
    if (!found) throw deskNotFound(path);
    return pageOf(found.rows, found.total, request);
  }

  async getEquipment(path: EquipmentParams): Promise<EquipmentDto> {
    const item = await this.repository.findEquipment(path);
    if (!item) throw equipmentNotFound(path);
    return item;
  }

  async createEquipment(path: DeskParams, body: CreateEquipmentBody): Promise<EquipmentDto> {
    if (!(await this.repository.findDesk(path))) throw deskNotFound(path);
    try {
      return await this.repository.insertEquipment(path.deskId, { name: body.name.trim(), description: body.description, type: body.type }, this.clock.now());
    } catch (error) {
      if (isForeignKeyViolation(error)) throw deskNotFound(path);
      throw error;
    }
  }

  async updateEquipment(path: EquipmentParams, body: UpdateEquipmentBody): Promise<EquipmentDto> {
    const item = await this.repository.updateEquipment(path, { name: body.name?.trim(), description: body.description, type: body.type }, this.clock.now());
    if (!item) throw equipmentNotFound(path);
    return item;
  }

  /** Equipment has nothing beneath it: always deletable. */
  async deleteEquipment(path: EquipmentParams): Promise<void> {
    if (!(await this.repository.deleteEquipment(path))) throw equipmentNotFound(path);
  }
}
