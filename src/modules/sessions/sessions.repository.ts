import { and, count, eq, gt, lt, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { sessions, users } from '../../db/schema.js';
import { offsetOf, orderByClauses, type PageRequest } from '../../shared/paging.js';
import { statsChangeCount } from '../stats/stats.repository.js';

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
/** Runs on every authenticated request: built once per database and kept prepared. */
const liveSessionQuery = (db: Database) =>
  db
    .select({ session: sessions, user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(isLive)
    .limit(1)
    .prepare('live_session_with_user');
/** The same for GET /api/stats, with the statistics change count: one round trip instead of two. */
const liveSessionAndStatsQuery = (db: Database) =>
  db
    .select({ session: sessions, user: users, statsChanges: statsChangeCount })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(isLive)
    .limit(1)
    .prepare('live_session_with_user_and_stats_changes');
const liveSessionQueries = new WeakMap<Database, ReturnType<typeof liveSessionQuery>>();
const liveSessionAndStatsQueries = new WeakMap<Database, ReturnType<typeof liveSessionAndStatsQuery>>();

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

  /** The live session of an access token with its user, in one indexed lookup. */
  async findLiveWithUser(sessionId: string, userId: string, now: Date): Promise<{ session: SessionRow; user: UserRow } | undefined> {
    let query = liveSessionQueries.get(this.db);
    if (!query) liveSessionQueries.set(this.db, (query = liveSessionQuery(this.db)));
    const [row] = await query.execute({ sessionId, userId, now: now.toISOString() });
    return row;
  }

  /** The same, with the statistics change count read in the same statement. */
  async findLiveWithUserAndStatsChanges(
    sessionId: string,
    userId: string,
    now: Date,
  ): Promise<{ session: SessionRow; user: UserRow; statsChanges: string | null } | undefined> {
    let query = liveSessionAndStatsQueries.get(this.db);
    if (!query) liveSessionAndStatsQueries.set(this.db, (query = liveSessionAndStatsQuery(this.db)));
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

  /** Live sessions, optionally of one user, paged. */
  async page(filter: { userId?: string; now: Date }, request: PageRequest): Promise<{ rows: SessionRow[]; total: number }> {
    const conditions: SQL[] = [gt(sessions.refreshExpiresAt, filter.now)];
    if (filter.userId !== undefined) conditions.push(eq(sessions.userId, filter.userId));
    const where = and(...conditions);
    const [rows, totals] = await Promise.all([
      this.db
        .select()
        .from(sessions)
        .where(where)
        .orderBy(...orderByClauses(request, sortColumns, [sql`${sessions.createdAt} desc`], sessions.id))
        .limit(request.size)
        .offset(offsetOf(request)),
      this.db.select({ total: count() }).from(sessions).where(where),
    ]);
    return { rows, total: totals[0]?.total ?? 0 };
  }
}
