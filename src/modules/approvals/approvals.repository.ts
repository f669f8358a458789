import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Database } from '../../db/client.js';
import { totalOfPage } from '../../db/paging.js';
import { enqueue } from '../../infrastructure/outbox/outbox.js';
import { offsetOf, type PageRequest } from '../../shared/paging.js';

/**
 * SQL of approvals (docs/policies.md#approvals). This module is the one writer of
 * `approval_requirements` and `reservation_approvals`: the one writer of reservations calls
 * `requestApprovals` in its booking transaction; the trigger approval_calendar (src/db/functions)
 * keeps calendars in step.
 */

export type ApprovalScope = 'AREA' | 'DEPARTMENT' | 'ROOM' | 'DESK_TYPE';
export type AppliesTo = 'EVERYONE' | 'MEMBERS' | 'NON_MEMBERS';
export type ApprovalStatus = 'PENDING' | 'APPROVED' | 'REJECTED' | 'EXPIRED';

/** The outbox kind of the approvers' mail (approvals.mail.ts). */
export const APPROVAL_REQUEST_KIND = 'approval.request';
/** All of one approver's request rows share this topic, so they go out as one mail. */
const APPROVAL_TOPIC = 'approvals';

/** Who writes: a booking by someone who may decide it needs no approval. */
export interface Booker {
  id: string;
  admin: boolean;
}

export interface RequirementRow {
  id: string;
  scope: ApprovalScope;
  departmentId: string | null;
  roomId: string | null;
  areaId: string | null;
  deskType: 'FLEX' | 'FIXED' | null;
  appliesTo: AppliesTo;
  teamId: string | null;
  approverTeamId: string | null;
  createdAt: Date;
}

export interface ApprovalRow {
  reservationId: string;
  requirementId: string | null;
  userId: string;
  firstName: string;
  lastName: string;
  email: string;
  deskId: string | null;
  deskName: string | null;
  roomName: string | null;
  place: string | null;
  office: { location: string; building: string; floor: number } | null;
  timeZone: string;
  startTime: Date;
  endTime: Date;
  status: ApprovalStatus;
  requestedAt: Date;
  decidedBy: string | null;
  decidedAt: Date | null;
  note: string | null;
}

/**
 * The most specific requirement over reservation `r` on desk `d` in room `ro` that applies to its
 * owner (an area before a room before a department before a desk type, then the oldest), or null.
 * An area holds its desks: a whole department's, a room's, or those listed (policy_area_desks).
 */
/**
 * Requirement `q` holds on desk `d` whose department is `departmentId` (SQL): its room, department or
 * desk type, or its area's (the area's department, room or listed desks).
 */
const holdsOnDesk = (departmentId: SQL) => sql`(q.room_id = d.room_id or q.department_id = ${departmentId} or q.desk_type = d.type
    or (q.area_id is not null and (
        exists (select 1 from policy_areas pa where pa.id = q.area_id and (pa.department_id = ${departmentId} or pa.room_id = d.room_id))
        or exists (select 1 from policy_area_desks pad where pad.area_id = q.area_id and pad.desk_id = d.id))))`;

const requirementOf = sql`(select q.id from approval_requirements q
    where ${holdsOnDesk(sql`ro.department_id`)}
      and (q.applies_to = 'EVERYONE'
           or (q.applies_to = 'MEMBERS') = exists (select 1 from team_members m where m.team_id = q.team_id and m.user_id = r.user_id))
    order by case q.scope when 'AREA' then 0 when 'ROOM' then 1 when 'DEPARTMENT' then 2 else 3 end, q.created_at, q.id
    limit 1)`;

/**
 * Whether any approval requirement could hold on desk `d` in room `r` (SQL over those aliases),
 * whoever books: the booking check reads it with its context, and a booking where it is false asks
 * for no approval, sparing the booking transaction a statement (docs/policies.md#approvals).
 */
export const APPROVAL_POSSIBLE = sql`exists (select 1 from approval_requirements q where ${holdsOnDesk(sql`r.department_id`)})`;

/** `booker` may decide requests of requirement `q`: an admin, or a manager of its approver team. */
const decides = (booker: Booker, q: SQL) =>
  booker.admin
    ? sql`true`
    : sql`exists (select 1 from team_members m where m.team_id = ${q}.approver_team_id and m.user_id = ${booker.id} and m.role = 'MANAGER')`;

const idList = (ids: string[]) => sql`${`{${ids.join(',')}}`}::uuid[]`;

