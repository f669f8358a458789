import { and, count, eq, gt, inArray, lt, lte, sql, type SQL } from 'drizzle-orm';
import { organisationLanguageSql, worksCouncilModeSql } from '../organisation/organisation.access.js';
import { queryRows, type Database } from '../../db/client.js';
import { attendance, attendanceDefaults, departments, departmentSettings, desks, reservations, rooms, userPreferences, users } from '../../db/schema.js';
import { orderByClauses, totalOfPage } from '../../db/paging.js';
import { offsetOf, type PageRequest } from '../../shared/paging.js';
import { ReservationWriter } from '../reservations/reservations.writer.js';

export type AttendanceStatus = (typeof attendance.status.enumValues)[number];

export interface AttendanceView {
  reservationId: string;
  userId: string;
  deskId: string;
  roomId: string;
  departmentId: string;
  startTime: Date;
  endTime: Date;
  status: AttendanceStatus;
  checkInOpensAt: Date;
  releaseAt: Date | null;
  checkedInAt: Date | null;
  releasedAt: Date | null;
}

export interface AttendanceFilter {
  departmentId?: string;
  roomId?: string;
  deskId?: string;
  userId?: string;
  status?: AttendanceStatus;
  from?: Date;
  to?: Date;
}

export interface CheckInSettings {
  checkInRequired: boolean;
  checkInOpensBeforeMs: number;
  checkInGraceMs: number;
}

export interface SettingsRow {
  checkInRequired: boolean | null;
  checkInOpensBeforeMs: number | null;
  checkInGraceMs: number | null;
  timeZone: string;
}

export interface ReleasedRow {
  reservationId: string;
  userId: string;
  email: string;
  firstName: string;
  deskName: string;
  roomName: string;
  timeZone: string;
  startTime: Date;
  endTime: Date;
  /** The owner's chosen language (docs/i18n.md#mails-and-the-calendar-feed); null: the server's default. */
  language: string | null;
}

export const ATTENDANCE_SORTABLE = ['reservationId', 'userId', 'deskId', 'roomId', 'departmentId', 'startTime', 'endTime', 'status', 'releaseAt'] as const;

const view = {
  reservationId: attendance.reservationId,
  userId: reservations.userId,
  deskId: reservations.deskId,
  roomId: desks.roomId,
  departmentId: rooms.departmentId,
  startTime: reservations.startTime,
  endTime: reservations.endTime,
  status: attendance.status,
  checkInOpensAt: attendance.checkInOpensAt,
  releaseAt: attendance.releaseAt,
  checkedInAt: attendance.checkedInAt,
  releasedAt: attendance.releasedAt,
};

/**
 * The attendance plan of reservations starting after `after` (of one department, or all), written
 * again from the settings now in force; reservations already checked in or released keep theirs.
 * The plan itself is the database function attendance_plan_of (src/db/functions/attendance_plan_of.sql),
 * which the triggers call too.
 */
function replan(after: Date, departmentId?: string): SQL {
  const department = departmentId === undefined ? sql`` : sql` and ro.department_id = ${departmentId}`;
  return sql`
    insert into attendance (reservation_id, status, check_in_opens_at, release_at)
    select r.id, p.status, p.check_in_opens_at, p.release_at
      from reservations r
      join desks d on d.id = r.desk_id
      join rooms ro on ro.id = d.room_id
      cross join lateral attendance_plan_of(r.desk_id, r.start_time, r.end_time) p
     where r.start_time > ${after.toISOString()}::timestamptz${department}
    on conflict (reservation_id) do update
       set status = excluded.status, check_in_opens_at = excluded.check_in_opens_at, release_at = excluded.release_at
     where attendance.status in ('PENDING', 'NOT_REQUIRED')`;
}

export class AttendanceRepository {
  constructor(private readonly db: Database) {}

