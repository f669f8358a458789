import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Database } from '../../db/client.js';
import { totalOfPage } from '../../db/paging.js';
import { offsetOf, type PageRequest } from '../../shared/paging.js';

/**
 * SQL of closures (docs/policies.md#closures-and-holidays). This module is the one writer of
 * `closures` and `closure_days`; the trigger closures_refuse and the function closure_on
 * (src/db/functions) read them in every reservation write.
 */

export const CLOSURE_SORTABLE = ['startDate', 'createdAt', 'reason', 'scope'] as const;

const SORT_COLUMNS: Record<(typeof CLOSURE_SORTABLE)[number], string> = {
  startDate: 'c.start_date',
  createdAt: 'c.created_at',
  reason: 'c.reason',
  scope: 'c.scope',
};

export type Scope = 'EVERYWHERE' | 'DEPARTMENT' | 'BUILDING';

/** Where a closure holds. */
export interface Where {
  scope: Scope;
  departmentId: string | null;
  location: string | null;
  building: string | null;
}

export interface ClosureRow extends Where {
  id: string;
  reason: string;
  dates: string[] | null;
  rrule: string | null;
  startDate: string;
  lastDate: string;
  dayCount: number;
  createdAt: Date;
}

export interface AffectedRow {
  id: string;
  userId: string;
  email: string;
  firstName: string;
  lastName: string;
  deskId: string;
  deskName: string;
  roomName: string;
  departmentId: string;
  place: string;
  timeZone: string;
  date: string;
  startTime: Date;
  endTime: Date;
}

interface RawClosure {
  id: string;
  scope: Scope;
  department_id: string | null;
  location: string | null;
  building: string | null;
  reason: string;
  dates: string[] | string | null;
  rrule: string | null;
  start_date: string;
  last_date: string;
  day_count: number;
  created_at: string;
  total?: number;
}

/** postgres.js answers date[] as an array; through some paths as '{2030-01-01,…}'. */
const dateArray = (value: string[] | string | null): string[] | null =>
  value === null
    ? null
    : Array.isArray(value)
      ? value
      : value
          .replace(/^\{|\}$/g, '')
          .split(',')
          .filter(Boolean);

const toRow = (raw: RawClosure): ClosureRow => ({
  id: raw.id,
  scope: raw.scope,
  departmentId: raw.department_id,
  location: raw.location,
  building: raw.building,
  reason: raw.reason,
  dates: dateArray(raw.dates),
  rrule: raw.rrule,
  startDate: String(raw.start_date),
  lastDate: String(raw.last_date),
  dayCount: Number(raw.day_count),
  createdAt: new Date(raw.created_at),
});

const CLOSURE_COLUMNS = sql`c.id, c.scope, c.department_id, c.location, c.building, c.reason, c.dates::text[] as dates, c.rrule, c.start_date::text as start_date,
  (select max(cd.day) from closure_days cd where cd.closure_id = c.id)::text as last_date,
  (select count(*) from closure_days cd where cd.closure_id = c.id)::int as day_count, c.created_at`;

/** The department `dep` lies in the closure `c`'s scope. */
const holdsIn = sql`(c.scope = 'EVERYWHERE' or c.department_id = dep.id or (c.scope = 'BUILDING' and c.location = dep.location and c.building = dep.building))`;

/** The department `dep` lies in the scope `where` (of a closure not yet written). */
const inScope = (where: Where): SQL => {
  switch (where.scope) {
    case 'EVERYWHERE':
      return sql`true`;
    case 'DEPARTMENT':
      return sql`dep.id = ${where.departmentId}`;
    case 'BUILDING':
      return sql`dep.location = ${where.location} and dep.building = ${where.building}`;
  }
};

export class ClosuresRepository {
  constructor(private readonly db: Database) {}

  /** The IANA zones of the departments in scope (UTC for one without settings); empty when the scope has no department. */
  async zonesOf(where: Where): Promise<string[]> {
    const rows = await queryRows<{ zone: string }>(
      this.db,
      sql`select distinct coalesce(s.time_zone, 'UTC') as zone from departments dep left join department_settings s on s.department_id = dep.id where ${inScope(where)}`,
    );
    return rows.map((row) => row.zone);
  }

  /**
   * Makes every reservation write wait until this transaction ends (docs/policies.md#closures-and-holidays):
   * a booking either committed before (and is listed) or runs after, when the trigger sees the closure.
   */
  async lockReservations(): Promise<void> {
    await this.db.execute(sql`lock table reservations in share row exclusive mode`);
  }