/**
 * Asks for approval of the reservations `ids` just written by `booker`, in the writing transaction
 * `tx` (docs/policies.md#approvals); the one writer of reservations calls it on every write path.
 * A reservation under a requirement, booked by someone who may not decide it, gets a PENDING row
 * and its approvers an outbox row. `moved`: the reservations existed (a move): a request whose
 * requirement no longer holds is dropped, one whose requirement changed is asked anew, the others
 * follow the reservation's new desk and times. With no requirement in force this is one statement
 * that writes nothing. Answers the ids now pending approval.
 */
export async function requestApprovals(tx: Database, ids: string[], booker: Booker, now: Date, moved = false): Promise<string[]> {
  if (ids.length === 0) return [];
  const target = sql`select r.id, r.user_id, r.desk_id, r.start_time, r.end_time, ${requirementOf} as requirement_id
      from reservations r join desks d on d.id = r.desk_id join rooms ro on ro.id = d.room_id
      where r.id = any(${idList(ids)})`;
  if (moved) {
    await tx.execute(sql`with t as (${target})
      delete from reservation_approvals a using t
      where a.reservation_id = t.id and a.status = 'PENDING' and t.requirement_id is null`);
    await tx.execute(sql`with t as (${target})
      update reservation_approvals a set desk_id = t.desk_id, start_time = t.start_time, end_time = t.end_time
      from t where a.reservation_id = t.id and t.requirement_id is not null`);
  }
  const rows = await queryRows<{ reservation_id: string; requirement_id: string }>(
    tx,
    sql`with t as (${target})
      insert into reservation_approvals (reservation_id, requirement_id, user_id, desk_id, start_time, end_time, status, requested_at)
      select t.id, t.requirement_id, t.user_id, t.desk_id, t.start_time, t.end_time, 'PENDING', ${now.toISOString()}::timestamptz
      from t join approval_requirements q on q.id = t.requirement_id
      where not ${decides(booker, sql`q`)}
      ${
        moved
          ? sql`on conflict (reservation_id) do update set requirement_id = excluded.requirement_id, status = 'PENDING',
              requested_at = excluded.requested_at, decided_by = null, decided_at = null, note = null
              where reservation_approvals.requirement_id is distinct from excluded.requirement_id`
          : sql`on conflict (reservation_id) do nothing`
      }
      returning reservation_id, requirement_id`,
  );
  if (rows.length === 0) return [];
  // Each approver gets one outbox row per request; the rows of one approver share a topic, so they
  // leave as one mail (approvals.mail.ts).
  const approvers = await queryRows<{ id: string; reservation_id: string }>(
    tx,
    sql`select distinct u.id, a.reservation_id from unnest(${idList(rows.map((row) => row.reservation_id))}) as a(reservation_id)
        join reservation_approvals ra on ra.reservation_id = a.reservation_id
        join users u on u.enabled and (u.role = 'ADMIN' or exists (
          select 1 from approval_requirements q join team_members m on m.team_id = q.approver_team_id
          where q.id = ra.requirement_id and m.user_id = u.id and m.role = 'MANAGER'))`,
  );
  await enqueue(
    tx,
    approvers.map((approver) => ({
      kind: APPROVAL_REQUEST_KIND,
      groupKey: approver.id,
      topic: APPROVAL_TOPIC,
      payload: { reservationId: approver.reservation_id },
    })),
  );
  return rows.map((row) => row.reservation_id);
}

interface RawRequirement {
  id: string;
  scope: ApprovalScope;
  department_id: string | null;
  room_id: string | null;
  area_id: string | null;
  desk_type: 'FLEX' | 'FIXED' | null;
  applies_to: AppliesTo;
  team_id: string | null;
  approver_team_id: string | null;
  created_at: string | Date;
  total?: number;
}

const toRequirement = (raw: RawRequirement): RequirementRow => ({
  id: raw.id,
  scope: raw.scope,
  departmentId: raw.department_id,
  roomId: raw.room_id,
  areaId: raw.area_id,
  deskType: raw.desk_type,
  appliesTo: raw.applies_to,
  teamId: raw.team_id,
  approverTeamId: raw.approver_team_id,
  createdAt: new Date(raw.created_at),
});

interface RawApproval {
  reservation_id: string;
  requirement_id: string | null;
  user_id: string;
  first_name: string;
  last_name: string;
  email: string;
  desk_id: string | null;
  desk_name: string | null;
  room_name: string | null;
  place: string | null;
  location: string | null;
  building: string | null;
  floor: number | null;
  time_zone: string;
  start_time: string | Date;
  end_time: string | Date;
  status: ApprovalStatus;
  requested_at: string | Date;
  decided_by: string | null;
  decided_at: string | Date | null;
  note: string | null;
  total?: number;
}

