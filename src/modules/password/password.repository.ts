import { and, eq, gt, lt } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { passwordTokens } from '../../db/schema.js';

export type PasswordTokenPurpose = (typeof passwordTokens.$inferSelect)['purpose'];

export class PasswordTokensRepository {
  constructor(private readonly db: Database) {}

  /** Stores a new token for the user; the older one, if any, stops working (one row per user). */
  async replace(userId: string, tokenHash: string, purpose: PasswordTokenPurpose, now: Date, expiresAt: Date): Promise<void> {
    const values = { tokenHash, purpose, createdAt: now, expiresAt };
    await this.db
      .insert(passwordTokens)
      .values({ userId, ...values })
      .onConflictDoUpdate({ target: passwordTokens.userId, set: values });
  }

  /** A password set another way makes an outstanding link useless. */
  async deleteForUser(userId: string): Promise<void> {
    await this.db.delete(passwordTokens).where(eq(passwordTokens.userId, userId));
  }

  /** Consumes a live token (atomically: of two concurrent uses, one gets the user id). */
  async consume(tokenHash: string, now: Date): Promise<string | undefined> {
    const [row] = await this.db
      .delete(passwordTokens)
      .where(and(eq(passwordTokens.tokenHash, tokenHash), gt(passwordTokens.expiresAt, now)))
      .returning({ userId: passwordTokens.userId });
    return row?.userId;
  }

  async purgeExpired(now: Date): Promise<void> {
    await this.db.delete(passwordTokens).where(lt(passwordTokens.expiresAt, now));
  }
}
