import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Database } from '../../db/client.js';
import { statsChanges } from '../../db/schema.js';

export interface Totals {
  totalDesks: number;
  totalRooms: number;
  totalDepartments: number;
  totalUsers: number;
  totalReports: number;
  totalReservations: number;
  totalEquipment: number;
}

/** `length` consecutive UTC days from `first` (its 00:00:00Z). */
export interface DayRange {
  first: Date;
  length: number;
}

export const DAY_MS = 86_400_000;

/** One count per day of the range, oldest first. */
const countsOf = async (db: Database, query: SQL): Promise<number[]> => (await queryRows<{ count: number }>(db, query)).map((row) => row.count);

/**
 * Days are numbered 0…length−1 by an integer series; day i is [first + i days, first + i + 1
 * days). The length is written into the statement, not passed as a parameter: the server
 * prepares statements, and in a generic plan a parameter bound makes the planner assume 1,000
 * days, which inflates the cost estimate past PostgreSQL's JIT thresholds (over 50 ms of
 * compiling for queries that run in 15–30 ms). It is an integer computed by the service, never
 * client input.
 */
const dayNumbers = (days: DayRange) => sql`generate_series(0, ${sql.raw(String(Math.trunc(days.length) - 1))}) as i`;
const dayStart = (days: DayRange, offset: SQL = sql`i`) => sql`(${days.first.toISOString()}::timestamptz + ${offset} * interval '1 day')`;

/**
 * Per day of the range (zero days included), the rows of `table` created within it: one count
 * over a range of the table's created_at index per day, so nothing but index entries is read
 * and no row is joined or grouped.
 */
const createdPerDay = (table: 'reservations' | 'reports', days: DayRange) => sql`
  select (select count(*) from ${sql.identifier(table)} t
          where t.created_at >= ${dayStart(days)} and t.created_at < ${dayStart(days, sql`(i + 1)`)})::int as count
  from ${dayNumbers(days)}
  order by i`;

/**
 * The number of committed write statements that changed what the figures count (the triggers of
 * migration stats_change_triggers keep it, in the writing transactions), as text (a bigint).
 */
const changeCountQuery = (db: Database) =>
  db
    .select({ changes: sql<string | null>`sum(${statsChanges.changes})::text` })
    .from(statsChanges)
    .prepare('stats_change_count');
const changeCountQueries = new WeakMap<Database, ReturnType<typeof changeCountQuery>>();

export class StatsRepository {
  constructor(private readonly db: Database) {}

  /** The change count (changeCountQuery). Read before the figures, it tells which writes they include at least. */
  async changeCount(): Promise<bigint> {
    let query = changeCountQueries.get(this.db);
    if (!query) changeCountQueries.set(this.db, (query = changeCountQuery(this.db)));
    const [row] = await query.execute();
    return BigInt(row?.changes ?? '0');
  }

  /**
   * Exact counts. PostgreSQL keeps no row count, so each is a scan; on a million reservations
   * that one dominates (a parallel sequential scan; an index-only scan of the smallest index costs
   * the same, the work being per row), and an estimate such as pg_class.reltuples would not be
   * exact. StatsService keeps the figures while no counted write happens, so this runs once per
   * change, not per request.
   */
  async totals(): Promise<Totals> {
    const [row] = await queryRows<Totals>(
      this.db,
      sql`select (select count(*) from desks)::int as "totalDesks",
                 (select count(*) from rooms)::int as "totalRooms",
                 (select count(*) from departments)::int as "totalDepartments",
                 (select count(*) from users)::int as "totalUsers",
                 (select count(*) from reports)::int as "totalReports",
                 (select count(*) from reservations)::int as "totalReservations",
                 (select count(*) from equipment)::int as "totalEquipment"`,
    );
    return row!;
  }

  async reservationsCreatedPerDay(days: DayRange): Promise<number[]> {
    return countsOf(this.db, createdPerDay('reservations', days));
  }

  async reportsCreatedPerDay(days: DayRange): Promise<number[]> {
    return countsOf(this.db, createdPerDay('reports', days));
  }

  /**
   * Per day, the reservations whose [start_time, end_time) overlaps it: one probe of
   * reservations_range_idx per day, written in that index's form (the GiST index on the range
   * alone). A reservation is counted on each day it touches, a long one included; an end at
   * 00:00 does not touch the day that starts then (half-open ranges).
   */
  async reservationsPerDay(days: DayRange): Promise<number[]> {
    return countsOf(
      this.db,
      sql`select (select count(*) from reservations
                  where tstzrange(start_time, end_time, '[)') && tstzrange(${dayStart(days)}, ${dayStart(days, sql`(i + 1)`)}, '[)'))::int as count
          from ${dayNumbers(days)}
          order by i`,
    );
  }
}