const toApproval = (raw: RawApproval): ApprovalRow => ({
  reservationId: raw.reservation_id,
  requirementId: raw.requirement_id,
  userId: raw.user_id,
  firstName: raw.first_name,
  lastName: raw.last_name,
  email: raw.email,
  deskId: raw.desk_id,
  deskName: raw.desk_name,
  roomName: raw.room_name,
  place: raw.place,
  office: raw.location === null || raw.building === null || raw.floor === null ? null : { location: raw.location, building: raw.building, floor: raw.floor },
  timeZone: raw.time_zone,
  startTime: new Date(raw.start_time),
  endTime: new Date(raw.end_time),
  status: raw.status,
  requestedAt: new Date(raw.requested_at),
  decidedBy: raw.decided_by,
  decidedAt: raw.decided_at === null ? null : new Date(raw.decided_at),
  note: raw.note,
});

const APPROVAL_COLUMNS = sql`a.reservation_id, a.requirement_id, a.user_id, u.first_name, u.last_name, u.email, a.desk_id, d.name as desk_name,
  ro.name as room_name, concat_ws(' · ', dep.location, dep.building, 'Floor ' || dep.floor) as place, dep.location, dep.building, dep.floor, coalesce(s.time_zone, 'UTC') as time_zone,
  a.start_time, a.end_time, a.status, a.requested_at, a.decided_by, a.decided_at, a.note`;

const APPROVAL_JOINS = sql`join users u on u.id = a.user_id
  left join desks d on d.id = a.desk_id left join rooms ro on ro.id = d.room_id left join departments dep on dep.id = ro.department_id
  left join department_settings s on s.department_id = dep.id`;

/** Who may read or decide approval `a`: an admin all, a team manager those of their team's requirements. */
const decidable = (caller: Booker): SQL =>
  caller.admin
    ? sql`true`
    : sql`exists (select 1 from approval_requirements q join team_members m on m.team_id = q.approver_team_id
                  where q.id = a.requirement_id and m.user_id = ${caller.id} and m.role = 'MANAGER')`;

export class ApprovalsRepository {
  constructor(private readonly db: Database) {}

  async requirements(request: PageRequest): Promise<{ rows: RequirementRow[]; total: number }> {
    const raws = await queryRows<RawRequirement>(
      this.db,
      sql`select q.*, count(*) over ()::int as total from approval_requirements q order by q.created_at, q.id limit ${request.size} offset ${offsetOf(request)}`,
    );
    const total = await totalOfPage(
      raws.map((raw) => ({ total: Number(raw.total) })),
      request,
      async () => (await queryRows<{ n: number }>(this.db, sql`select count(*)::int as n from approval_requirements`))[0]?.n ?? 0,
    );
    return { rows: raws.map(toRequirement), total };
  }

  async requirement(id: string): Promise<RequirementRow | undefined> {
    const [raw] = await queryRows<RawRequirement>(this.db, sql`select * from approval_requirements where id = ${id}`);
    return raw ? toRequirement(raw) : undefined;
  }

  async exists(table: 'departments' | 'rooms' | 'teams' | 'policy_areas', id: string): Promise<boolean> {
    const rows = await queryRows<{ one: number }>(this.db, sql`select 1 as one from ${sql.identifier(table)} where id = ${id}`);
    return rows.length > 0;
  }

  async insertRequirement(values: Omit<RequirementRow, 'id' | 'createdAt'>, createdBy: string, now: Date): Promise<RequirementRow> {
    const [raw] = await queryRows<RawRequirement>(
      this.db,
      sql`insert into approval_requirements (scope, department_id, room_id, area_id, desk_type, applies_to, team_id, approver_team_id, created_by, created_at)
          values (${values.scope}, ${values.departmentId}, ${values.roomId}, ${values.areaId}, ${values.deskType}::desk_type,
                  ${values.appliesTo}::approval_applies_to, ${values.teamId}, ${values.approverTeamId}, ${createdBy}, ${now.toISOString()}::timestamptz)
          returning *`,
    );
    return toRequirement(raw!);
  }

  async deleteRequirement(id: string): Promise<boolean> {
    return (await queryRows<{ id: string }>(this.db, sql`delete from approval_requirements where id = ${id} returning id`)).length > 0;
  }

