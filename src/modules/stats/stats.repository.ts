import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Database } from '../../db/client.js';

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
 * Days are numbered 0…length−1 by an integer series (its row count is known to the planner, so
 * the estimates stay small); day i is [first + i days, first + i + 1 days).
 */
const dayNumbers = (days: DayRange) => sql`generate_series(0, ${days.length - 1}::int) as i`;
const dayStart = (days: DayRange, offset: SQL = sql`i`) => sql`(${days.first.toISOString()}::timestamptz + ${offset} * interval '1 day')`;

/**
 * Every day of the range (zero days included) LEFT JOIN the rows of `table` created within it:
 * one range scan of the table's created_at index per day.
 */
const createdPerDay = (table: 'reservations' | 'reports', days: DayRange) => sql`
  select count(t.created_at)::int as count
  from ${dayNumbers(days)}
  left join ${sql.identifier(table)} t on t.created_at >= ${dayStart(days)} and t.created_at < ${dayStart(days, sql`(i + 1)`)}
  group by i
  order by i`;

export class StatsRepository {
  constructor(private readonly db: Database) {}

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
   * Per day, the reservations whose [start_time, end_time) overlaps it. Each reservation touching
   * the range opens a run of days at its first day (+1) and closes it after its last day (−1);
   * the running sum of those changes over the days is the count. That reads each reservation
   * once, where joining every day to every reservation would compare days × reservations.
   * The last day is the one holding end_time − 1 µs (the end is exclusive; timestamps are µs).
   */
  async reservationsPerDay(days: DayRange): Promise<number[]> {
    const from = days.first.toISOString();
    const until = new Date(days.first.getTime() + days.length * DAY_MS).toISOString();
    return countsOf(
      this.db,
      sql`with touching as (
            select greatest(date_bin('1 day', start_time, ${from}::timestamptz), ${from}::timestamptz) as first_day,
                   date_bin('1 day', end_time - interval '1 microsecond', ${from}::timestamptz) + interval '1 day' as after_last_day
            from reservations
            -- The form of reservations_range_idx, so that index finds the rows.
            where tstzrange(start_time, end_time, '[)') && tstzrange(${from}::timestamptz, ${until}::timestamptz, '[)')
          ), changes as (
            select first_day as day, 1 as delta from touching
            union all
            select after_last_day, -1 from touching
          )
          select (sum(coalesce(sum(changes.delta), 0)) over (order by i))::int as count
          from ${dayNumbers(days)}
          left join changes on changes.day = ${dayStart(days)}
          group by i
          order by i`,
    );
  }
}