  async insert(
    where: Where,
    values: { reason: string; dates: string[] | null; rrule: string | null; startDate: string; createdBy: string },
    days: string[],
    now: Date,
  ): Promise<string> {
    const [row] = await queryRows<{ id: string }>(
      this.db,
      sql`with c as (
            insert into closures (scope, department_id, location, building, reason, dates, rrule, start_date, created_by, created_at)
            values (${where.scope}::closure_scope, ${where.departmentId}, ${where.location}, ${where.building}, ${values.reason},
                    ${values.dates === null ? null : sql`${`{${values.dates.join(',')}}`}::date[]`}, ${values.rrule}, ${values.startDate}::date, ${values.createdBy}, ${now.toISOString()}::timestamptz)
            returning id),
          d as (insert into closure_days (closure_id, day) select c.id, day from c, unnest(${`{${days.join(',')}}`}::date[]) as day)
          select id from c`,
    );
    return row!.id;
  }

  async find(id: string): Promise<(ClosureRow & { days: string[] }) | undefined> {
    const [raw] = await queryRows<RawClosure & { days: string[] | string }>(
      this.db,
      sql`select ${CLOSURE_COLUMNS}, array(select cd.day::text from closure_days cd where cd.closure_id = c.id order by cd.day) as days
          from closures c where c.id = ${id}`,
    );
    return raw ? { ...toRow(raw), days: dateArray(raw.days) ?? [] } : undefined;
  }

  /** The closures of `ids`, in that order. */
  async findAll(ids: string[]): Promise<ClosureRow[]> {
    if (ids.length === 0) return [];
    const raws = await queryRows<RawClosure>(this.db, sql`select ${CLOSURE_COLUMNS} from closures c where c.id = any(${`{${ids.join(',')}}`}::uuid[])`);
    const rows = new Map(raws.map((raw) => [raw.id, toRow(raw)]));
    return ids.flatMap((id) => rows.get(id) ?? []);
  }

  async delete(id: string): Promise<boolean> {
    const rows = await queryRows<{ id: string }>(this.db, sql`delete from closures where id = ${id} returning id`);
    return rows.length > 0;
  }

  async page(filter: { departmentId?: string; from?: string }, request: PageRequest): Promise<{ rows: ClosureRow[]; total: number }> {
    const conditions: SQL[] = [sql`true`];
    if (filter.departmentId !== undefined) {
      conditions.push(sql`exists (select 1 from departments dep where dep.id = ${filter.departmentId} and ${holdsIn})`);
    }
    if (filter.from !== undefined) conditions.push(sql`exists (select 1 from closure_days cd where cd.closure_id = c.id and cd.day >= ${filter.from}::date)`);
    const where = sql.join(conditions, sql` and `);
    const orders = [
      ...request.orders.map((order) => sql.raw(`${SORT_COLUMNS[order.property as keyof typeof SORT_COLUMNS]} ${order.direction === 'DESC' ? 'desc' : 'asc'}`)),
      sql`c.start_date asc`,
      sql`c.id asc`,
    ];
    const raws = await queryRows<RawClosure>(
      this.db,
      sql`select ${CLOSURE_COLUMNS}, count(*) over ()::int as total from closures c where ${where}
          order by ${sql.join(orders, sql`, `)} limit ${request.size} offset ${offsetOf(request)}`,
    );
    const total = await totalOfPage(
      raws.map((raw) => ({ total: Number(raw.total) })),
      request,
      async () => (await queryRows<{ n: number }>(this.db, sql`select count(*)::int as n from closures c where ${where}`))[0]?.n ?? 0,
    );
    return { rows: raws.map(toRow), total };
  }

