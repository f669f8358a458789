import { and, asc, eq, sql } from 'drizzle-orm';
import { queryRows, type Database } from '../../db/client.js';
import { bookingDefaults, departments, departmentSettings, desks, favouriteDesks, rooms, users } from '../../db/schema.js';

export type WindowKind = (typeof bookingDefaults.windowKind.enumValues)[number];

export interface FavouriteRow {
  deskId: string;
  deskName: string;
  roomId: string;
  roomName: string;
  departmentId: string;
  createdAt: Date;
}

export interface DefaultsRow {
  homeDepartmentId: string | null;
  windowKind: WindowKind;
  windowStartMinute: number | null;
  windowEndMinute: number | null;
  timeZone: string;
}

/** A reservation of the pattern week (docs/favourites.md#book-my-usual), with its desk's place and office zone. */
export interface PatternRow {
  id: string;
  deskId: string;
  deskName: string;
  roomName: string;
  departmentId: string;
  startTime: Date;
  endTime: Date;
  timeZone: string;
}

/** What a proposed day meets before any policy: a closed day, the desk taken, the person busy. */
export interface ProposalCheck {
  closure: { id: string; date: string; reason: string } | null;
  deskTaken: boolean;
  userBusy: boolean;
}

export interface NearDeskRow {
  deskId: string;
  deskName: string;
  roomId: string;
  roomName: string;
  departmentId: string;
  nearness: 'ROOM' | 'AREA' | 'DEPARTMENT';
  teammates: number;
  /** ROOM: the room's name; AREA: the area's name; DEPARTMENT: location · building. */
  place: string;
  floor: number;
}

const list = (values: string[]) => `{${values.join(',')}}`;

/**
 * The SQL of docs/favourites.md: the one writer of `favourite_desks` and `booking_defaults`; reads
 * (never writes) reservations, teams and areas for "Book my usual" and the near-my-team ranking.
 */
export class FavouritesRepository {
  constructor(private readonly db: Database) {}

  async favourites(userId: string): Promise<FavouriteRow[]> {
    return this.db
      .select({
        deskId: favouriteDesks.deskId,
        deskName: desks.name,
        roomId: rooms.id,
        roomName: rooms.name,
        departmentId: rooms.departmentId,
        createdAt: favouriteDesks.createdAt,
      })
      .from(favouriteDesks)
      .innerJoin(desks, eq(desks.id, favouriteDesks.deskId))
      .innerJoin(rooms, eq(rooms.id, desks.roomId))
      .where(eq(favouriteDesks.userId, userId))
      .orderBy(asc(favouriteDesks.createdAt), asc(favouriteDesks.deskId));
  }

  /**
   * Stars `deskId` for `userId` unless they already hold `max` stars: answers 'added', 'kept' (it was
   * starred), 'full' or 'no-desk'. The person's row is locked first, so two stars at once cannot pass the bound together.
   */
  async addFavourite(userId: string, deskId: string, max: number, now: Date): Promise<'added' | 'kept' | 'full' | 'no-desk'> {
    return this.db.transaction(async (tx) => {
      await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
      const [desk] = await tx.select({ id: desks.id }).from(desks).where(eq(desks.id, deskId)).limit(1);
      if (!desk) return 'no-desk';
      const [row] = await queryRows<{ starred: boolean; held: number }>(
        tx,
        sql`select exists (select 1 from ${favouriteDesks} where user_id = ${userId} and desk_id = ${deskId}) as starred,
                   (select count(*) from ${favouriteDesks} where user_id = ${userId})::int as held`,
      );
      if (row!.starred) return 'kept';
      if (row!.held >= max) return 'full';
      await tx.insert(favouriteDesks).values({ userId, deskId, createdAt: now }).onConflictDoNothing();
      return 'added';
    });
  }

  async removeFavourite(userId: string, deskId: string): Promise<boolean> {
    const rows = await this.db
      .delete(favouriteDesks)
      .where(and(eq(favouriteDesks.userId, userId), eq(favouriteDesks.deskId, deskId)))
      .returning({ deskId: favouriteDesks.deskId });
    return rows.length > 0;
  }

