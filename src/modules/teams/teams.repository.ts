import { and, asc, count, eq, getTableColumns, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { teamMembers, teams, users } from '../../db/schema.js';
import { orderByClauses, totalOfPage } from '../../db/paging.js';
import { offsetOf, type PageRequest } from '../../shared/paging.js';
import { containsPattern } from '../../shared/text.js';

export type TeamRow = typeof teams.$inferSelect;
export type TeamRole = (typeof teamMembers.$inferSelect)['role'];
export type TeamMemberSource = (typeof teamMembers.$inferSelect)['source'];
export type TeamValues = Pick<TeamRow, 'name' | 'description' | 'ldapGroup' | 'oidcGroup'>;
export type TeamWithCounts = TeamRow & { memberCount: number; managerCount: number };

export interface TeamMemberRow {
  userId: string;
  firstName: string;
  lastName: string;
  email: string;
  role: TeamRole;
  source: TeamMemberSource;
  createdAt: Date;
}

export const TEAM_SORTABLE = ['name', 'createdAt', 'id'] as const;
export const TEAM_MEMBER_SORTABLE = ['firstName', 'lastName', 'email', 'role', 'createdAt'] as const;

const memberCount = sql<number>`(select count(*) from ${teamMembers} where ${teamMembers.teamId} = ${teams.id})::int`.mapWith(Number);
const managerCount =
  sql<number>`(select count(*) from ${teamMembers} where ${teamMembers.teamId} = ${teams.id} and ${teamMembers.role} = 'MANAGER')::int`.mapWith(Number);

/** The teams module's SQL (docs/policies.md#teams): the one writer of `teams` and `team_members`. */
export class TeamsRepository {
  constructor(private readonly db: Database) {}

  async page(search: string | undefined, request: PageRequest): Promise<{ rows: TeamWithCounts[]; total: number }> {
    const where = search ? ilike(teams.name, containsPattern(search)) : undefined;
    const counting = this.db.select({ total: count() }).from(teams).where(where);
    const rows = await this.db
      .select({ ...getTableColumns(teams), memberCount, managerCount, total: sql<number>`${counting}::int`.mapWith(Number) })
      .from(teams)
      .where(where)
      .orderBy(...orderByClauses(request, { name: sql`lower(${teams.name})`, createdAt: teams.createdAt, id: teams.id }, [sql`lower(${teams.name})`], teams.id))
      .limit(request.size)
      .offset(offsetOf(request));
    const total = await totalOfPage(rows, request, async () => (await counting)[0]?.total ?? 0);
    return { rows: rows.map(({ total: _total, ...row }) => row), total };
  }

  async findById(id: string): Promise<TeamWithCounts | undefined> {
    const [row] = await this.db
      .select({ ...getTableColumns(teams), memberCount, managerCount })
      .from(teams)
      .where(eq(teams.id, id))
      .limit(1);
    return row;
  }

  /**
   * The team, in one statement, with the role of `userId` in it (null: not a member); undefined
   * when the team does not exist.
   */
  async findWithRole(id: string, userId: string): Promise<(TeamWithCounts & { callerRole: TeamRole | null }) | undefined> {
    const [row] = await this.db
      .select({
        ...getTableColumns(teams),
        memberCount,
        managerCount,
        callerRole: sql<TeamRole | null>`(select ${teamMembers.role} from ${teamMembers} where ${teamMembers.teamId} = ${teams.id} and ${teamMembers.userId} = ${userId})`,
      })
      .from(teams)
      .where(eq(teams.id, id))
      .limit(1);
    return row;
  }

  /** Serialises team creations until the transaction ends (the cap: docs/policies.md#managing-teams-srcmodulesteams). */
  async lockCreation(): Promise<void> {
    await this.db.execute(sql`select pg_advisory_xact_lock(hashtextextended('deskbook.teams.create', 0))`);
  }

  async count(): Promise<number> {
    const [row] = await this.db.select({ total: count() }).from(teams);
    return row?.total ?? 0;
  }

  async insert(values: TeamValues, now: Date): Promise<TeamRow> {
    const [row] = await this.db
      .insert(teams)
      .values({ ...values, createdAt: now, modifiedAt: now })
      .returning();
    return row!;
  }

  async update(id: string, values: Partial<TeamValues>, now: Date): Promise<boolean> {
    const rows = await this.db
      .update(teams)
      .set({ ...values, modifiedAt: now })
      .where(eq(teams.id, id))
      .returning({ id: teams.id });
    return rows.length > 0;
  }

  async delete(id: string): Promise<boolean> {
    const rows = await this.db.delete(teams).where(eq(teams.id, id)).returning({ id: teams.id });
    return rows.length > 0;
  }

  /**
   * A page of a team's members and their total, each row also carrying the role of `callerId` in
   * the team (so one statement answers and authorizes; an empty page answers `callerRole` undefined).
   */
  async members(
    teamId: string,
    callerId: string,
    search: string | undefined,
    request: PageRequest,
  ): Promise<{ rows: TeamMemberRow[]; total: number; callerRole: TeamRole | null | undefined }> {
    const conditions: SQL[] = [eq(teamMembers.teamId, teamId)];
    if (search) {
      const pattern = containsPattern(search);
      conditions.push(or(ilike(users.firstName, pattern), ilike(users.lastName, pattern), ilike(users.email, pattern))!);
    }
    const where = and(...conditions);
    const counting = this.db.select({ total: count() }).from(teamMembers).innerJoin(users, eq(users.id, teamMembers.userId)).where(where);
    const rows = await this.db
      .select({
        userId: teamMembers.userId,
        firstName: users.firstName,
        lastName: users.lastName,
        email: users.email,
        role: teamMembers.role,
        source: teamMembers.source,
        createdAt: teamMembers.createdAt,
        total: sql<number>`${counting}::int`.mapWith(Number),
        callerRole: sql<TeamRole | null>`(select r.role from ${teamMembers} r where r.team_id = ${teamId} and r.user_id = ${callerId})`,
      })
      .from(teamMembers)
      .innerJoin(users, eq(users.id, teamMembers.userId))
      .where(where)
      .orderBy(
        ...orderByClauses(
          request,
          { firstName: users.firstName, lastName: users.lastName, email: users.email, role: teamMembers.role, createdAt: teamMembers.createdAt },
          [sql`${teamMembers.role} desc`, sql`${users.lastName}`, sql`${users.firstName}`],
          teamMembers.userId,
        ),
      )
      .limit(request.size)
      .offset(offsetOf(request));
    const total = await totalOfPage(rows, request, async () => (await counting)[0]?.total ?? 0);
    return { rows: rows.map(({ total: _total, callerRole: _role, ...row }) => row), total, callerRole: rows[0]?.callerRole };
  }

  async memberRow(teamId: string, userId: string): Promise<TeamMemberRow | undefined> {
    const [row] = await this.db
      .select({
        userId: teamMembers.userId,
        firstName: users.firstName,
        lastName: users.lastName,
        email: users.email,
        role: teamMembers.role,
        source: teamMembers.source,
        createdAt: teamMembers.createdAt,
      })
      .from(teamMembers)
      .innerJoin(users, eq(users.id, teamMembers.userId))
      .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, userId)))
      .limit(1);
    return row;
  }

  async findMember(teamId: string, userId: string): Promise<{ role: TeamRole; source: TeamMemberSource } | undefined> {
    const [row] = await this.db
      .select({ role: teamMembers.role, source: teamMembers.source })
      .from(teamMembers)
      .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, userId)))
      .limit(1);
    return row;
  }

  /** Which of `ids` are users. */
  async existingUsers(ids: string[]): Promise<Set<string>> {
    const rows = await this.db.select({ id: users.id }).from(users).where(inArray(users.id, ids));
    return new Set(rows.map((row) => row.id));
  }

  /**
   * Adds people as ADMIN-made members. Someone already in the team keeps their role unless `role`
   * is given, and their membership becomes ADMIN-made (a sign-in no longer removes it).
   */
  async addMembers(teamId: string, userIds: string[], role: TeamRole | undefined, now: Date): Promise<void> {
    await this.db
      .insert(teamMembers)
      .values(userIds.map((userId) => ({ teamId, userId, role: role ?? 'MEMBER', source: 'ADMIN' as const, createdAt: now })))
      .onConflictDoUpdate({
        target: [teamMembers.teamId, teamMembers.userId],
        set: role === undefined ? { source: 'ADMIN' } : { source: 'ADMIN', role },
      });
  }

  /** A new role makes the membership ADMIN-made: a decision of an admin that a sign-in does not undo. */
  async setRole(teamId: string, userId: string, role: TeamRole): Promise<boolean> {
    const rows = await this.db
      .update(teamMembers)
      .set({ role, source: 'ADMIN' })
      .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, userId)))
      .returning({ userId: teamMembers.userId });
    return rows.length > 0;
  }

  async removeMember(teamId: string, userId: string): Promise<boolean> {
    const rows = await this.db
      .delete(teamMembers)
      .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, userId)))
      .returning({ userId: teamMembers.userId });
    return rows.length > 0;
  }

  async teamsOf(userId: string): Promise<(Pick<TeamRow, 'id' | 'name' | 'description'> & { role: TeamRole; source: TeamMemberSource })[]> {
    return this.db
      .select({ id: teams.id, name: teams.name, description: teams.description, role: teamMembers.role, source: teamMembers.source })
      .from(teamMembers)
      .innerJoin(teams, eq(teams.id, teamMembers.teamId))
      .where(eq(teamMembers.userId, userId))
      .orderBy(asc(sql`lower(${teams.name})`), asc(teams.id));
  }
}
