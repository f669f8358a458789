import { and, asc, count, eq, gt, sql, type SQL } from 'drizzle-orm';
import { queryRows, type Database } from '../../db/client.js';
import { desks, reservations, reservationSeries, rooms } from '../../db/schema.js';
import { orderByClauses, totalOfPage } from '../../db/paging.js';
import type { ClosedDay } from '../../shared/errors.js';
import { offsetOf, type PageRequest } from '../../shared/paging.js';
import type { OccurrenceRow } from '../reservations/reservations.repository.js';

export type SeriesRow = typeof reservationSeries.$inferSelect & { roomId: string; departmentId: string };
export type NewSeries = Omit<typeof reservationSeries.$inferInsert, 'id' | 'createdAt'>;

export type { OccurrenceRow } from '../reservations/reservations.repository.js';

export interface BusyRange {
  startTime: Date;
  endTime: Date;
  /** True when the range is the desk's; false when it is one of the owner's (exclusive) reservations elsewhere. */
  desk: boolean;
}

export const SERIES_SORTABLE = ['id', 'createdAt', 'startTime', 'deskId', 'userId'] as const;

const view = {
  id: reservationSeries.id,
  userId: reservationSeries.userId,
  deskId: reservationSeries.deskId,
  type: reservationSeries.type,
  frequency: reservationSeries.frequency,
  interval: reservationSeries.interval,
  weekdays: reservationSeries.weekdays,
  until: reservationSeries.until,
  count: reservationSeries.count,
  timeZone: reservationSeries.timeZone,
  firstStart: reservationSeries.firstStart,
  firstEnd: reservationSeries.firstEnd,
  createdAt: reservationSeries.createdAt,
  roomId: desks.roomId,
  departmentId: rooms.departmentId,
};

const sortColumns = {
  id: reservationSeries.id,
  createdAt: reservationSeries.createdAt,
  startTime: reservationSeries.firstStart,
  deskId: reservationSeries.deskId,
  userId: reservationSeries.userId,
};

/** SQL of the series table and of the reservations that are its occurrences (docs/behaviour.md#recurring-reservations). */
export class SeriesRepository {
  constructor(private readonly db: Database) {}

  /**
   * The desk's reservations, and (when `userId` is given) the owner's exclusive ones, that overlap
   * [from, to): the span of a series. One statement; the occurrences are matched against it in memory.
   */
  async busy(deskId: string, userId: string | undefined, from: Date, to: Date): Promise<BusyRange[]> {
    const owner: SQL =
      userId === undefined
        ? eq(reservations.deskId, deskId)
        : sql`(${reservations.deskId} = ${deskId} or (${reservations.userId} = ${userId} and ${reservations.userExclusive}))`;
    return this.db
      .select({ startTime: reservations.startTime, endTime: reservations.endTime, desk: sql<boolean>`${reservations.deskId} = ${deskId}` })
      .from(reservations)
      .where(
        and(
          owner,
          sql`tstzrange(${reservations.startTime}, ${reservations.endTime}, '[)') && tstzrange(${from.toISOString()}::timestamptz, ${to.toISOString()}::timestamptz, '[)')`,
        ),
      )
      .orderBy(reservations.startTime);
  }

  /**
   * The occurrences (by index in `ranges`) that touch a closed day of the desk's office, with the
   * closure (docs/policies.md#closures-and-holidays): the database's closure_on per occurrence, in one statement.
   */
  async closed(deskId: string, ranges: { startTime: Date; endTime: Date }[]): Promise<Map<number, ClosedDay>> {
    const list = (dates: Date[]) => `{${dates.map((date) => date.toISOString()).join(',')}}`;
    const rows = await queryRows<{ i: number; closure_id: string; day: string; reason: string }>(
      this.db,
      sql`select (o.i - 1)::int as i, c.closure_id, c.day::text as day, c.reason
            from unnest(${list(ranges.map((range) => range.startTime))}::timestamptz[], ${list(ranges.map((range) => range.endTime))}::timestamptz[]) with ordinality as o(s, e, i)
            cross join lateral closure_on(${deskId}::uuid, o.s, o.e) c`,
    );
    return new Map(rows.map((row) => [Number(row.i), { id: row.closure_id, date: row.day, reason: row.reason }]));
  }

  async insertSeries(values: NewSeries, now: Date): Promise<{ id: string; createdAt: Date }> {
    const [row] = await this.db
      .insert(reservationSeries)
      .values({ ...values, createdAt: now })
      .returning({ id: reservationSeries.id, createdAt: reservationSeries.createdAt });
    return row!;
  }

  async findById(id: string): Promise<SeriesRow | undefined> {
    const [row] = await this.db
      .select(view)
      .from(reservationSeries)
      .innerJoin(desks, eq(desks.id, reservationSeries.deskId))
      .innerJoin(rooms, eq(rooms.id, desks.roomId))
      .where(eq(reservationSeries.id, id))
      .limit(1);
    return row;
  }

  async occurrences(seriesId: string): Promise<OccurrenceRow[]> {
    return this.db
      .select({ id: reservations.id, startTime: reservations.startTime, endTime: reservations.endTime })
      .from(reservations)
      .where(eq(reservations.seriesId, seriesId))
      .orderBy(asc(reservations.startTime));
  }

  /** How many of `userId`'s series still have an occurrence that has not ended by `now`. */
  async upcomingSeriesOf(userId: string, now: Date): Promise<number> {
    const [row] = await this.db
      .select({ n: sql<number>`count(distinct ${reservations.seriesId})::int`.mapWith(Number) })
      .from(reservations)
      .where(and(eq(reservations.userId, userId), gt(reservations.endTime, now), sql`${reservations.seriesId} is not null`));
    return row?.n ?? 0;
  }

  /** A page of series, each with the number of its occurrences that have not ended and the next start. */
  async page(
    userId: string | undefined,
    request: PageRequest,
    now: Date,
  ): Promise<{ rows: (SeriesRow & { upcoming: number; nextStartTime: Date | null })[]; total: number }> {
    const where = userId === undefined ? undefined : eq(reservationSeries.userId, userId);
    const counting = this.db.select({ total: count() }).from(reservationSeries).where(where);
    const nowText = now.toISOString();
    const rows = await this.db
      .select({
        ...view,
        upcoming:
          sql<number>`(select count(*)::int from ${reservations} r where r.series_id = ${reservationSeries.id} and r.end_time > ${nowText}::timestamptz)`.mapWith(
            Number,
          ),
        nextStart: sql<
          number | null
        >`(select (extract(epoch from min(r.start_time)) * 1000)::float8 from ${reservations} r where r.series_id = ${reservationSeries.id} and r.end_time > ${nowText}::timestamptz)`,
        total: sql<number>`${counting}::int`.mapWith(Number),
      })
      .from(reservationSeries)
      .innerJoin(desks, eq(desks.id, reservationSeries.deskId))
      .innerJoin(rooms, eq(rooms.id, desks.roomId))
      .where(where)
      .orderBy(...orderByClauses(request, sortColumns, [sql`${reservationSeries.createdAt} desc`], reservationSeries.id))
      .limit(request.size)
      .offset(offsetOf(request));
    const total = await totalOfPage(rows, request, async () => (await counting)[0]?.total ?? 0);
    return {
      rows: rows.map(({ total: _total, nextStart, ...row }) => ({ ...row, nextStartTime: nextStart === null ? null : new Date(Number(nextStart)) })),
      total,
    };
  }
}
