import { and, count, eq, exists, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import { queryRows, type Database } from '../../db/client.js';
import { byShape, prepareRaw } from '../../db/prepared.js';
import { departments, desks, equipment, rooms } from '../../db/schema.js';
import { fromJson, orderByClauses, ordersShape, pagePlaceholders, pageUnderParent, pageValues, totalOfPage } from '../../db/paging.js';
import { offsetOf, type PageRequest } from '../../shared/paging.js';
import { containsPattern } from '../../shared/text.js';
import type { DepartmentWithRoomsDto, DeskDto, DeskEquipmentDto, DeskParams, EquipmentDto, EquipmentParams, RoomDto, RoomParams } from './inventory.schemas.js';

export type DepartmentRow = typeof departments.$inferSelect;
export type RoomRow = typeof rooms.$inferSelect;
type DeskInsert = Pick<typeof desks.$inferInsert, 'name' | 'type'>;
type EquipmentRow = typeof equipment.$inferSelect;

export type DepartmentValues = Pick<DepartmentRow, 'location' | 'building' | 'floor'>;
export type RoomValues = Pick<RoomRow, 'name' | 'available'>;
export type RoomPatch = Partial<Pick<RoomRow, 'name' | 'available' | 'departmentId'>>;
export type DeskPatch = Partial<Pick<typeof desks.$inferSelect, 'name' | 'type' | 'roomId'>>;
export type EquipmentValues = Pick<EquipmentRow, 'name' | 'description' | 'type'>;

export const DEPARTMENT_SORTABLE = ['id', 'location', 'building', 'floor'] as const;
export const ROOM_SORTABLE = ['id', 'name', 'available'] as const;
export const DESK_SORTABLE = ['id', 'name', 'type'] as const;
export const EQUIPMENT_SORTABLE = ['id', 'name', 'type', 'description'] as const;

// Enum types sort by their names (alphabetically), as a client sees them.
const departmentSort = { id: departments.id, location: departments.location, building: departments.building, floor: departments.floor };
const roomSort = { id: rooms.id, name: rooms.name, available: rooms.available };
const deskSort = { id: desks.id, name: desks.name, type: sql`${desks.type}::text` };
const equipmentSort = { id: equipment.id, name: equipment.name, type: sql`${equipment.type}::text`, description: equipment.description };

/** A desk as the API shows it: its department is its room's. */
const deskColumns = { id: desks.id, name: desks.name, type: desks.type, roomId: desks.roomId, departmentId: rooms.departmentId };
const equipmentColumns = { id: equipment.id, name: equipment.name, description: equipment.description, type: equipment.type };

export interface EquipmentFilter {
  types: EquipmentDto['type'][];
  nameParts: string[];
}

/** What is still under a department, room or desk; `futureReservations` end after `now`. */
export interface Dependents {
  rooms: number;
  desks: number;
  equipment: number;
  futureReservations: number;
}

export type Subtree = { departmentId: string } | { roomId: string } | { deskId: string };

/** The desks of the room in scope as `rooms` (name, id order), as one json array. */
const desksOfRoomJson = sql`coalesce((select json_agg(json_build_object('id', d.id, 'name', d.name, 'type', d.type, 'roomId', d.room_id, 'departmentId', rooms.department_id) order by d.name, d.id) from desks d where d.room_id = rooms.id), '[]'::json)`;
/**
 * The room ids of the department in scope as `departments` (name, id order), as one text. An
 * array of the index-ordered subquery, not string_agg(… order by …), which sorts each department's rooms again.
 */
const roomIdsOfDepartmentText = sql`array_to_string(array(select r.id::text from rooms r where r.department_id = departments.id order by r.name, r.id), ',')`;
const splitIds = (text: string): string[] => (text === '' ? [] : text.split(','));
const orderBy = (clauses: SQL[]) => sql.join(clauses, sql`, `);

interface Paged<T> {
  rows: T[];
  total: number;
}

export class InventoryRepository {
  constructor(private readonly db: Database) {}

  // ---- departments ----------------------------------------------------------------------------

  /**
   * One statement: the page, each department with its room ids (room name, id order) and the
   * total. Only a page past the end counts apart. Prepared once per shape (docs/benchmarks.md#prepared-queries).
   * Raw rows in the item's shape (docs/benchmarks.md#lists): no timestamps read, no row mapping,
   * the total an uncorrelated subquery (computed once), so the page is read in index order
   * instead of sorting every department for a `count(*) over ()`.
   */
  async departmentPage(ids: string[] | undefined, request: PageRequest): Promise<Paged<DepartmentWithRoomsDto>> {
    const shape = `departments:${ids?.length ?? ''}:${ordersShape(request)}`;
    const query = byShape(this.db, shape, () => {
      const where =
        ids === undefined
          ? sql`true`
          : inArray(
              departments.id,
              ids.map((_, index) => sql.placeholder(`id${index}`)),
            );
      const order = orderByClauses(
        request,
        departmentSort,
        [sql`${departments.location}`, sql`${departments.building}`, sql`${departments.floor}`],
        departments.id,
      );
      return prepareRaw(
        this.db,
        sql`select departments.id, departments.location, departments.building, departments.floor, ${roomIdsOfDepartmentText} as "rooms",
                   (select count(*) from departments where ${where})::int as "total"
            from departments where ${where}
            order by ${orderBy(order)}
            limit ${pagePlaceholders.limit} offset ${pagePlaceholders.offset}`,
      );
    });
    const values: Record<string, unknown> = pageValues(request);
    ids?.forEach((id, index) => (values[`id${index}`] = id));
    const rows = await query.rows<Omit<DepartmentWithRoomsDto, 'rooms'> & { rooms: string; total: number }>(values);
    const where = ids === undefined ? undefined : inArray(departments.id, ids);
    const total = await totalOfPage(rows, request, async () => (await this.db.select({ total: count() }).from(departments).where(where))[0]?.total ?? 0);
    return { rows: rows.map((row) => ({ id: row.id, location: row.location, building: row.building, floor: row.floor, rooms: splitIds(row.rooms) })), total };
  }

  /** The department with its room ids (room name, id order), in one statement. */
  async findDepartmentWithRooms(id: string): Promise<DepartmentWithRoomsDto | undefined> {
    const [row] = await queryRows<Omit<DepartmentWithRoomsDto, 'rooms'> & { rooms: string }>(
      this.db,
      sql`select departments.id, departments.location, departments.building, departments.floor, ${roomIdsOfDepartmentText} as "rooms"
          from departments where departments.id = ${id}`,
    );
    return row === undefined ? undefined : { ...row, rooms: splitIds(row.rooms) };
  }

  async findDepartment(id: string): Promise<DepartmentRow | undefined> {
    const [row] = await this.db.select().from(departments).where(eq(departments.id, id)).limit(1);
    return row;
  }

  /** Room ids of these departments, each department's in room name, id order. */
  async roomIdsOf(departmentIds: string[]): Promise<Map<string, string[]>> {
    const byDepartment = new Map<string, string[]>(departmentIds.map((id) => [id, []]));
    if (departmentIds.length === 0) return byDepartment;
    const rows = await this.db
      .select({ id: rooms.id, departmentId: rooms.departmentId })
      .from(rooms)
      .where(inArray(rooms.departmentId, departmentIds))
      .orderBy(rooms.name, rooms.id);
    for (const row of rows) byDepartment.get(row.departmentId)?.push(row.id);
    return byDepartment;
  }

  async insertDepartment(values: DepartmentValues, now: Date): Promise<DepartmentRow> {
    const [row] = await this.db
      .insert(departments)
      .values({ ...values, createdAt: now, modifiedAt: now })
      .returning();
    return row!;
  }

  async updateDepartment(id: string, patch: Partial<DepartmentValues>, now: Date): Promise<DepartmentRow | undefined> {
    const [row] = await this.db
      .update(departments)
      .set({ ...patch, modifiedAt: now })
      .where(eq(departments.id, id))
      .returning();
    return row;
  }

  async deleteDepartment(id: string): Promise<boolean> {
    const rows = await this.db.delete(departments).where(eq(departments.id, id)).returning({ id: departments.id });
    return rows.length > 0;
  }

  /**
   * Locks a department, its rooms and their desks (call inside a transaction). From then until
   * commit no room, desk, equipment item or reservation can be added beneath it: inserting one
   * needs a key-share lock on its parent row. Answers false when there is no such department.
   */
  async lockDepartmentTree(id: string): Promise<boolean> {
    const found = await this.db.select({ id: departments.id }).from(departments).where(eq(departments.id, id)).for('update');
    if (found.length === 0) return false;
    await this.db.select({ id: rooms.id }).from(rooms).where(eq(rooms.departmentId, id)).for('update');
    await this.db
      .select({ id: desks.id })
      .from(desks)
      .innerJoin(rooms, eq(rooms.id, desks.roomId))
      .where(eq(rooms.departmentId, id))
      .for('update', { of: desks });
    return true;
  }

  // ---- rooms ----------------------------------------------------------------------------------

  /**
   * The department's rooms, each with its desks, and their total; undefined when there is no such
   * department. One statement (pageUnderParent).
   */
  async roomPage(departmentId: string, available: boolean | undefined, request: PageRequest): Promise<Paged<RoomDto> | undefined> {
    const found = await pageUnderParent<RoomDto & { desks: unknown }>(
      this.db,
      () => {
        const where = and(
          eq(rooms.departmentId, sql.placeholder('departmentId')),
          available === undefined ? undefined : eq(rooms.available, sql.placeholder('available')),
        );
        return {
          parent: sql`select 1 from departments where departments.id = ${sql.placeholder('departmentId')}`,
          page: sql`select rooms.id, rooms.name, rooms.department_id as "departmentId", rooms.available, ${desksOfRoomJson} as "desks"
                    from rooms where ${where}
                    order by ${orderBy(orderByClauses(request, roomSort, [sql`${rooms.name}`], rooms.id))}
                    limit ${pagePlaceholders.limit} offset ${pagePlaceholders.offset}`,
          total: sql`select count(*) from rooms where ${where}`,
        };
      },
      { shape: `rooms:${available === undefined ? '' : 'available'}:${ordersShape(request)}`, values: { departmentId, available, ...pageValues(request) } },
    );
    if (!found) return undefined;
    return { rows: found.rows.map((row) => ({ ...row, desks: fromJson<DeskDto[]>(row.desks) })), total: found.total };
  }

  /** The room of that department with its desks (name, id order), in one statement. */
  async findRoomWithDesks(path: RoomParams): Promise<RoomDto | undefined> {
    const [row] = await queryRows<RoomDto>(
      this.db,
      sql`select rooms.id, rooms.name, rooms.department_id as "departmentId", rooms.available, ${desksOfRoomJson} as "desks"
          from rooms where rooms.id = ${path.roomId} and rooms.department_id = ${path.departmentId}`,
    );
    return row === undefined ? undefined : { ...row, desks: fromJson<DeskDto[]>(row.desks) };
  }

  /** The room, if it belongs to that department. */
  async findRoom(path: RoomParams): Promise<RoomRow | undefined> {
    const [row] = await this.db
      .select()
      .from(rooms)
      .where(and(eq(rooms.id, path.roomId), eq(rooms.departmentId, path.departmentId)))
      .limit(1);
    return row;
  }

  /** All desks of these rooms, each room's in name, id order. */
  async desksOf(roomIds: string[]): Promise<Map<string, DeskDto[]>> {
    const byRoom = new Map<string, DeskDto[]>(roomIds.map((id) => [id, []]));
    if (roomIds.length === 0) return byRoom;
    const rows = await this.db
      .select(deskColumns)
      .from(desks)
      .innerJoin(rooms, eq(rooms.id, desks.roomId))
      .where(inArray(desks.roomId, roomIds))
      .orderBy(desks.name, desks.id);
    for (const row of rows) byRoom.get(row.roomId)?.push(row);
    return byRoom;
  }

  async insertRoom(departmentId: string, values: RoomValues, now: Date): Promise<RoomRow> {
    const [row] = await this.db
      .insert(rooms)
      .values({ ...values, departmentId, createdAt: now, modifiedAt: now })
      .returning();
    return row!;
  }

  /** Changes the room if it belongs to the department of the path. */
  async updateRoom(path: RoomParams, patch: RoomPatch, now: Date): Promise<RoomRow | undefined> {
    const [row] = await this.db
      .update(rooms)
      .set({ ...patch, modifiedAt: now })
      .where(and(eq(rooms.id, path.roomId), eq(rooms.departmentId, path.departmentId)))
      .returning();
    return row;
  }

  async deleteRoom(path: RoomParams): Promise<boolean> {
    const rows = await this.db
      .delete(rooms)
      .where(and(eq(rooms.id, path.roomId), eq(rooms.departmentId, path.departmentId)))
      .returning({ id: rooms.id });
    return rows.length > 0;
  }

  /** Like lockDepartmentTree, for a room of the path's department and its desks. */
  async lockRoomTree(path: RoomParams): Promise<boolean> {
    const found = await this.db
      .select({ id: rooms.id })
      .from(rooms)
      .where(and(eq(rooms.id, path.roomId), eq(rooms.departmentId, path.departmentId)))
      .for('update');
    if (found.length === 0) return false;
    await this.db.select({ id: desks.id }).from(desks).where(eq(desks.roomId, path.roomId)).for('update');
    return true;
  }

  // ---- desks ----------------------------------------------------------------------------------

  /**
   * The room's desks and their total; undefined when the room is not in that department. One
   * statement. Room and department are the path's (the parent check proves them), so only the
   * desks' own columns are read (docs/benchmarks.md#lists).
   */
  async deskPage(path: RoomParams, type: DeskDto['type'] | undefined, request: PageRequest): Promise<Paged<DeskDto> | undefined> {
    // As PostgreSQL writes a uuid (the path may spell it in capitals).
    const roomId = path.roomId.toLowerCase();
    const departmentId = path.departmentId.toLowerCase();
    return pageUnderParent<DeskDto>(
      this.db,
      () => {
        const where = and(eq(desks.roomId, sql.placeholder('roomId')), type === undefined ? undefined : eq(desks.type, sql.placeholder('type')));
        return {
          parent: sql`select 1 from rooms where rooms.id = ${sql.placeholder('roomId')} and rooms.department_id = ${sql.placeholder('departmentId')}`,
          page: sql`select desks.id, desks.name, desks.type from desks where ${where}
                    order by ${orderBy(orderByClauses(request, deskSort, [sql`${desks.name}`], desks.id))}
                    limit ${pagePlaceholders.limit} offset ${pagePlaceholders.offset}`,
          total: sql`select count(*) from desks where ${where}`,
        };
      },
      { shape: `desks:${type === undefined ? '' : 'type'}:${ordersShape(request)}`, values: { ...path, type, ...pageValues(request) } },
      (row) => ({ id: row.id as string, name: row.name as string, type: row.type as DeskDto['type'], roomId, departmentId }),
    );
  }

  /** The desk, if it is in that room of that department. */
  async findDesk(path: DeskParams): Promise<DeskDto | undefined> {
    const [row] = await this.db.select(deskColumns).from(desks).innerJoin(rooms, eq(rooms.id, desks.roomId)).where(this.deskOnPath(path)).limit(1);
    return row;
  }

  async findDeskById(id: string): Promise<DeskDto | undefined> {
    const [row] = await this.db.select(deskColumns).from(desks).innerJoin(rooms, eq(rooms.id, desks.roomId)).where(eq(desks.id, id)).limit(1);
    return row;
  }

  async insertDesk(roomId: string, values: DeskInsert, now: Date): Promise<string> {
    const [row] = await this.db
      .insert(desks)
      .values({ ...values, roomId, createdAt: now, modifiedAt: now })
      .returning({ id: desks.id });
    return row!.id;
  }

  /**
   * Adds several desks to a room in one statement (docs/behaviour.md#adding-many-desks-at-once);
   * answers them in the order given. A name taken meanwhile fails the whole statement (unique index).
   */
  async insertDesks(roomId: string, values: DeskInsert[], now: Date): Promise<{ id: string; name: string; type: DeskDto['type'] }[]> {
    if (values.length === 0) return [];
    const rows = await this.db
      .insert(desks)
      .values(values.map((value) => ({ ...value, roomId, createdAt: now, modifiedAt: now })))
      .returning({ id: desks.id, name: desks.name, type: desks.type });
    const byName = new Map(rows.map((row) => [row.name, row]));
    return values.map((value) => byName.get(value.name)!);
  }

  /** Which of these names (compared in lower case) desks of the room already have, as they are written there. */
  async takenDeskNames(roomId: string, names: string[]): Promise<Map<string, string>> {
    if (names.length === 0) return new Map();
    const lowered = [...new Set(names.map((name) => name.toLowerCase()))];
    const rows = await this.db
      .select({ name: desks.name })
      .from(desks)
      .where(and(eq(desks.roomId, roomId), inArray(sql`lower(${desks.name})`, lowered)));
    return new Map(rows.map((row) => [row.name.toLowerCase(), row.name]));
  }

  /** Whether any department exists. */
  async anyDepartment(): Promise<boolean> {
    const [row] = await this.db.select({ id: departments.id }).from(departments).limit(1);
    return row !== undefined;
  }

  /**
   * Holds, until the transaction ends, the lock every loading of sample data takes, so that two
   * admins loading at once load once (docs/behaviour.md#an-empty-install).
   */
  async lockSampleData(): Promise<void> {
    await this.db.execute(sql`select pg_advisory_xact_lock(hashtext('deskbook.sample-data'))`);
  }

  /** Changes the desk if it is on the path; answers its id, or undefined. */
  async updateDesk(path: DeskParams, patch: DeskPatch, now: Date): Promise<string | undefined> {
    const [row] = await this.db
      .update(desks)
      .set({ ...patch, modifiedAt: now })
      .where(and(eq(desks.id, path.deskId), eq(desks.roomId, path.roomId), this.roomInDepartment(path)))
      .returning({ id: desks.id });
    return row?.id;
  }

  async deleteDesk(path: DeskParams): Promise<boolean> {
    const rows = await this.db
      .delete(desks)
      .where(and(eq(desks.id, path.deskId), eq(desks.roomId, path.roomId), this.roomInDepartment(path)))
      .returning({ id: desks.id });
    return rows.length > 0;
  }

  /** Locks the desk of the path (see lockDepartmentTree); false when it is not on that path. */
  async lockDesk(path: DeskParams): Promise<boolean> {
    const found = await this.db
      .select({ id: desks.id })
      .from(desks)
      .innerJoin(rooms, eq(rooms.id, desks.roomId))
      .where(this.deskOnPath(path))
      .for('update', { of: desks });
    return found.length > 0;
  }

  // ---- equipment ------------------------------------------------------------------------------

  /**
   * Every desk of the department with its equipment (room name, desk name, id order), and their
   * total; undefined when there is no such department. One statement (pageUnderParent).
   */
  async deskEquipmentPage(departmentId: string, request: PageRequest): Promise<Paged<DeskEquipmentDto> | undefined> {
    const found = await pageUnderParent<DeskEquipmentDto & { equipment: unknown }>(
      this.db,
      () => ({
        parent: sql`select 1 from departments where departments.id = ${sql.placeholder('departmentId')}`,
        page: sql`select d.id as "deskId", d.room_id as "roomId",
                    coalesce((select json_agg(json_build_object('id', e.id, 'name', e.name, 'description', e.description, 'type', e.type)
                                              order by e.type::text, e.name, e.id)
                              from equipment e where e.desk_id = d.id), '[]'::json) as "equipment"
                  from desks d join rooms r on r.id = d.room_id
                  where r.department_id = ${sql.placeholder('departmentId')}
                  order by r.name, r.id, d.name, d.id
                  limit ${pagePlaceholders.limit} offset ${pagePlaceholders.offset}`,
        total: sql`select count(*) from desks d join rooms r on r.id = d.room_id where r.department_id = ${sql.placeholder('departmentId')}`,
      }),
      { shape: 'desk-equipment', values: { departmentId, ...pageValues(request) } },
    );
    if (!found) return undefined;
    return { rows: found.rows.map((row) => ({ ...row, equipment: fromJson<EquipmentDto[]>(row.equipment) })), total: found.total };
  }

  /** The desk's equipment and its total; undefined when the desk is not on that path. One statement. */
  async equipmentPage(path: DeskParams, filter: EquipmentFilter, request: PageRequest): Promise<Paged<EquipmentDto> | undefined> {
    const matches: SQL[] = [];
    if (filter.types.length > 0) matches.push(inArray(equipment.type, filter.types));
    for (const part of filter.nameParts) matches.push(ilike(equipment.name, containsPattern(part)));
    const where = and(eq(equipment.deskId, path.deskId), matches.length > 0 ? or(...matches) : undefined);
    return pageUnderParent<EquipmentDto>(this.db, {
      parent: sql`select 1 from desks join rooms on rooms.id = desks.room_id where ${this.deskOnPath(path)}`,
      page: sql`select equipment.id, equipment.name, equipment.description, equipment.type
                from equipment where ${where}
                order by ${orderBy(orderByClauses(request, equipmentSort, [sql`${equipment.name}`], equipment.id))}
                limit ${request.size} offset ${offsetOf(request)}`,
      total: sql`select count(*) from equipment where ${where}`,
    });
  }

  async findEquipment(path: EquipmentParams): Promise<EquipmentDto | undefined> {
    const [row] = await this.db
      .select(equipmentColumns)
      .from(equipment)
      .where(and(eq(equipment.id, path.equipmentId), eq(equipment.deskId, path.deskId), this.deskExistsOnPath(path)))
      .limit(1);
    return row;
  }

  async insertEquipment(deskId: string, values: EquipmentValues, now: Date): Promise<EquipmentDto> {
    const [row] = await this.db
      .insert(equipment)
      .values({ ...values, deskId, createdAt: now, modifiedAt: now })
      .returning(equipmentColumns);
    return row!;
  }

  async updateEquipment(path: EquipmentParams, patch: Partial<EquipmentValues>, now: Date): Promise<EquipmentDto | undefined> {
    const [row] = await this.db
      .update(equipment)
      .set({ ...patch, modifiedAt: now })
      .where(and(eq(equipment.id, path.equipmentId), eq(equipment.deskId, path.deskId), this.deskExistsOnPath(path)))
      .returning(equipmentColumns);
    return row;
  }

  async deleteEquipment(path: EquipmentParams): Promise<boolean> {
    const rows = await this.db
      .delete(equipment)
      .where(and(eq(equipment.id, path.equipmentId), eq(equipment.deskId, path.deskId), this.deskExistsOnPath(path)))
      .returning({ id: equipment.id });
    return rows.length > 0;
  }

  // ---- what is under a node -------------------------------------------------------------------

  /** Counts what lies beneath a department, room or desk (not the node itself). */
  async dependents(subtree: Subtree, now: Date): Promise<Dependents> {
    // Aliases: d = desks, r = their rooms; the scope picks the desks at or under the node.
    let scope: SQL;
    let roomCount: SQL = sql`0`;
    let deskCount: SQL = sql`0`;
    if ('departmentId' in subtree) {
      scope = sql`r.department_id = ${subtree.departmentId}`;
      roomCount = sql`(select count(*) from rooms r where ${scope})`;
      deskCount = sql`(select count(*) from desks d join rooms r on r.id = d.room_id where ${scope})`;
    } else if ('roomId' in subtree) {
      scope = sql`d.room_id = ${subtree.roomId}`;
      deskCount = sql`(select count(*) from desks d where ${scope})`;
    } else {
      scope = sql`d.id = ${subtree.deskId}`;
    }
    const [row] = await queryRows<Dependents>(
      this.db,
      sql`select
            ${roomCount}::int as "rooms",
            ${deskCount}::int as "desks",
            (select count(*) from equipment e join desks d on d.id = e.desk_id join rooms r on r.id = d.room_id where ${scope})::int as "equipment",
            (select count(*) from reservations v join desks d on d.id = v.desk_id join rooms r on r.id = d.room_id
              where ${scope} and v.end_time > ${now.toISOString()}::timestamptz)::int as "futureReservations"`,
    );
    return row!;
  }

  // ---- path conditions ------------------------------------------------------------------------

  /** For a query joining desks with rooms. */
  private deskOnPath(path: DeskParams): SQL {
    return and(eq(desks.id, path.deskId), eq(desks.roomId, path.roomId), eq(rooms.departmentId, path.departmentId))!;
  }

  private roomInDepartment(path: RoomParams): SQL {
    return exists(
      this.db
        .select({ one: sql`1` })
        .from(rooms)
        .where(and(eq(rooms.id, path.roomId), eq(rooms.departmentId, path.departmentId))),
    );
  }

  private deskExistsOnPath(path: DeskParams): SQL {
    return exists(
      this.db
        .select({ one: sql`1` })
        .from(desks)
        .innerJoin(rooms, eq(rooms.id, desks.roomId))
        .where(this.deskOnPath(path)),
    );
  }
}