  /**
   * The reservations not yet ended (at `now`) in scope `where` that touch one of `days` (local dates
   * in each reservation's office zone), in start order; a page of them, or all with `page` undefined.
   * Each closed day is probed on its own through the range index (reservations_range_idx) over the
   * span its local day can cover in any zone (the day ±1, zones lie within ±14 h of UTC), so a few
   * days spread over a year (public holidays) read only the reservations near them.
   */
  async affected(where: Where, days: string[], now: Date, page?: PageRequest): Promise<{ rows: AffectedRow[]; total: number }> {
    const dayList = `{${days.join(',')}}`;
    const raws = await queryRows<{
      id: string;
      user_id: string;
      email: string;
      first_name: string;
      last_name: string;
      desk_id: string;
      desk_name: string;
      room_name: string;
      department_id: string;
      place: string;
      zone: string;
      day: string;
      start_time: string;
      end_time: string;
      total: number;
    }>(
      this.db,
      sql`select r.id, r.user_id, u.email, u.first_name, u.last_name, r.desk_id, d.name as desk_name, ro.name as room_name, dep.id as department_id,
                 dep.location || ' · ' || dep.building || ' · Floor ' || dep.floor as place, z.zone, hit.day::text as day, r.start_time, r.end_time,
                 count(*) over ()::int as total
            from (select distinct on (r0.id) r0.id, r0.user_id, r0.desk_id, r0.start_time, r0.end_time
                    from unnest(${dayList}::date[]) as dd(day)
                    join reservations r0 on tstzrange(r0.start_time, r0.end_time, '[)')
                      && tstzrange((dd.day - 1)::timestamp at time zone 'UTC', (dd.day + 2)::timestamp at time zone 'UTC', '[)')
                   where r0.end_time > ${now.toISOString()}::timestamptz
                   order by r0.id) r
            join desks d on d.id = r.desk_id
            join rooms ro on ro.id = d.room_id
            join departments dep on dep.id = ro.department_id
            join users u on u.id = r.user_id
            left join department_settings s on s.department_id = dep.id
            cross join lateral (select coalesce(s.time_zone, 'UTC') as zone) z
            cross join lateral (
              select min(day) as day from unnest(${dayList}::date[]) as day
               where day between (r.start_time at time zone z.zone)::date and ((r.end_time - interval '1 microsecond') at time zone z.zone)::date) hit
           where ${inScope(where)} and hit.day is not null
           order by r.start_time, r.id
           ${page ? sql`limit ${page.size} offset ${offsetOf(page)}` : sql``}`,
    );
    const rows = raws.map((raw) => ({
      id: raw.id,
      userId: raw.user_id,
      email: raw.email,
      firstName: raw.first_name,
      lastName: raw.last_name,
      deskId: raw.desk_id,
      deskName: raw.desk_name,
      roomName: raw.room_name,
      departmentId: raw.department_id,
      place: raw.place,
      timeZone: raw.zone,
      date: raw.day,
      startTime: new Date(raw.start_time),
      endTime: new Date(raw.end_time),
    }));
    if (!page) return { rows, total: rows.length };
    const total = await totalOfPage(
      raws.map((raw) => ({ total: Number(raw.total) })),
      page,
      async () => (await this.affected(where, days, now)).total,
    );
    return { rows, total };
  }

  /** Closed days from `from` to `to` (inclusive), by date; only those holding in `departmentId` when given. At most `limit`. */
  async closedDays(
    from: string,
    to: string,
    departmentId: string | undefined,
    limit: number,
  ): Promise<(Where & { date: string; closureId: string; reason: string })[]> {
    const scope = departmentId === undefined ? sql`true` : sql`exists (select 1 from departments dep where dep.id = ${departmentId} and ${holdsIn})`;
    const raws = await queryRows<{
      day: string;
      id: string;
      reason: string;
      scope: Scope;
      department_id: string | null;
      location: string | null;
      building: string | null;
    }>(
      this.db,
      sql`select cd.day::text as day, c.id, c.reason, c.scope, c.department_id, c.location, c.building
            from closure_days cd join closures c on c.id = cd.closure_id
           where cd.day between ${from}::date and ${to}::date and ${scope}
           order by cd.day, c.created_at, c.id
           limit ${limit}`,
    );
    return raws.map((raw) => ({
      date: raw.day,
      closureId: raw.id,
      reason: raw.reason,
      scope: raw.scope,
      departmentId: raw.department_id,
      location: raw.location,
      building: raw.building,
    }));
  }

  /**
   * Of `days`, those a closure already closes in the whole scope `where` (docs/policies.md#public-holidays):
   * one everywhere; for a department, also its own and its building's; for a building, also the building's.
   * Date → the (oldest) closure.
   */
  async closedThroughout(where: Where, days: string[]): Promise<Map<string, string>> {
    if (days.length === 0) return new Map();
    const covers =
      where.scope === 'EVERYWHERE'
        ? sql`c.scope = 'EVERYWHERE'`
        : where.scope === 'BUILDING'
          ? sql`(c.scope = 'EVERYWHERE' or (c.scope = 'BUILDING' and c.location = ${where.location} and c.building = ${where.building}))`
          : sql`exists (select 1 from departments dep where dep.id = ${where.departmentId} and ${holdsIn})`;
    const rows = await queryRows<{ day: string; id: string }>(
      this.db,
      sql`select distinct on (cd.day) cd.day::text as day, c.id
            from closure_days cd join closures c on c.id = cd.closure_id
           where cd.day = any(${`{${days.join(',')}}`}::date[]) and ${covers}
           order by cd.day, c.created_at, c.id`,
    );
    return new Map(rows.map((row) => [row.day, row.id]));
  }

  async departmentExists(id: string): Promise<boolean> {
    return (await queryRows<{ one: number }>(this.db, sql`select 1 as one from departments where id = ${id}`)).length > 0;
  }

  async buildingExists(location: string, building: string): Promise<boolean> {
    return (
      (await queryRows<{ one: number }>(this.db, sql`select 1 as one from departments where location = ${location} and building = ${building} limit 1`))
        .length > 0
    );
  }
}
