import { and, asc, count, eq, sql, type SQL } from 'drizzle-orm';
import { queryRows, type Database } from '../../db/client.js';
import { fromJson } from '../../db/paging.js';
import { personPrivacy, starredPeople, users } from '../../db/schema.js';
import { timestampOf, type TimeWindow } from '../../db/time-ranges.js';
import { privacySettingsColumns } from '../organisation/organisation.access.js';
import type { NameVisibility } from '../organisation/organisation.schemas.js';
import { sharesTeamWith, teamMateIdsQuery, teamsJsonOf } from '../teams/teams.access.js';

export interface PrivacyRow {
  hideBookings: boolean;
  bookAnonymously: boolean;
}

export interface StarredRow {
  userId: string;
  firstName: string;
  lastName: string;
  createdAt: Date;
}

/** An office and what a request about it needs to know first. */
export interface OfficeRow {
  timeZone: string;
  location: string;
  building: string;
  floor: number;
  /** The organisation's settings, read in the same statement (docs/people.md#who-is-in). */
  nameVisibility: NameVisibility;
  worksCouncilMode: boolean;
}

/** One booking of an office's day, with what deciding who may see it needs (docs/people.md#what-is-shown-to-whom). */
export interface BookingRow {
  reservationId: string;
  userId: string;
  firstName: string;
  lastName: string;
  deskId: string;
  deskName: string;
  roomId: string;
  roomName: string;
  startTime: string;
  endTime: string;
  /** The attendance status; null when the reservation has none. */
  status: 'PENDING' | 'CHECKED_IN' | 'NO_SHOW' | 'NOT_REQUIRED' | null;
  hideBookings: boolean;
  bookAnonymously: boolean;
  sharesTeam: boolean;
  teams: Array<{ id: string; name: string }>;
}

/** A desk of an office, with its position on the plan if placed (fractions of the image). */
export interface OfficeDeskRow {
  id: string;
  name: string;
  roomId: string;
  roomName: string;
  x: number | null;
  y: number | null;
  width: number | null;
  height: number | null;
  rotation: number | null;
}

export interface WeekRow {
  /** The organisation's settings, the same on every row (read in the same statement). */
  nameVisibility: NameVisibility;
  worksCouncilMode: boolean;
  userId: string;
  firstName: string;
  lastName: string;
  starred: boolean;
  teamMate: boolean;
  hideBookings: boolean;
  bookAnonymously: boolean;
  date: string | null;
  departmentId: string | null;
  location: string | null;
  deskId: string | null;
  deskName: string | null;
  startTime: string | null;
  endTime: string | null;
}

const withTeams = (row: BookingRow): BookingRow => ({ ...row, teams: fromJson<Array<{ id: string; name: string }>>(row.teams) });