  /**
   * Writes the global settings this process was started with; when they differ from the stored
   * ones, the reservations not started yet are planned again (one transaction, under an advisory
   * lock so that processes starting together take turns).
   */
  async syncDefaults(settings: CheckInSettings, now: Date): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(7201311)`);
      const [stored] = await tx.select().from(attendanceDefaults).where(eq(attendanceDefaults.id, 1));
      if (
        stored &&
        stored.checkInRequired === settings.checkInRequired &&
        stored.checkInOpensBeforeMs === settings.checkInOpensBeforeMs &&
        stored.checkInGraceMs === settings.checkInGraceMs
      ) {
        return false;
      }
      await tx
        .insert(attendanceDefaults)
        .values({ id: 1, ...settings })
        .onConflictDoUpdate({ target: attendanceDefaults.id, set: settings });
      // Start-up work like a migration: on a large database (500,000 reservations ahead took 10 s)
      // it may outlast DATABASE_STATEMENT_TIMEOUT.
      await tx.execute(sql`set local statement_timeout = 0`);
      await tx.execute(replan(now));
      return true;
    });
  }

  async departmentExists(id: string): Promise<boolean> {
    const rows = await this.db.select({ id: departments.id }).from(departments).where(eq(departments.id, id)).limit(1);
    return rows.length > 0;
  }

  /** A department's own settings in one statement: undefined for no such department, `row` undefined where it has none. */
  async departmentSettings(departmentId: string): Promise<{ row: SettingsRow | undefined } | undefined> {
    const [found] = await this.db
      .select({
        checkInRequired: departmentSettings.checkInRequired,
        checkInOpensBeforeMs: departmentSettings.checkInOpensBeforeMs,
        checkInGraceMs: departmentSettings.checkInGraceMs,
        timeZone: departmentSettings.timeZone,
      })
      .from(departments)
      .leftJoin(departmentSettings, eq(departmentSettings.departmentId, departments.id))
      .where(eq(departments.id, departmentId));
    if (!found) return undefined;
    const { timeZone, ...overrides } = found;
    return { row: timeZone === null ? undefined : { ...overrides, timeZone } };
  }

  async settings(departmentId: string): Promise<SettingsRow | undefined> {
    const [row] = await this.db
      .select({
        checkInRequired: departmentSettings.checkInRequired,
        checkInOpensBeforeMs: departmentSettings.checkInOpensBeforeMs,
        checkInGraceMs: departmentSettings.checkInGraceMs,
        timeZone: departmentSettings.timeZone,
      })
      .from(departmentSettings)
      .where(eq(departmentSettings.departmentId, departmentId));
    return row;
  }

  /** Stores a department's settings and plans its reservations not started yet again, in one transaction. */
  async saveSettings(departmentId: string, values: SettingsRow, now: Date): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const [department] = await tx.select({ id: departments.id }).from(departments).where(eq(departments.id, departmentId)).for('update');
      if (!department) return false;
      await tx
        .insert(departmentSettings)
        .values({ departmentId, ...values, modifiedAt: now })
        .onConflictDoUpdate({ target: departmentSettings.departmentId, set: { ...values, modifiedAt: now } });
      await tx.execute(replan(now, departmentId));
      return true;
    });
  }

  async timeZoneOfDepartment(departmentId: string): Promise<string> {
    const row = await this.settings(departmentId);
    return row?.timeZone ?? 'UTC';
  }

  async findById(reservationId: string, db: Database = this.db): Promise<AttendanceView | undefined> {
    const [row] = await db
      .select(view)
      .from(attendance)
      .innerJoin(reservations, eq(reservations.id, attendance.reservationId))
      .innerJoin(desks, eq(desks.id, reservations.deskId))
      .innerJoin(rooms, eq(rooms.id, desks.roomId))
      .where(eq(attendance.reservationId, reservationId))
      .limit(1);
    return row;
  }

  /** findById, with whether works-council mode is on, in the same statement (docs/people.md#works-council-mode). */
  async findByIdWithMode(reservationId: string): Promise<(AttendanceView & { worksCouncilMode: boolean }) | undefined> {
    const [row] = await this.db
      .select({ ...view, worksCouncilMode: sql<boolean>`${worksCouncilModeSql}` })
      .from(attendance)
      .innerJoin(reservations, eq(reservations.id, attendance.reservationId))
      .innerJoin(desks, eq(desks.id, reservations.deskId))
      .innerJoin(rooms, eq(rooms.id, desks.roomId))
      .where(eq(attendance.reservationId, reservationId))
      .limit(1);
    return row;
  }

  /** Whether the reservation awaits approval (docs/policies.md#approvals): it cannot be checked in then. */
  async awaitsApproval(reservationId: string): Promise<boolean> {
    const rows = await queryRows<{ one: number }>(
      this.db,
      sql`select 1 as one from reservation_approvals where reservation_id = ${reservationId} and status = 'PENDING'`,
    );
    return rows.length > 0;
  }

  /**
   * Check-in in one statement: the row is updated only if the caller may and the window is open
   * at `now` and it awaits no approval (docs/policies.md#approvals). The UPDATE takes the row lock the release job claims with SKIP LOCKED; if a release
   * holds it, the UPDATE waits and then sees NO_SHOW and changes nothing (docs/behaviour.md#check-in).
   * Undefined when nothing was changed (the caller reads why).
   */
  async checkInIfOpen(reservationId: string, now: Date, ownerId: string | undefined): Promise<AttendanceView | undefined> {
    const at = sql`${now.toISOString()}::timestamptz`;
    const rows = await queryRows<Record<string, unknown>>(
      this.db,
      sql`
      update attendance a set status = 'CHECKED_IN', checked_in_at = ${at}
        from reservations r join desks d on d.id = r.desk_id join rooms ro on ro.id = d.room_id
       where a.reservation_id = ${reservationId} and r.id = a.reservation_id
         ${ownerId === undefined ? sql`` : sql`and r.user_id = ${ownerId}`}
         and a.status in ('PENDING', 'NOT_REQUIRED')
         and ${at} >= a.check_in_opens_at and ${at} < r.end_time
         and (a.status = 'NOT_REQUIRED' or a.release_at is null or ${at} < a.release_at)
         and not exists (select 1 from reservation_approvals ap where ap.reservation_id = r.id and ap.status = 'PENDING')
      returning a.reservation_id, r.user_id, r.desk_id, d.room_id, ro.department_id, r.start_time, r.end_time,
                a.check_in_opens_at, a.release_at, a.checked_in_at, a.released_at`,
    );
    const row = rows[0];
    if (!row) return undefined;
    const date = (value: unknown) => (value === null || value === undefined ? null : new Date(value as string));
    return {
      reservationId: String(row.reservation_id),
      userId: String(row.user_id),
      deskId: String(row.desk_id),
      roomId: String(row.room_id),
      departmentId: String(row.department_id),
      startTime: date(row.start_time)!,
      endTime: date(row.end_time)!,
      status: 'CHECKED_IN',
      checkInOpensAt: date(row.check_in_opens_at)!,
      releaseAt: date(row.release_at),
      checkedInAt: date(row.checked_in_at),
      releasedAt: date(row.released_at),
    };
  }

  async markCheckedIn(tx: Database, reservationId: string, now: Date): Promise<void> {
    await tx.update(attendance).set({ status: 'CHECKED_IN', checkedInAt: now }).where(eq(attendance.reservationId, reservationId));
  }

  async page(filter: AttendanceFilter, request: PageRequest): Promise<{ rows: AttendanceView[]; total: number }> {
    const where = this.conditions(filter);
    const counting = this.db
      .select({ total: count() })
      .from(attendance)
      .innerJoin(reservations, eq(reservations.id, attendance.reservationId))
      .innerJoin(desks, eq(desks.id, reservations.deskId))
      .innerJoin(rooms, eq(rooms.id, desks.roomId))
      .where(where);
    const rows = await this.db
      .select({ ...view, total: sql<number>`${counting}::int`.mapWith(Number) })
      .from(attendance)
      .innerJoin(reservations, eq(reservations.id, attendance.reservationId))
      .innerJoin(desks, eq(desks.id, reservations.deskId))
      .innerJoin(rooms, eq(rooms.id, desks.roomId))
      .where(where)
      .orderBy(...orderByClauses(request, view, [sql`${reservations.startTime}`], attendance.reservationId))
      .limit(request.size)
      .offset(offsetOf(request));
    const total = await totalOfPage(rows, request, async () => (await counting)[0]?.total ?? 0);
    return { rows: rows.map(({ total: _total, ...row }) => row), total };
  }

  private conditions(filter: AttendanceFilter): SQL | undefined {
    const conditions: SQL[] = [];
    if (filter.userId !== undefined) conditions.push(eq(reservations.userId, filter.userId));
    if (filter.deskId !== undefined) conditions.push(eq(reservations.deskId, filter.deskId));
    if (filter.roomId !== undefined) conditions.push(eq(desks.roomId, filter.roomId));
    if (filter.departmentId !== undefined) conditions.push(eq(rooms.departmentId, filter.departmentId));
    if (filter.status !== undefined) conditions.push(eq(attendance.status, filter.status));
    if (filter.from !== undefined && filter.to !== undefined) {
      // As the desks' exclusion constraint writes it: its GiST index (desk_id, range) then finds an
      // office's week desk by desk instead of every reservation of the week (docs/query-plans.md).
      conditions.push(
        sql`tstzrange(${reservations.startTime}, ${reservations.endTime}, '[)') && tstzrange(${filter.from.toISOString()}::timestamptz, ${filter.to.toISOString()}::timestamptz, '[)')`,
      );
    } else {
      if (filter.from !== undefined) conditions.push(gt(reservations.endTime, filter.from));
      if (filter.to !== undefined) conditions.push(lt(reservations.startTime, filter.to));
    }
    return conditions.length > 0 ? and(...conditions) : undefined;
  }

  /**
   * Releases up to `limit` reservations that are due (docs/behaviour.md#release-of-no-shows), in
   * one transaction: claims their PENDING attendance rows FOR UPDATE SKIP LOCKED (rows another
   * process or a check-in holds are left to them), marks them NO_SHOW, cuts the end of those not
   * yet ended to the release time, and lets `mails` write the owners' mails in the same transaction.
   */
  async releaseDue(now: Date, limit: number, notify?: (tx: Database, released: ReleasedRow[]) => Promise<void>): Promise<{ released: number; cut: number }> {
    return this.db.transaction(async (tx) => {
      const due = await tx
        .select({ id: attendance.reservationId })
        .from(attendance)
        .where(and(eq(attendance.status, 'PENDING'), lte(attendance.releaseAt, now)))
        .orderBy(attendance.releaseAt)
        .limit(limit)
        .for('update', { skipLocked: true });
      if (due.length === 0) return { released: 0, cut: 0 };
      const ids = due.map((row) => row.id);
      await tx.update(attendance).set({ status: 'NO_SHOW', releasedAt: now }).where(inArray(attendance.reservationId, ids));
      // The reservations module writes the table (docs/architecture.md#the-one-writer-of-reservations).
      const cut = await ReservationWriter.cutForRelease(tx, ids, now);
      if (notify && cut.length > 0) {
        const released = await tx
          .select({
            reservationId: reservations.id,
            userId: reservations.userId,
            email: users.email,
            firstName: users.firstName,
            deskName: desks.name,
            roomName: rooms.name,
            timeZone: sql<string>`coalesce(${departmentSettings.timeZone}, 'UTC')`,
            startTime: reservations.startTime,
            endTime: reservations.endTime,
            // The owner's language, else the organisation's default (docs/i18n.md#choosing-the-language).
            language: sql<string | null>`coalesce(${userPreferences.language}, ${organisationLanguageSql})`,
          })
          .from(reservations)
          .innerJoin(users, eq(users.id, reservations.userId))
          .leftJoin(userPreferences, eq(userPreferences.userId, reservations.userId))
          .innerJoin(desks, eq(desks.id, reservations.deskId))
          .innerJoin(rooms, eq(rooms.id, desks.roomId))
          .leftJoin(departmentSettings, eq(departmentSettings.departmentId, rooms.departmentId))
          .where(inArray(reservations.id, cut));
        await notify(tx, released);
      }
      return { released: ids.length, cut: cut.length };
    });
  }

  /** Daily counts by the local date of the start, in SQL; `from`/`to` are the instants the first day begins and the day after the last begins. */
  async noShowDays(
    zone: string,
    firstDate: string,
    lastDate: string,
    from: Date,
    to: Date,
    departmentId?: string,
  ): Promise<{ date: string; reservations: number; checkedIn: number; noShows: number; pending: number; notRequired: number; noShowRate: number | null }[]> {
    const department = departmentId === undefined ? sql`` : sql` and ro.department_id = ${departmentId}`;
    const rows = await queryRows<Record<string, unknown>>(
      this.db,
      sql`
      with counted as (
        select (r.start_time at time zone ${zone})::date as day, a.status
          from attendance a
          join reservations r on r.id = a.reservation_id
          join desks d on d.id = r.desk_id
          join rooms ro on ro.id = d.room_id
         where r.start_time >= ${from.toISOString()}::timestamptz and r.start_time < ${to.toISOString()}::timestamptz${department}
      ), per_day as (
        select day,
               count(*)::int as reservations,
               (count(*) filter (where status = 'CHECKED_IN'))::int as checked_in,
               (count(*) filter (where status = 'NO_SHOW'))::int as no_shows,
               (count(*) filter (where status = 'PENDING'))::int as pending,
               (count(*) filter (where status = 'NOT_REQUIRED'))::int as not_required
          from counted group by day
      )
      select to_char(days.day, 'YYYY-MM-DD') as date,
             coalesce(p.reservations, 0) as reservations,
             coalesce(p.checked_in, 0) as checked_in,
             coalesce(p.no_shows, 0) as no_shows,
             coalesce(p.pending, 0) as pending,
             coalesce(p.not_required, 0) as not_required,
             round(p.no_shows::numeric / nullif(p.checked_in + p.no_shows, 0), 4)::float8 as rate
        from generate_series(${firstDate}::date, ${lastDate}::date, interval '1 day') as days(day)
        left join per_day p on p.day = days.day::date
       order by days.day`,
    );
    return rows.map((row) => ({
      date: String(row.date),
      reservations: Number(row.reservations),
      checkedIn: Number(row.checked_in),
      noShows: Number(row.no_shows),
      pending: Number(row.pending),
      notRequired: Number(row.not_required),
      noShowRate: row.rate === null || row.rate === undefined ? null : Number(row.rate),
    }));
  }

  /** The desk, its room and department, and the office's time zone. */
  async deskPlace(deskId: string) {
    const [row] = await this.db
      .select({
        desk: { id: desks.id, name: desks.name, type: desks.type },
        room: { id: rooms.id, name: rooms.name, available: rooms.available },
        department: { id: departments.id, location: departments.location, building: departments.building, floor: departments.floor },
        timeZone: sql<string>`coalesce(${departmentSettings.timeZone}, 'UTC')`,
      })
      .from(desks)
      .innerJoin(rooms, eq(rooms.id, desks.roomId))
      .innerJoin(departments, eq(departments.id, rooms.departmentId))
      .leftJoin(departmentSettings, eq(departmentSettings.departmentId, departments.id))
      .where(eq(desks.id, deskId));
    return row;
  }

  /**
   * The desk page in one statement (docs/benchmarks.md#statements-per-request): the desk with its
   * room, office and time zone; its reservations overlapping [from, to) with their attendance (a
   * window wider than any local day: the caller cuts it to the day once it knows the zone), in
   * start order, at most 200; whether the desk is taken at `now`; and the start of its next
   * reservation after `now`.
   */
  async deskDay(deskId: string, from: Date, to: Date, now: Date) {
    const at = now.toISOString();
    const rows = await this.db
      .select({
        desk: { id: desks.id, name: desks.name, type: desks.type },
        room: { id: rooms.id, name: rooms.name, available: rooms.available },
        department: { id: departments.id, location: departments.location, building: departments.building, floor: departments.floor },
        timeZone: sql<string>`coalesce(${departmentSettings.timeZone}, 'UTC')`,
        occupied: sql<boolean>`exists (select 1 from reservations o where o.desk_id = ${desks.id}
          and o.start_time <= ${at}::timestamptz and o.end_time > ${at}::timestamptz)`,
        nextStartMs: sql<number | null>`(select extract(epoch from min(n.start_time)) * 1000 from reservations n
          where n.desk_id = ${desks.id} and n.start_time > ${at}::timestamptz)::float8`,
        reservationId: attendance.reservationId,
        userId: reservations.userId,
        startTime: reservations.startTime,
        endTime: reservations.endTime,
        status: attendance.status,
        checkInOpensAt: attendance.checkInOpensAt,
        releaseAt: attendance.releaseAt,
        checkedInAt: attendance.checkedInAt,
        releasedAt: attendance.releasedAt,
      })
      .from(desks)
      .innerJoin(rooms, eq(rooms.id, desks.roomId))
      .innerJoin(departments, eq(departments.id, rooms.departmentId))
      .leftJoin(departmentSettings, eq(departmentSettings.departmentId, departments.id))
      .leftJoin(reservations, and(eq(reservations.deskId, desks.id), gt(reservations.endTime, from), lt(reservations.startTime, to)))
      .leftJoin(attendance, eq(attendance.reservationId, reservations.id))
      .where(eq(desks.id, deskId))
      .orderBy(reservations.startTime)
      .limit(200);
    const [first] = rows;
    if (!first) return undefined;
    const reservationsOfDesk: AttendanceView[] = [];
    for (const row of rows) {
      const { reservationId, userId, startTime, endTime, status, checkInOpensAt } = row;
      // No reservation in the window: the left join's one row of nulls.
      if (reservationId === null || userId === null || startTime === null || endTime === null || status === null || checkInOpensAt === null) continue;
      reservationsOfDesk.push({
        reservationId,
        userId,
        deskId: first.desk.id,
        roomId: first.room.id,
        departmentId: first.department.id,
        startTime,
        endTime,
        status,
        checkInOpensAt,
        releaseAt: row.releaseAt,
        checkedInAt: row.checkedInAt,
        releasedAt: row.releasedAt,
      });
    }
    const nextStartMs = first.nextStartMs === null ? null : Number(first.nextStartMs);
    return {
      place: { desk: first.desk, room: first.room, department: first.department, timeZone: first.timeZone },
      reservations: reservationsOfDesk,
      occupied: first.occupied,
      nextStart: nextStartMs === null ? null : new Date(nextStartMs),
    };
  }

  /** Start of the desk's first reservation starting after `after`, if any before `until`. */
  async nextStart(deskId: string, after: Date, until: Date): Promise<Date | undefined> {
    const [row] = await this.db
      .select({ startTime: reservations.startTime })
      .from(reservations)
      .where(and(eq(reservations.deskId, deskId), gt(reservations.startTime, after), lt(reservations.startTime, until)))
      .orderBy(reservations.startTime)
      .limit(1);
    return row?.startTime;
  }

  /** Whether a reservation of the desk covers `at`. */
  async occupiedAt(deskId: string, at: Date): Promise<boolean> {
    const rows = await this.db
      .select({ id: reservations.id })
      .from(reservations)
      .where(and(eq(reservations.deskId, deskId), lte(reservations.startTime, at), gt(reservations.endTime, at)))
      .limit(1);
    return rows.length > 0;
  }

  /** Desks of a room for its label sheet, in name order, with the room's and department's names. */
  async roomDesks(roomId: string) {
    return this.db
      .select({
        id: desks.id,
        name: desks.name,
        roomName: rooms.name,
        location: departments.location,
        building: departments.building,
        floor: departments.floor,
      })
      .from(rooms)
      .innerJoin(departments, eq(departments.id, rooms.departmentId))
      .innerJoin(desks, eq(desks.roomId, rooms.id))
      .where(eq(rooms.id, roomId))
      .orderBy(desks.name, desks.id)
      .limit(1000);
  }

  async roomExists(roomId: string): Promise<boolean> {
    const rows = await this.db.select({ id: rooms.id }).from(rooms).where(eq(rooms.id, roomId)).limit(1);
    return rows.length > 0;
  }

  async deskExists(deskId: string): Promise<boolean> {
    const rows = await this.db.select({ id: desks.id }).from(desks).where(eq(desks.id, deskId)).limit(1);
    return rows.length > 0;
  }
}
