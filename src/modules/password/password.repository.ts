import { and, eq, gt, lt } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { passwordTokens } from '../../db/schema.js';

export type PasswordTokenPurpose = (typeof passwordTokens.$inferSelect)['purpose'];

export class PasswordTokensRepository {
  constructor(private readonly db: Database) {}

  /** Stores a new token for the user; every older one of that user stops working. */
  async replace(userId: string, tokenHash: string, purpose: PasswordTokenPurpose, now: Date, expiresAt: Date): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.delete(passwordTokens).where(eq(passwordTokens.userId, userId));
      await tx.insert(passwordTokens).values({ userId, tokenHash, purpose, createdAt: now, expiresAt });
    });
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
