import { and, count, eq, ne, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/client.js';
import { users } from '../db/schema.js';

type UserRow = typeof users.$inferSelect;

/** Lock key serialising changes that could leave the service without an enabled admin ("admins"). */
export const ADMIN_LOCK_KEY = 0x61646d696e73n;

/**
 * Makes a user ADMIN or USER as their identity provider or directory says, at each sign-in
 * (docs/behaviour.md#roles-from-the-provider-or-the-directory). The last enabled admin is never
 * demoted: the change is skipped and logged. Serialised with every other admin change (the same
 * transaction-scoped advisory lock as modules/users).
 */
export async function syncRole(
  db: Database,
  input: { userId: string; admin: boolean; source: 'oidc' | 'ldap'; now: Date },
  log: FastifyBaseLogger,
): Promise<UserRow | undefined> {
  const wanted = input.admin ? 'ADMIN' : 'USER';
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${ADMIN_LOCK_KEY.toString()}::bigint)`);
    const [user] = await tx.select().from(users).where(eq(users.id, input.userId)).limit(1);
    if (!user || user.role === wanted) return user;
    if (wanted === 'USER' && user.enabled) {
      const [others] = await tx
        .select({ total: count() })
        .from(users)
        .where(and(eq(users.role, 'ADMIN'), eq(users.enabled, true), ne(users.id, user.id)));
      if ((others?.total ?? 0) === 0) {
        log.warn(
          { userId: user.id, source: input.source },
          'the last enabled admin is no longer an admin at the identity provider or directory; kept as ADMIN (make another user an admin first)',
        );
        return user;
      }
    }
    log.info({ userId: user.id, source: input.source, role: wanted }, 'role changed from the identity provider or directory');
    const [updated] = await tx.update(users).set({ role: wanted, modifiedAt: input.now }).where(eq(users.id, user.id)).returning();
    return updated;
  });
}
