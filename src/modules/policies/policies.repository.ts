import { asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { queryRows } from '../../db/client.js';
import { policyAreaDesks, policyAreas, policyAreaTeams, policyRules, teams } from '../../db/schema.js';
import { APPROVAL_POSSIBLE } from '../approvals/approvals.repository.js';
import type { Area, DeskKind, Held, Limit, Person, Place, Rule, Scope, Who } from './policies.rules.js';

/**
 * SQL of the policies module (docs/policies.md). It is the one writer of the policy tables; it
 * reads `reservations`, `team_members` and the inventory, which other modules write. The booking
 * check reads everything one booking needs in one statement (`context`), then, for the counted
 * limits, takes its advisory locks and reads what the owner holds.
 */

export type RuleRow = typeof policyRules.$inferSelect;
export type AreaRow = typeof policyAreas.$inferSelect;

export const ruleOf = (
  row: Pick<
    RuleRow,
    'id' | 'name' | 'scope' | 'departmentId' | 'roomId' | 'areaId' | 'deskType' | 'who' | 'teamId' | 'role' | 'kind' | 'params' | 'appliesToAdmins'
  >,
): Rule => {
  const scope: Scope =
    row.scope === 'DEPARTMENT'
      ? { kind: 'DEPARTMENT', id: row.departmentId! }
      : row.scope === 'ROOM'
        ? { kind: 'ROOM', id: row.roomId! }
        : row.scope === 'AREA'
          ? { kind: 'AREA', id: row.areaId! }
          : row.scope === 'DESK_TYPE'
            ? { kind: 'DESK_TYPE', deskType: row.deskType! }
            : { kind: 'EVERYWHERE' };
  const who: Who = row.who === 'TEAM' ? { kind: 'TEAM', teamId: row.teamId! } : row.who === 'ROLE' ? { kind: 'ROLE', role: row.role! } : { kind: 'EVERYONE' };
  return { id: row.id, name: row.name, scope, who, limit: { ...(row.params as object), kind: row.kind } as Limit, appliesToAdmins: row.appliesToAdmins };
};

/** Everything one booking's check needs, or undefined when the desk does not exist. */
export interface BookingContext {
  place: Place;
  person: Person;
  rules: Rule[];
  areas: Area[];
  /** Whether an approval requirement could hold at the desk (APPROVAL_POSSIBLE): when not, the booking asks for none. */
  approvals: boolean;
}

interface ContextRow {
  role: 'USER' | 'ADMIN' | null;
  teams: { teamId: string; role: 'MEMBER' | 'MANAGER' }[];
  desk_type: DeskKind;
  room_id: string;
  department_id: string;
  zone: string;
  area_ids: string[];
  rules: (Omit<RuleRow, 'createdAt' | 'modifiedAt'> & Record<string, unknown>)[];
  areas: Area[];
  approvals: boolean;
}

/** The areas a desk lies in: its department's, its room's, and those naming it (SQL over the desk alias `d`; src/db/functions/policy_desk_areas.sql). */
const AREAS_OF_DESK = sql`policy_desk_areas(d.id)`;

export class PoliciesRepository {
  constructor(private readonly db: Database) {}

  /**
   * One statement: the owner's role and teams, the desk's place and office zone, the areas it lies
   * in (with their teams), and the rules whose scope could hold there (who is filtered in code).
   */
  async context(userId: string, deskId: string): Promise<BookingContext | undefined> {
    const [row] = await queryRows<ContextRow>(
      this.db,
      sql`with place as (
            select d.id, d.type, d.room_id, r.department_id, ${AREAS_OF_DESK} as area_ids, ${APPROVAL_POSSIBLE} as approvals,
                   coalesce((select s.time_zone from department_settings s where s.department_id = r.department_id), 'UTC') as zone
            from desks d join rooms r on r.id = d.room_id where d.id = ${deskId}
          )
          select (select u.role from users u where u.id = ${userId}) as role,
                 (select coalesce(json_agg(json_build_object('teamId', tm.team_id, 'role', tm.role)), '[]'::json)
                    from team_members tm where tm.user_id = ${userId}) as teams,
                 p.type as desk_type, p.room_id, p.department_id, p.zone, to_json(p.area_ids) as area_ids, p.approvals,
                 (select coalesce(json_agg(json_build_object(
                     'id', pr.id, 'name', pr.name, 'scope', pr.scope, 'departmentId', pr.department_id, 'roomId', pr.room_id,
                     'areaId', pr.area_id, 'deskType', pr.desk_type, 'who', pr.who, 'teamId', pr.team_id, 'role', pr.role,
                     'kind', pr.kind, 'params', pr.params, 'appliesToAdmins', pr.applies_to_admins)), '[]'::json)
                    from policy_rules pr
                   where pr.scope = 'EVERYWHERE' or pr.department_id = p.department_id or pr.room_id = p.room_id
                      or pr.area_id = any(p.area_ids) or pr.desk_type = p.type) as rules,
                 (select coalesce(json_agg(json_build_object(
                     'id', a.id, 'name', a.name, 'kind', a.kind, 'departmentId', a.department_id, 'roomId', a.room_id,
                     'weekdays', a.weekdays, 'exclusive', a.exclusive,
                     'teamIds', (select coalesce(json_agg(pat.team_id order by t.name), '[]'::json) from policy_area_teams pat join teams t on t.id = pat.team_id where pat.area_id = a.id),
                     'teamNames', (select coalesce(json_agg(t.name order by t.name), '[]'::json) from policy_area_teams pat join teams t on t.id = pat.team_id where pat.area_id = a.id))), '[]'::json)
                    from policy_areas a where a.id = any(p.area_ids)) as areas
          from place p`,
    );
    if (!row) return undefined;
    return {
      place: { deskId, deskType: row.desk_type, roomId: row.room_id, departmentId: row.department_id, areaIds: row.area_ids, zone: row.zone },
      person: { id: userId, admin: row.role === 'ADMIN', teams: new Map(row.teams.map((t) => [t.teamId, t.role])) },
      rules: row.rules.map((r) => ruleOf(r as unknown as RuleRow)),
      areas: row.areas,
      approvals: row.approvals,
    };
  }

  /**
   * What the owner holds (src/db/functions/policy_held.sql), after taking the transaction-scoped
   * advisory locks `lockKeys` (they work through PgBouncer in transaction mode) in one statement:
   * `person:<id>` for a person's counted limits, `capacity:<rule>:<date>` for a day's capacity;
   * none for a read that guards no write. Their reservations starting in [from, to) or not ended at
   * `now`, but `exceptId` (a move leaves its own out) and those this transaction wrote, with where
   * they are. At most 1000 (far above any limit).
   */
  async held(
    userId: string,
    from: Date,
    to: Date,
    now: Date,
    exceptId?: string,
    // The areas of each row only when an AREA-scoped rule counts, the rows not ended only when MAX_CONCURRENT does.
    needs: { notEnded: boolean; areas: boolean } = { notEnded: true, areas: true },
    lockKeys: string[] = [],
  ): Promise<Held[]> {
    const rows = await queryRows<{ start_time: Date; end_time: Date; desk_type: DeskKind; room_id: string; department_id: string; area_ids: string[] }>(
      this.db,
      sql`select start_time, end_time, desk_type, room_id, department_id, to_json(area_ids) as area_ids
          from policy_held(${toTextArray(lockKeys)}::text[], ${userId}::uuid, ${from.toISOString()}::timestamptz, ${to.toISOString()}::timestamptz,
                           ${now.toISOString()}::timestamptz, ${needs.notEnded}::boolean, ${exceptId ?? null}::uuid, ${needs.areas}::boolean)`,
    );
    return rows.map((row) => ({
      startTime: new Date(row.start_time),
      endTime: new Date(row.end_time),
      deskType: row.desk_type,
      roomId: row.room_id,
      departmentId: row.department_id,
      areaIds: row.area_ids,
    }));
  }

  /**
   * For one CAPACITY rule: per local day [from, to), the distinct desks of its scope with a
   * reservation that day other than `deskId` (the desk being booked counts once, as the request),
   * and how many desks its scope has.
   */
  async capacity(scope: Scope, days: { from: Date; to: Date }[], deskId: string, exceptId?: string): Promise<{ taken: number[]; desks: number }> {
    const where = scopeCondition(scope);
    const rows = await queryRows<{ i: number; taken: number; desks: number }>(
      this.db,
      sql`select day.i::int as i,
                 (select count(distinct res.desk_id)::int from reservations res join desks d on d.id = res.desk_id join rooms r on r.id = d.room_id
                   where tstzrange(res.start_time, res.end_time, '[)') && tstzrange(day.f, day.t, '[)') and res.desk_id <> ${deskId}
                     ${exceptId === undefined ? sql`` : sql`and res.id <> ${exceptId}`} and ${where}) as taken,
                 (select count(*)::int from desks d join rooms r on r.id = d.room_id where ${where}) as desks
          from unnest(${toTextArray(days.map((d) => d.from.toISOString()))}::timestamptz[], ${toTextArray(days.map((d) => d.to.toISOString()))}::timestamptz[])
               with ordinality as day(f, t, i)
          order by day.i`,
    );
    return { taken: rows.map((row) => row.taken), desks: rows[0]?.desks ?? 0 };
  }

  /** The owner, desk and start of a reservation (for the cancellation lead time). */
  async reservation(id: string): Promise<{ userId: string; deskId: string; startTime: Date; type: 'shared' | 'fixed' } | undefined> {
    const [row] = await queryRows<{ user_id: string; desk_id: string; start_time: Date; type: 'shared' | 'fixed' }>(
      this.db,
      sql`select user_id, desk_id, start_time, type from reservations where id = ${id}`,
    );
    return row && { userId: row.user_id, deskId: row.desk_id, startTime: new Date(row.start_time), type: row.type };
  }

  // --- administration ---------------------------------------------------------------------

  async lockAdministration(): Promise<void> {
    await this.db.execute(sql`select pg_advisory_xact_lock(hashtextextended('deskbook.policy.admin', 0))`);
  }

  async listRules(): Promise<RuleRow[]> {
    return this.db.select().from(policyRules).orderBy(asc(policyRules.kind), asc(policyRules.createdAt), asc(policyRules.id));
  }

  async findRule(id: string): Promise<RuleRow | undefined> {
    const [row] = await this.db.select().from(policyRules).where(eq(policyRules.id, id));
    return row;
  }

  async countRules(): Promise<number> {
    const [row] = await queryRows<{ n: number }>(this.db, sql`select count(*)::int as n from policy_rules`);
    return row!.n;
  }

  async insertRule(values: typeof policyRules.$inferInsert): Promise<RuleRow> {
    const [row] = await this.db.insert(policyRules).values(values).returning();
    return row!;
  }

  async updateRule(id: string, values: Partial<typeof policyRules.$inferInsert>): Promise<RuleRow | undefined> {
    const [row] = await this.db.update(policyRules).set(values).where(eq(policyRules.id, id)).returning();
    return row;
  }

  async deleteRule(id: string): Promise<boolean> {
    return (await this.db.delete(policyRules).where(eq(policyRules.id, id)).returning({ id: policyRules.id })).length > 0;
  }

  async listAreas(): Promise<(AreaRow & { teamIds: string[]; deskIds: string[] })[]> {
    const rows = await this.db
      .select()
      .from(policyAreas)
      .orderBy(asc(sql`lower(${policyAreas.name})`), asc(policyAreas.id));
    return this.withMembers(rows);
  }

  async findArea(id: string): Promise<(AreaRow & { teamIds: string[]; deskIds: string[] }) | undefined> {
    const rows = await this.db.select().from(policyAreas).where(eq(policyAreas.id, id));
    return (await this.withMembers(rows))[0];
  }

  async countAreas(): Promise<number> {
    const [row] = await queryRows<{ n: number }>(this.db, sql`select count(*)::int as n from policy_areas`);
    return row!.n;
  }

  private async withMembers(rows: AreaRow[]): Promise<(AreaRow & { teamIds: string[]; deskIds: string[] })[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((row) => row.id);
    const teamRows = await this.db
      .select({ areaId: policyAreaTeams.areaId, teamId: policyAreaTeams.teamId })
      .from(policyAreaTeams)
      .where(inArray(policyAreaTeams.areaId, ids));
    const deskRows = await this.db
      .select({ areaId: policyAreaDesks.areaId, deskId: policyAreaDesks.deskId })
      .from(policyAreaDesks)
      .where(inArray(policyAreaDesks.areaId, ids));
    return rows.map((row) => ({
      ...row,
      teamIds: teamRows.filter((t) => t.areaId === row.id).map((t) => t.teamId),
      deskIds: deskRows.filter((d) => d.areaId === row.id).map((d) => d.deskId),
    }));
  }

  async insertArea(values: typeof policyAreas.$inferInsert, teamIds: string[], deskIds: string[]): Promise<string> {
    const [row] = await this.db.insert(policyAreas).values(values).returning({ id: policyAreas.id });
    await this.setMembers(row!.id, teamIds, deskIds);
    return row!.id;
  }

  async updateArea(id: string, values: Partial<typeof policyAreas.$inferInsert>, teamIds: string[], deskIds: string[]): Promise<boolean> {
    const rows = await this.db.update(policyAreas).set(values).where(eq(policyAreas.id, id)).returning({ id: policyAreas.id });
    if (rows.length === 0) return false;
    await this.db.delete(policyAreaTeams).where(eq(policyAreaTeams.areaId, id));
    await this.db.delete(policyAreaDesks).where(eq(policyAreaDesks.areaId, id));
    await this.setMembers(id, teamIds, deskIds);
    return true;
  }

  private async setMembers(areaId: string, teamIds: string[], deskIds: string[]): Promise<void> {
    if (teamIds.length > 0) await this.db.insert(policyAreaTeams).values(teamIds.map((teamId) => ({ areaId, teamId })));
    if (deskIds.length > 0) await this.db.insert(policyAreaDesks).values(deskIds.map((deskId) => ({ areaId, deskId })));
  }

  async deleteArea(id: string): Promise<boolean> {
    return (await this.db.delete(policyAreas).where(eq(policyAreas.id, id)).returning({ id: policyAreas.id })).length > 0;
  }

  /** Which of `ids` exist in `table` (teams, desks, departments, rooms, areas): for 400s naming the field. */
  async existing(table: 'teams' | 'desks' | 'departments' | 'rooms' | 'policy_areas', ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await queryRows<{ id: string }>(this.db, sql`select id from ${sql.identifier(table)} where id = any(${toTextArray(ids)}::uuid[])`);
    return new Set(rows.map((row) => row.id));
  }

  async teamNames(ids: string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db.select({ id: teams.id, name: teams.name }).from(teams).where(inArray(teams.id, ids));
    return new Map(rows.map((row) => [row.id, row.name]));
  }

  /** The office's time zone of a department (UTC without settings), or undefined when there is no such department. */
  async zoneOf(departmentId: string): Promise<string | undefined> {
    const [row] = await queryRows<{ zone: string }>(
      this.db,
      sql`select coalesce(s.time_zone, 'UTC') as zone from departments d left join department_settings s on s.department_id = d.id where d.id = ${departmentId}`,
    );
    return row?.zone;
  }

  /** The person's teams (for the allowance and the preview). */
  async person(userId: string): Promise<Person | undefined> {
    const [row] = await queryRows<{ role: 'USER' | 'ADMIN'; teams: { teamId: string; role: 'MEMBER' | 'MANAGER' }[] }>(
      this.db,
      sql`select u.role, (select coalesce(json_agg(json_build_object('teamId', tm.team_id, 'role', tm.role)), '[]'::json)
                            from team_members tm where tm.user_id = u.id) as teams
          from users u where u.id = ${userId}`,
    );
    return row && { id: userId, admin: row.role === 'ADMIN', teams: new Map(row.teams.map((t) => [t.teamId, t.role])) };
  }

  /**
   * For the allowance, in one statement: the person's role and teams, every rule, and the
   * exclusive areas reserved for teams they are in none of (with the desks of set areas, for the map).
   */
  async allowanceContext(userId: string): Promise<{ person: Person; rules: Rule[]; closedAreas: ClosedArea[] } | undefined> {
    const [row] = await queryRows<{ role: 'USER' | 'ADMIN'; teams: { teamId: string; role: 'MEMBER' | 'MANAGER' }[]; rules: RuleRow[]; areas: ClosedArea[] }>(
      this.db,
      sql`select u.role,
                 (select coalesce(json_agg(json_build_object('teamId', tm.team_id, 'role', tm.role)), '[]'::json) from team_members tm where tm.user_id = u.id) as teams,
                 (select coalesce(json_agg(json_build_object(
                     'id', pr.id, 'name', pr.name, 'scope', pr.scope, 'departmentId', pr.department_id, 'roomId', pr.room_id,
                     'areaId', pr.area_id, 'deskType', pr.desk_type, 'who', pr.who, 'teamId', pr.team_id, 'role', pr.role,
                     'kind', pr.kind, 'params', pr.params, 'appliesToAdmins', pr.applies_to_admins)), '[]'::json) from policy_rules pr) as rules,
                 (select coalesce(json_agg(json_build_object(
                     'id', a.id, 'name', a.name, 'kind', a.kind, 'departmentId', a.department_id, 'roomId', a.room_id, 'weekdays', a.weekdays,
                     'teamNames', (select coalesce(json_agg(t.name order by t.name), '[]'::json) from policy_area_teams pat join teams t on t.id = pat.team_id where pat.area_id = a.id),
                     'deskIds', (select coalesce(json_agg(pad.desk_id), '[]'::json) from policy_area_desks pad where pad.area_id = a.id))
                   order by lower(a.name)), '[]'::json)
                    from policy_areas a
                   where a.exclusive and not exists (select 1 from policy_area_teams pat join team_members tm on tm.team_id = pat.team_id
                                                      where pat.area_id = a.id and tm.user_id = u.id)) as areas
          from users u where u.id = ${userId}`,
    );
    if (!row) return undefined;
    return {
      person: { id: userId, admin: row.role === 'ADMIN', teams: new Map(row.teams.map((t) => [t.teamId, t.role])) },
      rules: row.rules.map((r) => ruleOf(r)),
      closedAreas: row.areas,
    };
  }
}

export interface ClosedArea {
  id: string;
  name: string;
  kind: 'DEPARTMENT' | 'ROOM' | 'DESKS';
  departmentId: string | null;
  roomId: string | null;
  weekdays: number[];
  teamNames: string[];
  deskIds: string[];
}

/** A text[] literal parameter (postgres.js sends it as one text value). */
function toTextArray(values: string[]): string {
  return `{${values.map((value) => `"${value.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`).join(',')}}`;
}

/** The SQL condition of a scope over desk `d` and room `r`. */
export function scopeCondition(scope: Scope): SQL {
  switch (scope.kind) {
    case 'EVERYWHERE':
      return sql`true`;
    case 'DEPARTMENT':
      return sql`r.department_id = ${scope.id}`;
    case 'ROOM':
      return sql`d.room_id = ${scope.id}`;
    case 'AREA':
      return sql`${scope.id}::uuid = any(${AREAS_OF_DESK})`;
    case 'DESK_TYPE':
      return sql`d.type = ${scope.deskType}`;
  }
}
