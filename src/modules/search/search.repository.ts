import { and, asc, count, desc, eq, getTableColumns, ilike, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Database } from '../../db/client.js';
import { reservedRangeOf, timestampOf, windowRange, type TimeWindow } from '../../db/time-ranges.js';
import { departments, desks, equipment, reports, reservations, rooms } from '../../db/schema.js';
import { orderByClauses, totalOfPage } from '../../db/paging.js';
import { offsetOf, type PageRequest } from '../../shared/paging.js';
import { containsPattern } from '../../shared/text.js';

export const ROOM_SORTABLE = ['id', 'name', 'available'] as const;
export const DEPARTMENT_SORTABLE = ['id', 'location', 'building', 'floor'] as const;
export const REPORT_SORTABLE = ['id', 'title', 'createdAt', 'reportedBy'] as const;

export type { TimeWindow };

/** Criteria of a room or department search, validated and normalised by the service. */
export interface PlaceCriteria {
  department: { location?: string; building?: string; floor?: number };
  room: { id?: string; name?: string; available?: boolean };
  desk: { id?: string; name?: string; type?: (typeof desks.$inferSelect)['type'] };
  equipment: { type?: (typeof equipment.$inferSelect)['type']; name?: string }[];
  /** Desks reserved for the whole window. */
  full?: TimeWindow;
  /** Desks free for the whole window; with `partlyFreeSeconds`, also those with a free stretch at least that long in it. */
  free?: TimeWindow & { partlyFreeSeconds?: number };
}

export interface ReportCriteria {
  title?: string;
  description?: string;
  reportedBy?: string;
  department?: string;
  room?: string;
  desk?: string;
  equipment?: string;
}

export type RoomRow = Pick<typeof rooms.$inferSelect, 'id' | 'name' | 'departmentId' | 'available'>;
/** A matching room with exactly its matching desks, by name and id. */
export interface RoomMatch extends RoomRow {
  desks: DeskRow[];
}
export type DepartmentRow = Pick<typeof departments.$inferSelect, 'id' | 'location' | 'building' | 'floor'>;
export type ReportRow = typeof reports.$inferSelect;
export interface DeskRow {
  id: string;
  name: string;
  type: (typeof desks.$inferSelect)['type'];
  roomId: string;
  departmentId: string;
}

// Aliases keep the correlated subqueries apart from the outer query's tables.
const d = alias(desks, 'd');
const e = alias(equipment, 'e');
const res = alias(reservations, 'res');

const before = alias(reservations, 'before');

const reservedRange = reservedRangeOf(res);

/*
 * A desk's reservations never overlap one another (the exclusion constraint
 * reservations_desk_overlap), so in start order they are in end order too. That lets the probes
 * below read the B-tree reservations_desk_start_idx (desk, start, end) in one descent, where the
 * GiST index of the constraint costs about three times as much per probe
 * (docs/query-plans.md#room-search-post-apisearchrooms).
 */

/**
 * The desk `d` has no reservation overlapping the window: the last of its reservations that
 * starts before the window ends (if any) ends by the window's start.
 */
const deskFreeIn = (window: TimeWindow) =>
  sql`coalesce((select ${res.endTime} from ${reservations} ${res} where ${res.deskId} = ${d.id} and ${res.startTime} < ${timestampOf(window.end)}
                order by ${res.startTime} desc limit 1) <= ${timestampOf(window.start)}, true)`;

/**
 * No closed day of the desk `d`'s office touches the window (docs/policies.md#closures-and-holidays):
 * a desk on a closed day is not free. The first test names no desk, so PostgreSQL runs it once per
 * statement; only with a closure near the window (local dates lie within a day of the UTC ones)
 * is each desk probed through closure_on. No statement is added.
 */
const deskOpenIn = (window: TimeWindow) =>
  sql`(not exists (select 1 from closure_days cd where cd.day between (${timestampOf(window.start)} at time zone 'UTC')::date - 1
                                                          and (${timestampOf(window.end)} at time zone 'UTC')::date + 1)
       or not exists (select 1 from closure_on(${d.id}, ${timestampOf(window.start)}, ${timestampOf(window.end)})))`;

