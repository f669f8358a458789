import { and, eq, gt, lt, sql } from 'drizzle-orm';
import { queryRows, type Database } from '../../db/client.js';
import { passwordTokens } from '../../db/schema.js';

import type { PasswordTokenPurpose } from '../../identity/credentials.js';
import type { PurgeJob } from '../../infrastructure/housekeeping/housekeeping.js';

export type { PasswordTokenPurpose };

export class PasswordTokensRepository {
  constructor(private readonly db: Database) {}

  /**
   * Stores a new token for the user, if `email` (where it is about to be mailed) is still their
   * address; the older one, if any, stops working (one row per user). The user row is read
   * FOR SHARE, so an address change in flight is waited for and then seen. Answers whether it was stored.
   */
  async replace(userId: string, email: string, tokenHash: string, purpose: PasswordTokenPurpose, now: Date, expiresAt: Date): Promise<boolean> {
    const rows = await queryRows<{ user_id: string }>(
      this.db,
      sql`insert into password_tokens (user_id, token_hash, purpose, created_at, expires_at)
          select id, ${tokenHash}, ${purpose}::password_token_purpose, ${now.toISOString()}::timestamptz, ${expiresAt.toISOString()}::timestamptz
          from users where id = ${userId} and email = ${email} for share
          on conflict (user_id) do update set token_hash = excluded.token_hash, purpose = excluded.purpose, created_at = excluded.created_at, expires_at = excluded.expires_at
          returning user_id`,
    );
    return rows.length > 0;
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

/** Housekeeping (src/infrastructure/housekeeping): expired password links. */
export const expiredPasswordTokensPurge: PurgeJob = { name: 'expired password links', purge: (db, now) => new PasswordTokensRepository(db).purgeExpired(now) };
