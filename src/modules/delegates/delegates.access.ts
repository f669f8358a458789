import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { delegates } from '../../db/schema.js';

/** What other modules ask of delegations (docs/policies.md#booking-for-someone-else). */

/** Whether `userId` named `delegateId` their delegate. */
export async function isDelegateOf(db: Database, delegateId: string, userId: string): Promise<boolean> {
  const rows = await db
    .select({ userId: delegates.userId })
    .from(delegates)
    .where(and(eq(delegates.userId, userId), eq(delegates.delegateId, delegateId)))
    .limit(1);
  return rows.length > 0;
}

/** A subquery of the ids of the people who named `delegateId` their delegate, for a caller's statement to embed. */
export const grantorIdsQuery = (delegateId: string): SQL => sql`select user_id from delegates where delegate_id = ${delegateId}`;