/**
 * The reservations `res` of the desk `d` overlapping the window. They start between the start of
 * the last reservation beginning at or before the window's start (the only earlier one that can
 * reach into the window) and the window's end: a bounded range of the B-tree.
 */
const reservationsOfDeskIn = (window: TimeWindow) => {
  const start = timestampOf(window.start);
  const end = timestampOf(window.end);
  const earliest = sql`coalesce((select ${before.startTime} from ${reservations} ${before} where ${before.deskId} = ${d.id} and ${before.startTime} <= ${start}
                                 order by ${before.startTime} desc limit 1), ${start})`;
  return sql`${res.deskId} = ${d.id} and ${res.startTime} >= ${earliest} and ${res.startTime} < ${end} and ${res.endTime} > ${start}`;
};

/** The equipment `e` matches the item: type equal and name a substring, whichever are given. */
function equipmentMatches(item: PlaceCriteria['equipment'][number]): SQL {
  const conditions: SQL[] = [];
  if (item.type !== undefined) conditions.push(sql`${e.type} = ${item.type}::equipment_type`);
  if (item.name !== undefined) conditions.push(ilike(e.name, containsPattern(item.name)));
  return conditions.length > 0 ? and(...conditions)! : sql`true`;
}

/**
 * The desk `d` has equipment matching each item, in two conditions whatever the number of items.
 * One item is an EXISTS, which the planner turns into a semi-join it can drive from the equipment
 * type index. The others are checked together by one pass over the desk's equipment: per item,
 * whether some piece matches (bool_or); no equipment is null, hence false. One EXISTS per item
 * made each a further semi-join for the planner to order: 20 items took PostgreSQL about a second
 * to plan (docs/behaviour.md, Search).
 */
function hasAllEquipment(items: PlaceCriteria['equipment']): SQL[] {
  // The likely most selective item leads: a type (served by the index) and a name, then a type, then a name.
  const weight = (item: PlaceCriteria['equipment'][number]) => (item.type !== undefined ? 2 : 0) + (item.name ? 1 : 0);
  const lead = items.reduce((best, item, index) => (weight(item) > weight(items[best]!) ? index : best), 0);
  const conditions = [sql`exists (select 1 from ${equipment} ${e} where ${e.deskId} = ${d.id} and ${equipmentMatches(items[lead]!)})`];
  const others = items.filter((_, index) => index !== lead);
  if (others.length > 0) {
    const eachMatched = sql.join(
      others.map((item) => sql`bool_or(${equipmentMatches(item)})`),
      sql` and `,
    );
    conditions.push(sql`coalesce((select ${eachMatched} from ${equipment} ${e} where ${e.deskId} = ${d.id}), false)`);
  }
  return conditions;
}

/** Conditions on the desk `d`: desk, equipment and reservation criteria. Empty when none are given. */
function deskConditions(criteria: PlaceCriteria): SQL[] {
  const conditions: SQL[] = [];
  const { desk, full, free } = criteria;
  if (desk.id !== undefined) conditions.push(sql`${d.id} = ${desk.id}::uuid`);
  if (desk.name !== undefined) conditions.push(ilike(d.name, containsPattern(desk.name)));
  if (desk.type !== undefined) conditions.push(sql`${d.type} = ${desk.type}::desk_type`);
  if (criteria.equipment.length > 0) conditions.push(...hasAllEquipment(criteria.equipment));
  if (full) {
    // range_agg merges back-to-back reservations into one range, so coverage by several counts.
    conditions.push(
      sql`coalesce(${windowRange(full)} <@ (select range_agg(${reservedRange}) from ${reservations} ${res} where ${reservationsOfDeskIn(full)}), false)`,
    );
  }
  if (free) {
    conditions.push(deskOpenIn(free));
    if (free.partlyFreeSeconds === undefined) {
      conditions.push(deskFreeIn(free));
    } else {
      // One probe of the desk's reservations in the window: none (booked is null) is wholly free;
      // otherwise the free stretches are the window minus them, and one must be long enough.
      const booked = sql`select range_agg(${reservedRange}) as booked from ${reservations} ${res} where ${reservationsOfDeskIn(free)}`;
      const longEnoughStretch = sql`select 1 from unnest(tstzmultirange(${windowRange(free)}) - reserved.booked) as stretch
                                    where extract(epoch from upper(stretch) - lower(stretch)) >= ${free.partlyFreeSeconds}::float8`;
      conditions.push(sql`exists (select 1 from (${booked}) as reserved where reserved.booked is null or exists (${longEnoughStretch}))`);
    }
  }
  return conditions;
}

