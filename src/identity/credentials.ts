import { and, eq, ne } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { passwordTokens, sessions } from '../db/schema.js';

export type PasswordTokenPurpose = (typeof passwordTokens.$inferSelect)['purpose'];

/** What a user can present besides a password: their sessions and their pending password link. */
export class CredentialsRepository {
  constructor(private readonly db: Database) {}

  /** Ends every session of a user, optionally keeping one (the caller's own). */
  async deleteSessions(userId: string, keepSessionId?: string): Promise<void> {
    const condition = keepSessionId === undefined ? eq(sessions.userId, userId) : and(eq(sessions.userId, userId), ne(sessions.id, keepSessionId));
    await this.db.delete(sessions).where(condition);
  }

  /** A password set another way makes an outstanding link useless. Answers the link that was deleted, if any. */
  async deletePasswordLink(userId: string): Promise<{ purpose: PasswordTokenPurpose; expiresAt: Date } | undefined> {
    const [row] = await this.db
      .delete(passwordTokens)
      .where(eq(passwordTokens.userId, userId))
      .returning({ purpose: passwordTokens.purpose, expiresAt: passwordTokens.expiresAt });
    return row;
  }
}

/**
 * Revokes what a user holds besides their password: every session (but `keepSessionId`, the
 * caller's current one when they change their own password) and the pending password link. Run
 * it in the transaction that changes the password, disables the user or moves them to the
 * directory (docs/behaviour.md#users).
 */
export async function revokeCredentials(db: Database, userId: string, keepSessionId?: string): Promise<void> {
  const credentials = new CredentialsRepository(db);
  await credentials.deleteSessions(userId, keepSessionId);
  await credentials.deletePasswordLink(userId);
}