  /**
   * A page of the requests `caller` may decide (`decider`) or of their own (`owner`), pending ones
   * only while their reservation exists; in start order (requested order for decided ones).
   */
  async page(filter: { decider?: Booker; ownerId?: string; status?: ApprovalStatus }, request: PageRequest): Promise<{ rows: ApprovalRow[]; total: number }> {
    const conditions: SQL[] = [sql`(a.status <> 'PENDING' or exists (select 1 from reservations r where r.id = a.reservation_id))`];
    if (filter.decider) conditions.push(decidable(filter.decider));
    if (filter.ownerId !== undefined) conditions.push(sql`a.user_id = ${filter.ownerId}`);
    if (filter.status !== undefined) conditions.push(sql`a.status = ${filter.status}::approval_status`);
    const where = sql.join(conditions, sql` and `);
    const order = filter.status === 'PENDING' ? sql`a.start_time, a.reservation_id` : sql`a.requested_at desc, a.reservation_id`;
    const raws = await queryRows<RawApproval>(
      this.db,
      sql`select ${APPROVAL_COLUMNS}, count(*) over ()::int as total from reservation_approvals a ${APPROVAL_JOINS}
          where ${where} order by ${order} limit ${request.size} offset ${offsetOf(request)}`,
    );
    const total = await totalOfPage(
      raws.map((raw) => ({ total: Number(raw.total) })),
      request,
      async () => (await queryRows<{ n: number }>(this.db, sql`select count(*)::int as n from reservation_approvals a where ${where}`))[0]?.n ?? 0,
    );
    return { rows: raws.map(toApproval), total };
  }

  /** The approval of reservation `id` when `caller` may see it (its owner, an admin, one who may decide it). */
  async visible(id: string, caller: Booker): Promise<(ApprovalRow & { mayDecide: boolean }) | undefined> {
    const [raw] = await queryRows<RawApproval & { may_decide: boolean }>(
      this.db,
      sql`select ${APPROVAL_COLUMNS}, ${decidable(caller)} as may_decide from reservation_approvals a ${APPROVAL_JOINS}
          where a.reservation_id = ${id} and (a.user_id = ${caller.id} or ${decidable(caller)})`,
    );
    return raw ? { ...toApproval(raw), mayDecide: raw.may_decide } : undefined;
  }

  /**
   * Decides a pending request in one statement, inside the deciding transaction: only a pending
   * one whose reservation exists, and only for one who may decide it; of two approvers at once,
   * one updates the row and the other finds it decided. Answers the row decided, or undefined.
   */
  async decide(id: string, caller: Booker, status: 'APPROVED' | 'REJECTED', note: string | null, now: Date): Promise<ApprovalRow | undefined> {
    const [raw] = await queryRows<RawApproval>(
      this.db,
      sql`with a as (
            update reservation_approvals a set status = ${status}::approval_status, decided_by = ${caller.id}, decided_at = ${now.toISOString()}::timestamptz, note = ${note}
            where a.reservation_id = ${id} and a.status = 'PENDING' and ${decidable(caller)}
              and exists (select 1 from reservations r where r.id = a.reservation_id)
            returning a.*)
          select ${APPROVAL_COLUMNS} from a ${APPROVAL_JOINS}`,
    );
    return raw ? toApproval(raw) : undefined;
  }

  /**
   * Claims up to `limit` pending requests whose reservation has started (at `now`), FOR UPDATE SKIP
   * LOCKED so that processes share the work and never expire one twice, and marks them EXPIRED.
   */
  async expireDue(now: Date, limit: number): Promise<ApprovalRow[]> {
    const raws = await queryRows<RawApproval>(
      this.db,
      sql`with due as (
            select a.reservation_id from reservation_approvals a join reservations r on r.id = a.reservation_id
            where a.status = 'PENDING' and r.start_time <= ${now.toISOString()}::timestamptz
            order by r.start_time limit ${limit} for update of a skip locked),
          a as (
            update reservation_approvals a set status = 'EXPIRED', decided_at = ${now.toISOString()}::timestamptz
            from due where a.reservation_id = due.reservation_id returning a.*)
          select ${APPROVAL_COLUMNS} from a ${APPROVAL_JOINS}`,
    );
    return raws.map(toApproval);
  }

  /** Pending requests whose reservation is gone (its owner cancelled it, its desk was deleted): nothing is left to decide. */
  async dropWithdrawn(): Promise<number> {
    const rows = await queryRows<{ id: string }>(
      this.db,
      sql`delete from reservation_approvals a where a.status = 'PENDING' and not exists (select 1 from reservations r where r.id = a.reservation_id)
          returning a.reservation_id as id`,
    );
    return rows.length;
  }

  /** The approver's name and address, and how many requests they may decide are pending now (with the first few). */
  async approverDigest(userId: string, limit: number): Promise<{ email: string; firstName: string; pending: ApprovalRow[]; count: number } | undefined> {
    const [user] = await queryRows<{ email: string; first_name: string; role: string; enabled: boolean }>(
      this.db,
      sql`select email, first_name, role, enabled from users where id = ${userId}`,
    );
    if (!user || !user.enabled) return undefined;
    const { rows, total } = await this.page({ decider: { id: userId, admin: user.role === 'ADMIN' }, status: 'PENDING' }, { page: 0, size: limit, orders: [] });
    return { email: user.email, firstName: user.first_name, pending: rows, count: total };
  }
}