const atLeastOneDeskOfRoom = (conditions: SQL[]) => sql`exists (select 1 from ${desks} ${d} where ${d.roomId} = ${rooms.id} and ${and(...conditions)})`;

/** The room's own criteria (department criteria excluded), on the table `rooms`. */
function roomOwnConditions(criteria: PlaceCriteria): SQL[] {
  const conditions: SQL[] = [];
  const { room } = criteria;
  if (room.id !== undefined) conditions.push(eq(rooms.id, room.id));
  if (room.name !== undefined) conditions.push(ilike(rooms.name, containsPattern(room.name)));
  if (room.available !== undefined) conditions.push(eq(rooms.available, room.available));
  return conditions;
}

function departmentConditions(criteria: PlaceCriteria): SQL[] {
  const conditions: SQL[] = [];
  const { department } = criteria;
  if (department.location !== undefined) conditions.push(ilike(departments.location, containsPattern(department.location)));
  if (department.building !== undefined) conditions.push(ilike(departments.building, containsPattern(department.building)));
  if (department.floor !== undefined) conditions.push(eq(departments.floor, department.floor));
  return conditions;
}

/** A room matches on its own criteria and, when desk-level criteria are given, by one matching desk. */
function roomConditions(criteria: PlaceCriteria): SQL[] {
  const conditions = roomOwnConditions(criteria);
  const desk = deskConditions(criteria);
  if (desk.length > 0) conditions.push(atLeastOneDeskOfRoom(desk));
  return conditions;
}

const roomSortColumns = { id: rooms.id, name: rooms.name, available: rooms.available };
const departmentSortColumns = { id: departments.id, location: departments.location, building: departments.building, floor: departments.floor };
const reportSortColumns = { id: reports.id, title: reports.title, createdAt: reports.createdAt, reportedBy: reports.reportedBy };

/**
 * The number of rows matching the WHERE clause, carried by every row of the page. The total needs
 * every match found; counting them in the page statement finds them once instead of twice (room
 * search usually has to find them all for its page anyway, to sort them by name).
 */
const totalOfAllMatches = () => sql<number>`(count(*) over ())::int`.mapWith(Number).as('total');

/**
 * Search runs in SQL only, in a fixed number of statements whatever the page size. Room and
 * department search answer in one statement (the page, its total and, for rooms, the matching
 * desks of each room on it), report search too (the page and its total). A page past the end adds a
 * count.
 */
export class SearchRepository {
  constructor(private readonly db: Database) {}

  async rooms(criteria: PlaceCriteria, request: PageRequest): Promise<{ rows: RoomMatch[]; total: number }> {
    const where = and(...departmentConditions(criteria), ...roomConditions(criteria));
    const page = this.db
      .select({ id: rooms.id, name: rooms.name, departmentId: rooms.departmentId, available: rooms.available, total: totalOfAllMatches() })
      .from(rooms)
      .innerJoin(departments, eq(departments.id, rooms.departmentId))
      .where(where)
      .orderBy(...orderByClauses(request, roomSortColumns, [asc(rooms.name)], rooms.id))
      .limit(request.size)
      .offset(offsetOf(request))
      .as('page');
    // The desks are gathered only for the rooms of the page (the subquery runs after the LIMIT).
    const matchingDesks = sql<DeskRow[]>`(
      select coalesce(json_agg(json_build_object('id', ${d.id}, 'name', ${d.name}, 'type', ${d.type}, 'roomId', ${d.roomId}, 'departmentId', ${page.departmentId})
                               order by ${d.name}, ${d.id}), '[]'::json)
      from ${desks} ${d}
      where ${and(sql`${d.roomId} = ${page.id}`, ...deskConditions(criteria))})`;
    const rows = await this.db
      .select({ id: page.id, name: page.name, departmentId: page.departmentId, available: page.available, total: page.total, desks: matchingDesks })
      .from(page)
      .orderBy(...orderByClauses(request, { id: page.id, name: page.name, available: page.available }, [asc(page.name)], page.id));
    const total = await totalOfPage(rows, request, async () => {
      const [row] = await this.db.select({ total: count() }).from(rooms).innerJoin(departments, eq(departments.id, rooms.departmentId)).where(where);
      return row?.total ?? 0;
    });
    return { rows: rows.map(({ total: _total, ...room }) => room), total };
  }