  async defaults(userId: string): Promise<DefaultsRow | undefined> {
    const [row] = await this.db
      .select({
        homeDepartmentId: bookingDefaults.homeDepartmentId,
        windowKind: bookingDefaults.windowKind,
        windowStartMinute: bookingDefaults.windowStartMinute,
        windowEndMinute: bookingDefaults.windowEndMinute,
        timeZone: sql<string>`coalesce(${departmentSettings.timeZone}, 'UTC')`,
      })
      .from(bookingDefaults)
      .leftJoin(departmentSettings, eq(departmentSettings.departmentId, bookingDefaults.homeDepartmentId))
      .where(eq(bookingDefaults.userId, userId))
      .limit(1);
    return row;
  }

  async departmentExists(departmentId: string): Promise<boolean> {
    const [row] = await this.db.select({ id: departments.id }).from(departments).where(eq(departments.id, departmentId)).limit(1);
    return row !== undefined;
  }

  async saveDefaults(userId: string, values: Omit<DefaultsRow, 'timeZone'>, now: Date): Promise<void> {
    await this.db
      .insert(bookingDefaults)
      .values({ userId, ...values, modifiedAt: now })
      .onConflictDoUpdate({ target: bookingDefaults.userId, set: { ...values, modifiedAt: now } });
  }

  /**
   * The person's own shared reservations starting in [from, to) (a span wider than the pattern week,
   * which the service narrows per office zone), not released as no-shows, at most `max`, in time order.
   */
  async pattern(userId: string, from: Date, to: Date, max: number): Promise<PatternRow[]> {
    const rows = await queryRows<{
      id: string;
      desk_id: string;
      desk_name: string;
      room_name: string;
      department_id: string;
      start_time: string;
      end_time: string;
      time_zone: string;
    }>(
      this.db,
      sql`select r.id, r.desk_id, d.name as desk_name, ro.name as room_name, ro.department_id,
                 r.start_time::text as start_time, r.end_time::text as end_time, coalesce(s.time_zone, 'UTC') as time_zone
            from reservations r
            join desks d on d.id = r.desk_id
            join rooms ro on ro.id = d.room_id
            left join department_settings s on s.department_id = ro.department_id
           where r.user_id = ${userId} and r.start_time >= ${from.toISOString()}::timestamptz and r.start_time < ${to.toISOString()}::timestamptz
             and r.type = 'shared' and r.released_at is null
           order by r.start_time, r.id
           limit ${max}`,
    );
    return rows.map((row) => ({
      id: row.id,
      deskId: row.desk_id,
      deskName: row.desk_name,
      roomName: row.room_name,
      departmentId: row.department_id,
      startTime: new Date(row.start_time),
      endTime: new Date(row.end_time),
      timeZone: row.time_zone,
    }));
  }

  /**
   * For each proposed (desk, start, end), in one statement: the first closed day it touches
   * (closure_on, docs/policies.md#closures-and-holidays), whether the desk is taken then and whether
   * the person already holds a reservation then (only those that exclude others: `onePerUser`).
   */
  async check(userId: string, proposals: { deskId: string; startTime: Date; endTime: Date }[], onePerUser: boolean): Promise<ProposalCheck[]> {
    if (proposals.length === 0) return [];
    const rows = await queryRows<{ i: number; closure_id: string | null; day: string | null; reason: string | null; desk_taken: boolean; user_busy: boolean }>(
      this.db,
      sql`select (o.i - 1)::int as i, c.closure_id, c.day::text as day, c.reason,
                 exists (select 1 from reservations r where r.desk_id = o.desk and r.start_time < o.e and r.end_time > o.s) as desk_taken,
                 (${onePerUser} and exists (select 1 from reservations r where r.user_id = ${userId} and r.user_exclusive and r.start_time < o.e and r.end_time > o.s)) as user_busy
            from unnest(${list(proposals.map((p) => p.deskId))}::uuid[], ${list(proposals.map((p) => p.startTime.toISOString()))}::timestamptz[],
                        ${list(proposals.map((p) => p.endTime.toISOString()))}::timestamptz[]) with ordinality as o(desk, s, e, i)
            left join lateral closure_on(o.desk, o.s, o.e) c on true
           order by o.i`,
    );
    return rows.map((row) => ({
      closure: row.closure_id ? { id: row.closure_id, date: row.day!, reason: row.reason! } : null,
      deskTaken: row.desk_taken,
      userBusy: row.user_busy,
    }));
  }

