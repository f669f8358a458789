import { and, count, eq, gt, gte, inArray, lt, ne, Placeholder, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { byShape, prepareRaw } from '../../db/prepared.js';
import { desks, reservations, rooms } from '../../db/schema.js';
import { columnsAs, orderByClauses, ordersShape, pagePlaceholders, pageValues, totalOfPage } from '../../db/paging.js';
import { type PageRequest } from '../../shared/paging.js';
import { toReservationDtoFromRaw, type RawReservation } from './reservations.mappers.js';
import type { ReservationDto } from './reservations.schemas.js';

export type ReservationType = (typeof reservations.type.enumValues)[number];

/** A reservation as the API shows it: room and department read through the desk. */
export interface ReservationView {
  id: string;
  userId: string;
  deskId: string;
  roomId: string;
  departmentId: string;
  startTime: Date;
  endTime: Date;
  type: ReservationType;
}

/** An occurrence of a series as written: its reservation's id and range. */
export interface OccurrenceRow {
  id: string;
  startTime: Date;
  endTime: Date;
}

export interface BookableDesk {
  id: string;
  type: 'FLEX' | 'FIXED';
  roomId: string;
  departmentId: string;
  roomAvailable: boolean;
}

export interface ReservationFilter {
  userId?: string;
  deskId?: string;
  roomId?: string;
  departmentId?: string;
  type?: ReservationType;
  /** Reservations ending after this instant. */
  from?: Date;
  /** Reservations starting before this instant. */
  to?: Date;
}

export interface ReservationValues {
  userId: string;
  deskId: string;
  startTime: Date;
  endTime: Date;
  type: ReservationType;
  userExclusive: boolean;
  /** Who booked it for its owner (docs/policies.md#booking-for-someone-else); absent when the owner did. */
  bookedBy?: string | null;
}

/** Every member of ReservationFilter (the shape of a prepared page names those set). */
const FILTER_COLUMNS: Record<keyof ReservationFilter, true> = {
  userId: true,
  deskId: true,
  roomId: true,
  departmentId: true,
  type: true,
  from: true,
  to: true,
};

export const RESERVATION_SORTABLE = ['id', 'userId', 'deskId', 'roomId', 'departmentId', 'startTime', 'endTime', 'type'] as const;

const view = {
  id: reservations.id,
  userId: reservations.userId,
  deskId: reservations.deskId,
  roomId: desks.roomId,
  departmentId: rooms.departmentId,
  startTime: reservations.startTime,
  endTime: reservations.endTime,
  type: reservations.type,
};

const sortColumns = view;

/** The reservation's range as the exclusion constraints see it (half-open). */
const rangeOf = sql`tstzrange(${reservations.startTime}, ${reservations.endTime}, '[)')`;

export class ReservationsRepository {
  constructor(private readonly db: Database) {}

  async findDesk(deskId: string): Promise<BookableDesk | undefined> {
    const [row] = await this.db
      .select({ id: desks.id, type: desks.type, roomId: desks.roomId, departmentId: rooms.departmentId, roomAvailable: rooms.available })
      .from(desks)
      .innerJoin(rooms, eq(rooms.id, desks.roomId))
      .where(eq(desks.id, deskId))
      .limit(1);
    return row;
  }

  async findById(id: string): Promise<ReservationView | undefined> {
    const [row] = await this.joined().where(eq(reservations.id, id)).limit(1);
    return row;
  }

  /**
   * One statement: the page, each row carrying the total as an uncorrelated subquery (computed
   * once, when the first row is produced). Only a page past the end, which has no row to carry
   * it, counts apart. The rows come raw in the API's shape, instants turned into ISO text without
   * a Date (docs/benchmarks.md#lists).
   */
  async page(filter: ReservationFilter, request: PageRequest): Promise<{ rows: ReservationDto[]; total: number }> {
    const set = (Object.keys(FILTER_COLUMNS) as (keyof ReservationFilter)[]).filter((key) => filter[key] !== undefined);
    // Prepared once per shape: which filters are set and the requested orders (docs/benchmarks.md#prepared-queries).
    const query = byShape(this.db, `reservations:${set.join(',')}:${ordersShape(request)}`, () => {
      const placeholders: ReservationFilter = {};
      for (const key of set) (placeholders as Record<string, unknown>)[key] = sql.placeholder(key);
      const where = this.conditions(placeholders as ReservationFilter);
      return prepareRaw(
        this.db,
        sql`select ${columnsAs(view)}, ${this.counting(filter, where)}::int as "total"
            from ${reservations} join ${desks} on ${eq(desks.id, reservations.deskId)} join ${rooms} on ${eq(rooms.id, desks.roomId)}
            where ${where ?? sql`true`}
            order by ${sql.join(orderByClauses(request, sortColumns, [sql`${reservations.startTime}`], reservations.id), sql`, `)}
            limit ${pagePlaceholders.limit} offset ${pagePlaceholders.offset}`,
      );
    });
    const values: Record<string, unknown> = pageValues(request);
    for (const key of set) {
      const value = filter[key];
      values[key] = value instanceof Date ? value.toISOString() : value;
    }
    const rows = await query.rows<RawReservation & { total: number }>(values);
    const total = await totalOfPage(rows, request, async () => (await this.counting(filter, this.conditions(filter)))[0]?.total ?? 0);
    return { rows: rows.map(toReservationDtoFromRaw), total };
  }

  /** The count of a page's filter (an uncorrelated subquery of the page, or alone past its end). */
  private counting(filter: ReservationFilter, where: SQL | undefined) {
    const needsJoin = filter.roomId !== undefined || filter.departmentId !== undefined;
    return needsJoin
      ? this.db
          .select({ total: count() })
          .from(reservations)
          .innerJoin(desks, eq(desks.id, reservations.deskId))
          .innerJoin(rooms, eq(rooms.id, desks.roomId))
          .where(where)
      : this.db.select({ total: count() }).from(reservations).where(where);
  }

  /** How many reservations of the user have not ended at `now` (RESERVATION_MAX_FUTURE). */
  async countNotEnded(userId: string, now: Date): Promise<number> {
    const [row] = await this.db
      .select({ n: count() })
      .from(reservations)
      .where(and(eq(reservations.userId, userId), gt(reservations.endTime, now)));
    return row?.n ?? 0;
  }

  async insert(values: ReservationValues, now: Date): Promise<{ id: string }> {
    const [row] = await this.db
      .insert(reservations)
      .values({ ...values, createdAt: now, modifiedAt: now })
      .returning({ id: reservations.id });
    return row!;
  }

  async update(id: string, values: Omit<ReservationValues, 'userId'>, now: Date): Promise<boolean> {
    const rows = await this.db
      .update(reservations)
      .set({ ...values, modifiedAt: now })
      .where(eq(reservations.id, id))
      .returning({ id: reservations.id });
    return rows.length > 0;
  }

  async delete(id: string): Promise<boolean> {
    const rows = await this.db.delete(reservations).where(eq(reservations.id, id)).returning({ id: reservations.id });
    return rows.length > 0;
  }

  /** Deletes those of `ids` that still exist, in one statement; answers their ids. */
  async deleteMany(ids: string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    const rows = await this.db.delete(reservations).where(inArray(reservations.id, ids)).returning({ id: reservations.id });
    return rows.map((row) => row.id);
  }

  /** All occurrences of a series in one statement: the exclusion constraints refuse the whole statement if any collides. */
  async insertOccurrences(
    seriesId: string,
    common: Omit<ReservationValues, 'startTime' | 'endTime'>,
    ranges: { startTime: Date; endTime: Date }[],
    now: Date,
  ): Promise<OccurrenceRow[]> {
    return this.db
      .insert(reservations)
      .values(ranges.map((range) => ({ ...common, ...range, seriesId, createdAt: now, modifiedAt: now })))
      .returning({ id: reservations.id, startTime: reservations.startTime, endTime: reservations.endTime });
  }

  /** Removes the occurrences of a series that have not ended by `now` and start at or after `from`; answers how many. */
  async deleteOccurrences(seriesId: string, from: Date | undefined, now: Date): Promise<number> {
    const conditions: SQL[] = [eq(reservations.seriesId, seriesId), gt(reservations.endTime, now)];
    if (from !== undefined) conditions.push(gte(reservations.startTime, from));
    const rows = await this.db
      .delete(reservations)
      .where(and(...conditions))
      .returning({ id: reservations.id });
    return rows.length;
  }

  /** The occurrences of a series not ended at `now` that start at or after `from` (all without it), locked for the cancellation. */
  async occurrencesToCancel(
    seriesId: string,
    from: Date | undefined,
    now: Date,
  ): Promise<{ id: string; userId: string; deskId: string; startTime: Date; endTime: Date; type: ReservationType }[]> {
    const conditions: SQL[] = [eq(reservations.seriesId, seriesId), gt(reservations.endTime, now)];
    if (from !== undefined) conditions.push(gte(reservations.startTime, from));
    return this.db
      .select({
        id: reservations.id,
        userId: reservations.userId,
        deskId: reservations.deskId,
        startTime: reservations.startTime,
        endTime: reservations.endTime,
        type: reservations.type,
      })
      .from(reservations)
      .where(and(...conditions))
      .orderBy(reservations.startTime)
      .for('update');
  }

  /** Cuts the end of those of `ids` not yet ended to `now` (at least 1 ms after their start) and marks them released; answers the ids cut. */
  async cutForRelease(ids: string[], now: Date): Promise<string[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .update(reservations)
      // released_at tells the triggers this change is a release (src/db/functions/): calendars cancel
      // the event at its new end, the attendance (NO_SHOW already) is not planned again.
      .set({
        endTime: sql`greatest(${now.toISOString()}::timestamptz, ${reservations.startTime} + interval '1 millisecond')`,
        modifiedAt: now,
        releasedAt: now,
      })
      .where(and(inArray(reservations.id, ids), gt(reservations.endTime, now)))
      .returning({ id: reservations.id });
    return rows.map((row) => row.id);
  }

  /** Ranges of the desk's (or the user's exclusive) reservations overlapping [start, end), other than `exceptId`. */
  async overlapping(owner: { deskId: string } | { userId: string }, start: Date, end: Date, exceptId?: string): Promise<{ startTime: Date; endTime: Date }[]> {
    const conditions: SQL[] = [sql`${rangeOf} && tstzrange(${start.toISOString()}::timestamptz, ${end.toISOString()}::timestamptz, '[)')`];
    if ('deskId' in owner) conditions.push(eq(reservations.deskId, owner.deskId));
    else conditions.push(eq(reservations.userId, owner.userId), eq(reservations.userExclusive, true));
    if (exceptId !== undefined) conditions.push(ne(reservations.id, exceptId));
    return this.db
      .select({ startTime: reservations.startTime, endTime: reservations.endTime })
      .from(reservations)
      .where(and(...conditions))
      .orderBy(reservations.startTime)
      .limit(20);
  }

  private joined() {
    return this.db.select(view).from(reservations).innerJoin(desks, eq(desks.id, reservations.deskId)).innerJoin(rooms, eq(rooms.id, desks.roomId));
  }

  /** The filter's conditions; its values may be placeholders (timestamps then cast here). */
  private conditions(filter: ReservationFilter | Record<keyof ReservationFilter, unknown>): SQL | undefined {
    const conditions: SQL[] = [];
    const value = (key: keyof ReservationFilter) => filter[key] as never;
    const time = (key: 'from' | 'to') => (filter[key] instanceof Placeholder ? sql`${filter[key]}::timestamptz` : (filter[key] as never));
    if (filter.userId !== undefined) conditions.push(eq(reservations.userId, value('userId')));
    if (filter.deskId !== undefined) conditions.push(eq(reservations.deskId, value('deskId')));
    if (filter.roomId !== undefined) conditions.push(eq(desks.roomId, value('roomId')));
    if (filter.departmentId !== undefined) conditions.push(eq(rooms.departmentId, value('departmentId')));
    if (filter.type !== undefined) conditions.push(eq(reservations.type, value('type')));
    if (filter.from !== undefined) conditions.push(gt(reservations.endTime, time('from')));
    if (filter.to !== undefined) conditions.push(lt(reservations.startTime, time('to')));
    return conditions.length > 0 ? and(...conditions) : undefined;
  }
}