  async departments(criteria: PlaceCriteria, request: PageRequest): Promise<{ rows: DepartmentRow[]; total: number }> {
    const conditions = departmentConditions(criteria);
    const room = roomConditions(criteria);
    if (room.length > 0) conditions.push(sql`exists (select 1 from ${rooms} where ${rooms.departmentId} = ${departments.id} and ${and(...room)})`);
    const where = and(...conditions);
    const rows = await this.db
      .select({ id: departments.id, location: departments.location, building: departments.building, floor: departments.floor, total: totalOfAllMatches() })
      .from(departments)
      .where(where)
      .orderBy(
        ...orderByClauses(request, departmentSortColumns, [asc(departments.location), asc(departments.building), asc(departments.floor)], departments.id),
      )
      .limit(request.size)
      .offset(offsetOf(request));
    const total = await totalOfPage(rows, request, async () => {
      const [row] = await this.db.select({ total: count() }).from(departments).where(where);
      return row?.total ?? 0;
    });
    return { rows: rows.map(({ total: _total, ...department }) => department), total };
  }

  /**
   * Unlike places, reports come from an index in the requested order (newest first by default),
   * so the page stops early. The total rides on every row as an uncorrelated subquery (an
   * InitPlan, computed once, over the trigram indexes), so the page and its total are one
   * statement; only a page past the end, which has no row to carry it, counts apart.
   */
  async reports(criteria: ReportCriteria, request: PageRequest): Promise<{ rows: ReportRow[]; total: number }> {
    const where = (pattern: (text: string) => SQL) => {
      const conditions: SQL[] = [];
      // Substring matches are served by the trigram indexes on title and description.
      if (criteria.title !== undefined) conditions.push(ilike(reports.title, pattern(criteria.title)));
      if (criteria.description !== undefined) conditions.push(ilike(reports.description, pattern(criteria.description)));
      if (criteria.reportedBy !== undefined) conditions.push(eq(reports.reportedBy, criteria.reportedBy));
      if (criteria.department !== undefined) conditions.push(eq(reports.departmentId, criteria.department));
      if (criteria.room !== undefined) conditions.push(eq(reports.roomId, criteria.room));
      if (criteria.desk !== undefined) conditions.push(eq(reports.deskId, criteria.desk));
      if (criteria.equipment !== undefined) conditions.push(eq(reports.equipmentId, criteria.equipment));
      return and(...conditions);
    };
    /*
     * The count reads its patterns through a scalar subquery, which the planner cannot see into:
     * it estimates the count alike in the custom plan (parameters known) and in the generic one
     * a prepared statement may switch to after five runs. Seen as literals, a common word made
     * the custom plan's estimate exceed the generic plan's, and PostgreSQL then took the generic
     * plan for the whole statement, whose page sorts every match instead of stopping after a
     * page from reports_created_idx (41 ms instead of 10; docs/query-plans.md#report-search-post-apisearchreports).
     */
    const counting = this.db
      .select({ total: count() })
      .from(reports)
      .where(where((text) => sql`(select ${containsPattern(text)}::text)`));
    const rows = await this.db
      .select({ ...getTableColumns(reports), total: sql<number>`${counting}::int`.mapWith(Number) })
      .from(reports)
      .where(where((text) => sql`${containsPattern(text)}`))
      .orderBy(...orderByClauses(request, reportSortColumns, [desc(reports.createdAt)], reports.id))
      .limit(request.size)
      .offset(offsetOf(request));
    const total = await totalOfPage(rows, request, async () => (await counting)[0]?.total ?? 0);
    return { rows: rows.map(({ total: _total, ...row }) => row), total };
  }
}