const iso = (column: string) => sql.raw(`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);

/**
 * The bookings of an office's desks overlapping [start, end), as a subquery (`start`, `end`:
 * timestamptz expressions): per desk of the department (rooms by department, desks by room), its
 * reservations starting inside the window and the last one starting before it if it reaches into
 * it (no two reservations of a desk overlap), both probes of reservations_desk_start_idx, as the
 * floor plan's availability does (docs/query-plans.md#floor-plan-availability). Then the owner,
 * their switches, their attendance, whether they share a team with the viewer and their teams. At
 * most `limit` rows, by start.
 */
const bookingsOf = (departmentId: SQL, start: SQL, end: SQL, viewerId: string, limit: number): SQL => sql`(
  select res.id as "reservationId", res.user_id as "userId", u.first_name as "firstName", u.last_name as "lastName",
         d.id as "deskId", d.name as "deskName", r.id as "roomId", r.name as "roomName",
         ${iso('res.start_time')} as "startTime", ${iso('res.end_time')} as "endTime",
         a.status, coalesce(p.hide_bookings, false) as "hideBookings", coalesce(p.book_anonymously, false) as "bookAnonymously",
         ${sharesTeamWith(viewerId, sql`res.user_id`)} as "sharesTeam", ${teamsJsonOf(sql`res.user_id`)} as "teams"
  from rooms r
  join desks d on d.room_id = r.id
  cross join lateral (
    (select id, user_id, start_time, end_time from reservations
     where desk_id = d.id and start_time < ${start} order by start_time desc limit 1)
    union all
    (select id, user_id, start_time, end_time from reservations
     where desk_id = d.id and start_time >= ${start} and start_time < ${end})
  ) res
  join users u on u.id = res.user_id
  left join person_privacy p on p.user_id = res.user_id
  left join attendance a on a.reservation_id = res.id
  where r.department_id = ${departmentId} and res.end_time > ${start}
  order by res.start_time, u.last_name, u.first_name, res.id
  limit ${limit})`;

/**
 * The one writer of person_privacy and starred_people, and the reads of who is in
 * (docs/people.md). Reservations, desks, rooms, attendance and office settings are read here,
 * never written.
 */
export class PeopleRepository {
  constructor(private readonly db: Database) {}

  async privacyOf(userId: string): Promise<PrivacyRow> {
    const [row] = await this.db
      .select({ hideBookings: personPrivacy.hideBookings, bookAnonymously: personPrivacy.bookAnonymously })
      .from(personPrivacy)
      .where(eq(personPrivacy.userId, userId));
    return row ?? { hideBookings: false, bookAnonymously: false };
  }

  async savePrivacy(userId: string, privacy: PrivacyRow, now: Date): Promise<PrivacyRow> {
    const [row] = await this.db
      .insert(personPrivacy)
      .values({ userId, ...privacy, modifiedAt: now })
      .onConflictDoUpdate({ target: personPrivacy.userId, set: { ...privacy, modifiedAt: now } })
      .returning({ hideBookings: personPrivacy.hideBookings, bookAnonymously: personPrivacy.bookAnonymously });
    return row!;
  }

  async starredBy(userId: string): Promise<StarredRow[]> {
    return this.db
      .select({ userId: starredPeople.starredId, firstName: users.firstName, lastName: users.lastName, createdAt: starredPeople.createdAt })
      .from(starredPeople)
      .innerJoin(users, eq(users.id, starredPeople.starredId))
      .where(eq(starredPeople.userId, userId))
      .orderBy(asc(users.lastName), asc(users.firstName), asc(users.id));
  }

  /**
   * Stars `starredId` for `userId` unless they starred `max` already: 'added', 'exists' or 'full'.
   * Serialised per person by locking their user row, so two requests at once cannot pass the cap.
   */
  async star(userId: string, starredId: string, max: number, now: Date): Promise<'added' | 'exists' | 'full'> {
    return this.db.transaction(async (tx) => {
      await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
      const [existing] = await tx
        .select({ userId: starredPeople.userId })
        .from(starredPeople)
        .where(and(eq(starredPeople.userId, userId), eq(starredPeople.starredId, starredId)));
      if (existing) return 'exists';
      const [held] = await tx.select({ total: count() }).from(starredPeople).where(eq(starredPeople.userId, userId));
      if ((held?.total ?? 0) >= max) return 'full';
      await tx.insert(starredPeople).values({ userId, starredId, createdAt: now });
      return 'added';
    });
  }

  async unstar(userId: string, starredId: string): Promise<boolean> {
    const rows = await this.db
      .delete(starredPeople)
      .where(and(eq(starredPeople.userId, userId), eq(starredPeople.starredId, starredId)))
      .returning({ userId: starredPeople.userId });
    return rows.length > 0;
  }

  async userExists(id: string): Promise<boolean> {
    const rows = await this.db.select({ id: users.id }).from(users).where(eq(users.id, id)).limit(1);
    return rows.length > 0;
  }

  /** The office's time zone (department_settings, default UTC) and place, and the organisation's privacy settings; undefined: no such department. */
  async office(departmentId: string): Promise<OfficeRow | undefined> {
    const [row] = await queryRows<OfficeRow>(
      this.db,
      sql`select coalesce(s.time_zone, 'UTC') as "timeZone", d.location, d.building, d.floor, ${privacySettingsColumns}
          from departments d left join department_settings s on s.department_id = d.id
          where d.id = ${departmentId}::uuid`,
    );
    return row;
  }

  /**
   * The bookings of the office's desks overlapping `window`, in ONE statement
   * (docs/people.md#who-is-in); see bookingsOf.
   */
  async bookings(departmentId: string, window: TimeWindow, viewerId: string, limit: number): Promise<BookingRow[]> {
    const rows = await queryRows<BookingRow>(
      this.db,
      sql`select b.* from ${bookingsOf(sql`${departmentId}::uuid`, timestampOf(window.start), timestampOf(window.end), viewerId, limit)} b`,
    );
    return rows.map(withTeams);
  }

  /**
   * Who's in (docs/people.md#who-is-in) in ONE statement: the office, its time zone and the
   * organisation's settings; its local day (`date`, else the day of `now` there) as a window; and
   * its bookings overlapping that day (bookingsOf), one row each, or one row with null booking
   * columns when there are none. undefined: no such office.
   */
  async day(
    departmentId: string,
    date: string | undefined,
    now: Date,
    viewerId: string,
    limit: number,
  ): Promise<{ office: OfficeRow & { date: string }; bookings: BookingRow[] } | undefined> {
    const rows = await queryRows<OfficeRow & { date: string } & Partial<BookingRow> & { reservationId: string | null }>(
      this.db,
      sql`with office as materialized (
            select coalesce(s.time_zone, 'UTC') as "timeZone", d.location, d.building, d.floor, ${privacySettingsColumns},
                   coalesce(${date ?? null}::date, (${now.toISOString()}::timestamptz at time zone coalesce(s.time_zone, 'UTC'))::date) as local_date
            from departments d left join department_settings s on s.department_id = d.id
            where d.id = ${departmentId}::uuid
          ), day as materialized (
            select office.*, to_char(local_date, 'YYYY-MM-DD') as "date",
                   local_date::timestamp at time zone "timeZone" as day_start, (local_date + 1)::timestamp at time zone "timeZone" as day_end
            from office
          )
          select day."timeZone", day.location, day.building, day.floor, day."nameVisibility", day."worksCouncilMode", day."date", b.*
          from day
          left join lateral ${bookingsOf(sql`${departmentId}::uuid`, sql`day.day_start`, sql`day.day_end`, viewerId, limit)} b on true`,
    );
    const [first] = rows;
    if (!first) return undefined;
    const office = {
      timeZone: first.timeZone,
      location: first.location,
      building: first.building,
      floor: first.floor,
      nameVisibility: first.nameVisibility,
      worksCouncilMode: first.worksCouncilMode,
      date: first.date,
    };
    return { office, bookings: rows.filter((row) => row.reservationId !== null).map((row) => withTeams(row as BookingRow)) };
  }

  /**
   * The viewer, their team mates and the people they starred, each with their bookings whose
   * local date (in the office's time zone) lies in [from, to]: one statement over
   * reservations_user_start_idx (the people first, then each one's reservations in a window a
   * day wider on each side, filtered by local date). A person without bookings is one row with
   * null booking columns. At most `limit` rows.
   */
  async week(viewerId: string, from: string, to: string, limit: number): Promise<WeekRow[]> {
    return queryRows<WeekRow>(
      this.db,
      sql`with wanted as (
            select person.id, bool_or(person.starred) as starred, bool_or(person.mate) as mate from (
              select ${viewerId}::uuid as id, false as starred, false as mate
              union all select starred_id, true, false from starred_people where user_id = ${viewerId}::uuid
              union all select user_id, false, true from (${teamMateIdsQuery(viewerId)}) mates(user_id) where user_id <> ${viewerId}::uuid
            ) person group by person.id
          )
          select ${privacySettingsColumns}, w.id as "userId", u.first_name as "firstName", u.last_name as "lastName", w.starred, w.mate as "teamMate",
                 coalesce(p.hide_bookings, false) as "hideBookings", coalesce(p.book_anonymously, false) as "bookAnonymously",
                 b.date, b.department_id as "departmentId", b.location, b.desk_id as "deskId", b.desk_name as "deskName",
                 b.start_time as "startTime", b.end_time as "endTime"
          from wanted w
          join users u on u.id = w.id
          left join person_privacy p on p.user_id = w.id
          left join lateral (
            select to_char((res.start_time at time zone coalesce(s.time_zone, 'UTC'))::date, 'YYYY-MM-DD') as date,
                   dep.id as department_id, dep.location, d.id as desk_id, d.name as desk_name,
                   ${iso('res.start_time')} as start_time, ${iso('res.end_time')} as end_time
            from reservations res
            join desks d on d.id = res.desk_id
            join rooms r on r.id = d.room_id
            join departments dep on dep.id = r.department_id
            left join department_settings s on s.department_id = dep.id
            where res.user_id = w.id
              and res.start_time >= (${from}::date - 1)::timestamp at time zone 'UTC'
              and res.start_time < (${to}::date + 2)::timestamp at time zone 'UTC'
              and (res.start_time at time zone coalesce(s.time_zone, 'UTC'))::date between ${from}::date and ${to}::date
          ) b on true
          order by w.id = ${viewerId}::uuid desc, u.last_name, u.first_name, w.id, b.start_time
          limit ${limit}`,
    );
  }

  /** Every desk of the office with its plan position, by room and name (the lobby display). */
  async desksOf(departmentId: string): Promise<OfficeDeskRow[]> {
    return queryRows<OfficeDeskRow>(
      this.db,
      sql`select d.id, d.name, r.id as "roomId", r.name as "roomName", p.x, p.y, p.width, p.height, p.rotation
          from rooms r join desks d on d.room_id = r.id
          left join floor_plan_positions p on p.desk_id = d.id and p.department_id = r.department_id
          where r.department_id = ${departmentId}::uuid
          order by r.name, r.id, d.name, d.id`,
    );
  }
}
