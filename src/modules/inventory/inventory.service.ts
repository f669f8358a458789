import type { Database } from '../../db/client.js';
import { pgErrorCode, PG } from '../../db/errors.js';
import type { Clock } from '../../shared/clock.js';
import { AppError, invalid, notFound } from '../../shared/errors.js';
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
      throw error;
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
      throw error;
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
      throw error;
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
      throw error;
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
