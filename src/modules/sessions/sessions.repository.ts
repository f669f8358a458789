import { and, count, eq, getTableColumns, gt, lt, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { sessions, users } from '../../db/schema.js';
import { columnsAs, fromDriver, orderByClauses, pageUnderParent, totalOfPage } from '../../db/paging.js';
import { offsetOf, type PageRequest } from '../../shared/paging.js';
import { callerColumns, type CallerUser } from '../../identity/caller.js';
import type { PurgeJob } from '../../infrastructure/housekeeping/housekeeping.js';

export type SessionRow = typeof sessions.$inferSelect;
export type UserRow = typeof users.$inferSelect;

export const SESSION_SORTABLE = ['id', 'createdAt', 'modifiedAt', 'expiresAt', 'refreshExpiresAt', 'userAgent', 'userId'] as const;

const sortColumns = {
  id: sessions.id,
  createdAt: sessions.createdAt,
  modifiedAt: sessions.modifiedAt,
  expiresAt: sessions.expiresAt,
  refreshExpiresAt: sessions.refreshExpiresAt,
  userAgent: sessions.userAgent,
  userId: sessions.userId,
};

export interface NewSession {
  userId: string;
  userAgent: string | null;
  now: Date;
  expiresAt: Date;
  refreshExpiresAt: Date;
}

const isLive = and(
  eq(sessions.id, sql.placeholder('sessionId')),
  eq(sessions.userId, sql.placeholder('userId')),
  gt(sessions.refreshExpiresAt, sql`${sql.placeholder('now')}::timestamptz`),
  eq(users.enabled, true),
);
/** Runs on every authenticated request: built once per database and kept prepared. Reads the caller's columns only (never the password hash). */
const liveSessionQuery = (db: Database) =>
  db
    .select({ sessionId: sessions.id, user: callerColumns })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(isLive)
    .limit(1)
    .prepare('live_session_with_user');
const liveSessionQueries = new WeakMap<Database, ReturnType<typeof liveSessionQuery>>();

export class SessionsRepository {
  constructor(private readonly db: Database) {}

  async create(input: NewSession): Promise<SessionRow> {
    const [row] = await this.db
      .insert(sessions)
      .values({
        userId: input.userId,
        userAgent: input.userAgent,
        createdAt: input.now,
        modifiedAt: input.now,
        expiresAt: input.expiresAt,
        refreshExpiresAt: input.refreshExpiresAt,
      })
      .returning();
    return row!;
  }

  /** The live session of an access token with its user (the caller's columns), in one indexed lookup. */
  async findLiveWithUser(sessionId: string, userId: string, now: Date): Promise<{ sessionId: string; user: CallerUser } | undefined> {
    let query = liveSessionQueries.get(this.db);
    if (!query) liveSessionQueries.set(this.db, (query = liveSessionQuery(this.db)));
    const [row] = await query.execute({ sessionId, userId, now: now.toISOString() });
    return row;
  }

  async findById(sessionId: string): Promise<SessionRow | undefined> {
    const [row] = await this.db.select().from(sessions).where(eq(sessions.id, sessionId)).limit(1);
    return row;
  }

  /**
   * Moves a session to the next refresh generation if, and only if, it is still at `generation`:
   * of any number of concurrent refreshes with one token, exactly one matches this row.
   */
  async rotate(sessionId: string, generation: number, now: Date, expiresAt: Date, refreshExpiresAt: Date): Promise<SessionRow | undefined> {
    const [row] = await this.db
      .update(sessions)
      .set({ refreshGeneration: generation + 1, modifiedAt: now, expiresAt, refreshExpiresAt })
      .where(and(eq(sessions.id, sessionId), eq(sessions.refreshGeneration, generation), gt(sessions.refreshExpiresAt, now)))
      .returning();
    return row;
  }

  async delete(sessionId: string): Promise<boolean> {
    const rows = await this.db.delete(sessions).where(eq(sessions.id, sessionId)).returning({ id: sessions.id });
    return rows.length > 0;
  }

  async purgeExpired(now: Date): Promise<void> {
    await this.db.delete(sessions).where(lt(sessions.refreshExpiresAt, now));
  }

  /**
   * Live sessions, optionally of one user, paged: one statement, each row carrying the total as
   * an uncorrelated subquery; only a page past the end counts apart.
   */
  async page(filter: { userId?: string; now: Date }, request: PageRequest): Promise<{ rows: SessionRow[]; total: number }> {
    const where = this.liveOf(filter);
    const counting = this.db.select({ total: count() }).from(sessions).where(where);
    const rows = await this.db
      .select({ ...getTableColumns(sessions), total: sql<number>`${counting}::int`.mapWith(Number) })
      .from(sessions)
      .where(where)
      .orderBy(...orderByClauses(request, sortColumns, [sql`${sessions.createdAt} desc`], sessions.id))
      .limit(request.size)
      .offset(offsetOf(request));
    const total = await totalOfPage(rows, request, async () => (await counting)[0]?.total ?? 0);
    return { rows: rows.map(({ total: _total, ...row }) => row), total };
  }

  /** The live sessions of one user and their total; undefined when there is no such user. One statement. */
  async pageOfUser(userId: string, now: Date, request: PageRequest): Promise<{ rows: SessionRow[]; total: number } | undefined> {
    const columns = getTableColumns(sessions);
    const where = this.liveOf({ userId, now });
    const found = await pageUnderParent<Record<string, unknown>>(this.db, {
      parent: sql`select 1 from users where users.id = ${userId}`,
      page: sql`select ${columnsAs(columns)} from sessions where ${where}
                order by ${sql.join(orderByClauses(request, sortColumns, [sql`${sessions.createdAt} desc`], sessions.id), sql`, `)}
                limit ${request.size} offset ${offsetOf(request)}`,
      total: sql`select count(*) from sessions where ${where}`,
    });
    return found && { rows: found.rows.map((row) => fromDriver<SessionRow>(columns, row)), total: found.total };
  }

  private liveOf(filter: { userId?: string; now: Date }): SQL {
    const conditions: SQL[] = [gt(sessions.refreshExpiresAt, filter.now)];
    if (filter.userId !== undefined) conditions.push(eq(sessions.userId, filter.userId));
    return and(...conditions)!;
  }
}

/** Housekeeping (src/infrastructure/housekeeping): sessions whose refresh token has expired. */
export const expiredSessionsPurge: PurgeJob = { name: 'expired sessions', purge: (db, now) => new SessionsRepository(db).purgeExpired(now) };
