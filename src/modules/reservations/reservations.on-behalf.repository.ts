import { and, asc, eq, gt, ilike, isNotNull, ne, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Database } from '../../db/client.js';
import { departmentSettings, desks, reservations, rooms, users } from '../../db/schema.js';
import { containsPattern } from '../../shared/text.js';

export interface NoticeDetails {
  email: string;
  firstName: string;
  bookerName: string;
  deskName: string;
  roomName: string;
  timeZone: string;
}

export interface Person {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
}

const booker = alias(users, 'booker');

/** The SQL of booking for someone else (docs/policies.md#booking-for-someone-else). */
export class OnBehalfRepository {
  constructor(private readonly db: Database) {}

  /** What the person's notice names: their address and name, the booker's name, the desk, its room and the office's zone. */
  async noticeDetails(ownerId: string, bookerId: string, deskId: string): Promise<NoticeDetails | undefined> {
    const [row] = await this.db
      .select({
        email: users.email,
        firstName: users.firstName,
        bookerName: sql<string>`${booker.firstName} || ' ' || ${booker.lastName}`,
        deskName: desks.name,
        roomName: rooms.name,
        timeZone: sql<string>`coalesce(${departmentSettings.timeZone}, 'UTC')`,
      })
      .from(users)
      .innerJoin(booker, eq(booker.id, bookerId))
      .innerJoin(desks, eq(desks.id, deskId))
      .innerJoin(rooms, eq(rooms.id, desks.roomId))
      .leftJoin(departmentSettings, eq(departmentSettings.departmentId, rooms.departmentId))
      .where(eq(users.id, ownerId))
      .limit(1);
    return row;
  }

  /**
   * Enabled people other than `selfId`, by name, in one statement: all of them (`ids` undefined, an
   * admin) or those any of the subqueries `ids` names; `search` matches part of a name or the e-mail. At most `limit`.
   */
  async people(selfId: string, ids: SQL[] | undefined, search: string | undefined, limit: number): Promise<Person[]> {
    const conditions: SQL[] = [eq(users.enabled, true), ne(users.id, selfId)];
    if (ids !== undefined) conditions.push(or(...ids.map((query) => sql`${users.id} in (${query})`))!);
    if (search) {
      const pattern = containsPattern(search);
      conditions.push(or(ilike(users.firstName, pattern), ilike(users.lastName, pattern), ilike(users.email, pattern))!);
    }
    return this.db
      .select({ id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email })
      .from(users)
      .where(and(...conditions))
      .orderBy(asc(users.lastName), asc(users.firstName), asc(users.id))
      .limit(limit);
  }

  /** The person's reservations not ended by `now` that someone else booked, with who: at most `limit`, soonest first. */
  async bookedByOthers(userId: string, now: Date, limit: number) {
    return this.db
      .select({ reservationId: reservations.id, bookedBy: { id: booker.id, firstName: booker.firstName, lastName: booker.lastName } })
      .from(reservations)
      .innerJoin(booker, eq(booker.id, reservations.bookedBy))
      .where(and(eq(reservations.userId, userId), gt(reservations.endTime, now), isNotNull(reservations.bookedBy), ne(reservations.bookedBy, userId)))
      .orderBy(asc(reservations.startTime), asc(reservations.id))
      .limit(limit);
  }
}
