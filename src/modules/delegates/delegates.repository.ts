import { and, asc, count, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { delegates, users } from '../../db/schema.js';

export interface DelegateRow {
  userId: string;
  firstName: string;
  lastName: string;
  email: string;
  createdAt: Date;
}

/** The one writer of `delegates` (docs/policies.md#booking-for-someone-else). */
export class DelegatesRepository {
  constructor(private readonly db: Database) {}

  /** The people `userId` named, by name. */
  async delegatesOf(userId: string): Promise<DelegateRow[]> {
    return this.db
      .select({ userId: delegates.delegateId, firstName: users.firstName, lastName: users.lastName, email: users.email, createdAt: delegates.createdAt })
      .from(delegates)
      .innerJoin(users, eq(users.id, delegates.delegateId))
      .where(eq(delegates.userId, userId))
      .orderBy(asc(users.lastName), asc(users.firstName), asc(users.id));
  }

  /**
   * Names `delegateId` a delegate of `userId` unless they hold `max` already; answers 'added',
   * 'exists' or 'full'. Serialised per person by locking their user row, so two requests at once
   * cannot together pass the cap.
   */
  async add(userId: string, delegateId: string, max: number, now: Date): Promise<'added' | 'exists' | 'full'> {
    return this.db.transaction(async (tx) => {
      await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
      const [held] = await tx.select({ total: count() }).from(delegates).where(eq(delegates.userId, userId));
      const [existing] = await tx
        .select({ userId: delegates.userId })
        .from(delegates)
        .where(and(eq(delegates.userId, userId), eq(delegates.delegateId, delegateId)));
      if (existing) return 'exists';
      if ((held?.total ?? 0) >= max) return 'full';
      await tx.insert(delegates).values({ userId, delegateId, createdAt: now });
      return 'added';
    });
  }

  async remove(userId: string, delegateId: string): Promise<boolean> {
    const rows = await this.db
      .delete(delegates)
      .where(and(eq(delegates.userId, userId), eq(delegates.delegateId, delegateId)))
      .returning({ userId: delegates.userId });
    return rows.length > 0;
  }

  async userExists(id: string): Promise<boolean> {
    const rows = await this.db.select({ id: users.id }).from(users).where(eq(users.id, id)).limit(1);
    return rows.length > 0;
  }
}