  /** Which of `ids` await an approver's decision (docs/policies.md#approvals). */
  async pending(ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await queryRows<{ id: string }>(
      this.db,
      sql`select reservation_id as id from reservation_approvals where reservation_id = any(${list(ids)}::uuid[]) and status = 'PENDING'`,
    );
    return new Set(rows.map((row) => row.id));
  }

  /**
   * The near-my-team ranking (docs/favourites.md#book-near-my-team) in one statement: the people of
   * the caller's teams (never the caller) with a reservation on the window's local day in each
   * office's zone, counted per room, per area of the caller's teams and per department; then every
   * free desk (flexible, in an available room, no reservation in the window, no closed day) near
   * any of them, ranked ROOM, AREA, DEPARTMENT, more teammates first, then by name; at most `limit`;
   * with how many teams the caller is in and the name of one. Only counts leave the statement, never who.
   */
  async nearTeam(
    userId: string,
    start: Date,
    end: Date,
    departmentId: string | undefined,
    limit: number,
  ): Promise<{ teamCount: number; teamName: string | null; desks: NearDeskRow[] }> {
    const startText = start.toISOString();
    const endText = end.toISOString();
    const rows = await queryRows<{
      desk_id: string;
      desk_name: string;
      room_id: string;
      room_name: string;
      department_id: string;
      nearness: 'ROOM' | 'AREA' | 'DEPARTMENT';
      teammates: number;
      place: string;
      floor: number;
      team_count: number;
      team_name: string | null;
    }>(
      this.db,
      sql`with my_teams as (
              select team_id from team_members where user_id = ${userId}
            ),
            mates as (
              select distinct tm.user_id from team_members tm join my_teams using (team_id) where tm.user_id <> ${userId}
            ),
            -- Each teammate's places that day: the local day of the window's start in the office's zone. A
            -- reservation starting more than two days before it is not counted (a user's lasts at most
            -- RESERVATION_MAX_LENGTH, 24 hours by default): the bound lets reservations_start_idx find them.
            present as (
              select distinct r.user_id, r.desk_id, d.room_id, ro.department_id
                from reservations r
                join mates m on m.user_id = r.user_id
                join desks d on d.id = r.desk_id
                join rooms ro on ro.id = d.room_id
                left join department_settings s on s.department_id = ro.department_id
               where r.start_time >= ${startText}::timestamptz - interval '2 days' and r.start_time < ${endText}::timestamptz + interval '1 day'
                 and r.end_time > ${startText}::timestamptz - interval '1 day'
                 -- Not where someone who hides their bookings or books anonymously sits (docs/people.md#a-persons-switches).
                 and not exists (select 1 from person_privacy pp where pp.user_id = r.user_id and (pp.hide_bookings or pp.book_anonymously))
                 and (r.start_time at time zone coalesce(s.time_zone, 'UTC'))::date <= (${startText}::timestamptz at time zone coalesce(s.time_zone, 'UTC'))::date
                 and ((r.end_time - interval '1 microsecond') at time zone coalesce(s.time_zone, 'UTC'))::date >= (${startText}::timestamptz at time zone coalesce(s.time_zone, 'UTC'))::date
                 ${departmentId === undefined ? sql`` : sql`and ro.department_id = ${departmentId}`}
            ),
            -- The areas of the caller's teams, with the desks each covers (docs/policies.md#areas).
            team_areas as (
              select distinct a.id, a.name, a.kind, a.department_id, a.room_id
                from policy_areas a join policy_area_teams pat on pat.area_id = a.id join my_teams using (team_id)
            ),
            area_desks as (
              select ta.id as area_id, ta.name as area_name, d.id as desk_id
                from team_areas ta
                join desks d on (ta.kind = 'DESKS' and exists (select 1 from policy_area_desks pad where pad.area_id = ta.id and pad.desk_id = d.id))
                             or (ta.kind = 'ROOM' and d.room_id = ta.room_id)
                             or (ta.kind = 'DEPARTMENT' and d.room_id in (select id from rooms where department_id = ta.department_id))
            ),
            by_room as (select room_id, count(distinct user_id)::int as n from present group by room_id),
            by_department as (select department_id, count(distinct user_id)::int as n from present group by department_id),
            by_area as (
              select ad.area_id, count(distinct p.user_id)::int as n from area_desks ad join present p on p.desk_id = ad.desk_id group by ad.area_id
            ),
            candidates as (
              select d.id as desk_id, d.name as desk_name, ro.id as room_id, ro.name as room_name, ro.department_id,
                     dep.location, dep.building, dep.floor,
                     coalesce(br.n, 0) as room_n, coalesce(bd.n, 0) as dep_n,
                     (select ad.area_name from area_desks ad left join by_area ba on ba.area_id = ad.area_id where ad.desk_id = d.id
                       order by coalesce(ba.n, 0) desc, lower(ad.area_name) limit 1) as area_name,
                     (select max(coalesce(ba.n, 0)) from area_desks ad left join by_area ba on ba.area_id = ad.area_id where ad.desk_id = d.id) as area_n
                from desks d
                join rooms ro on ro.id = d.room_id
                join departments dep on dep.id = ro.department_id
                left join by_room br on br.room_id = ro.id
                left join by_department bd on bd.department_id = ro.department_id
               where d.type <> 'FIXED' and ro.available
                 ${departmentId === undefined ? sql`` : sql`and ro.department_id = ${departmentId}`}
                 and (br.n is not null or bd.n is not null or d.id in (select desk_id from area_desks))
            )
          -- One row at least, carrying the caller's teams (how many, and the name of the only one): the
          -- answer's wording needs them, and a caller in no team gets them without a second statement.
          select (select count(*)::int from my_teams) as team_count,
                 (select t.name from my_teams mt join teams t on t.id = mt.team_id limit 1) as team_name,
                 ranked.*
            from (select 1) as one
            left join lateral (
          select row_number() over (order by case when c.room_n > 0 then 0 when c.area_name is not null then 1 else 2 end,
                                      case when c.room_n > 0 then c.room_n when c.area_name is not null then c.area_n else c.dep_n end desc,
                                      lower(c.room_name), lower(c.desk_name), c.desk_id) as rank,
                 c.desk_id, c.desk_name, c.room_id, c.room_name, c.department_id, c.floor,
                 case when c.room_n > 0 then 'ROOM' when c.area_name is not null then 'AREA' else 'DEPARTMENT' end as nearness,
                 case when c.room_n > 0 then c.room_n when c.area_name is not null then c.area_n else c.dep_n end as teammates,
                 case when c.room_n > 0 then c.room_name when c.area_name is not null then c.area_name else c.location || ' · ' || c.building end as place
            from candidates c
           -- Free: a desk's reservations never overlap, so the last one starting before the window's end
           -- decides, in one descent of reservations_desk_start_idx (docs/query-plans.md#room-search-post-apisearchrooms).
           where coalesce((select r.end_time from reservations r where r.desk_id = c.desk_id and r.start_time < ${endText}::timestamptz
                            order by r.start_time desc limit 1) <= ${startText}::timestamptz, true)
             and not exists (select 1 from closure_on(c.desk_id, ${startText}::timestamptz, ${endText}::timestamptz))
           order by case when c.room_n > 0 then 0 when c.area_name is not null then 1 else 2 end,
                    case when c.room_n > 0 then c.room_n when c.area_name is not null then c.area_n else c.dep_n end desc,
                    lower(c.room_name), lower(c.desk_name), c.desk_id
           limit ${limit}
            ) as ranked on true
           order by ranked.rank`,
    );
    const [first] = rows;
    return {
      teamCount: first?.team_count ?? 0,
      teamName: first?.team_name ?? null,
      desks: rows
        .filter((row) => row.desk_id !== null)
        .map((row) => ({
          deskId: row.desk_id,
          deskName: row.desk_name,
          roomId: row.room_id,
          roomName: row.room_name,
          departmentId: row.department_id,
          nearness: row.nearness,
          teammates: Number(row.teammates),
          place: row.place,
          floor: Number(row.floor),
        })),
    };
  }
}
