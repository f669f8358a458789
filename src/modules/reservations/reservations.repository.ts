import { and, count, eq, gt, lt, ne, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { desks, reservations, rooms } from '../../db/schema.js';
import { offsetOf, orderByClauses, totalOfPage, type PageRequest } from '../../shared/paging.js';

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
}

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
   * it, counts apart.
   */
  async page(filter: ReservationFilter, request: PageRequest): Promise<{ rows: ReservationView[]; total: number }> {
    const where = this.conditions(filter);
    const needsJoin = filter.roomId !== undefined || filter.departmentId !== undefined;
    const counting = needsJoin
      ? this.db
          .select({ total: count() })
          .from(reservations)
          .innerJoin(desks, eq(desks.id, reservations.deskId))
          .innerJoin(rooms, eq(rooms.id, desks.roomId))
          .where(where)
      : this.db.select({ total: count() }).from(reservations).where(where);
    const rows = await this.db
      .select({ ...view, total: sql<number>`${counting}::int`.mapWith(Number) })
      .from(reservations)
      .innerJoin(desks, eq(desks.id, reservations.deskId))
      .innerJoin(rooms, eq(rooms.id, desks.roomId))
      .where(where)
      .orderBy(...orderByClauses(request, sortColumns, [sql`${reservations.startTime}`], reservations.id))
      .limit(request.size)
      .offset(offsetOf(request));
    const total = await totalOfPage(rows, request, async () => (await counting)[0]?.total ?? 0);
    return { rows: rows.map(({ total: _total, ...row }) => row), total };
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

  private conditions(filter: ReservationFilter): SQL | undefined {
    const conditions: SQL[] = [];
    if (filter.userId !== undefined) conditions.push(eq(reservations.userId, filter.userId));
    if (filter.deskId !== undefined) conditions.push(eq(reservations.deskId, filter.deskId));
    if (filter.roomId !== undefined) conditions.push(eq(desks.roomId, filter.roomId));
    if (filter.departmentId !== undefined) conditions.push(eq(rooms.departmentId, filter.departmentId));
    if (filter.type !== undefined) conditions.push(eq(reservations.type, filter.type));
    if (filter.from !== undefined) conditions.push(gt(reservations.endTime, filter.from));
    if (filter.to !== undefined) conditions.push(lt(reservations.startTime, filter.to));
    return conditions.length > 0 ? and(...conditions) : undefined;
  }
}
