import type { Database } from '../db/client.js';
import { sessions } from '../db/schema.js';

type SessionRow = typeof sessions.$inferSelect;

/** What signs the tokens (modules/auth/tokens.ts TokenService). */
export interface TokenSigner {
  signAccess(claims: { userId: string; sessionId: string }, expiresAt: Date): Promise<string>;
  signRefresh(claims: { sessionId: string; generation: number }, expiresAt: Date): Promise<string>;
}

/** The answer of every sign-in (password, directory, single sign-on) and of a refresh. */
export interface TokenPair {
  accessToken: string;
  refreshToken: string;
  tokenType: 'Bearer';
  expiresAt: Date;
  refreshExpiresAt: Date;
  sessionId: string;
  userId: string;
}

export interface SessionSettings {
  accessTokenTtlMs: number;
  refreshTokenTtlMs: number;
}

const USER_AGENT_MAX = 512;

/**
 * Opens a session for a user who has just proven who they are and answers its token pair: the one
 * way every kind of sign-in creates a session (docs/behaviour.md#authentication-and-sessions).
 */
export async function openSession(
  db: Database,
  tokens: TokenSigner,
  settings: SessionSettings,
  input: { userId: string; userAgent?: string; now: Date },
): Promise<TokenPair> {
  const { now } = input;
  const [session] = await db
    .insert(sessions)
    .values({
      userId: input.userId,
      userAgent: input.userAgent ? input.userAgent.replaceAll('\u0000', '').slice(0, USER_AGENT_MAX) : null,
      createdAt: now,
      modifiedAt: now,
      expiresAt: new Date(now.getTime() + settings.accessTokenTtlMs),
      refreshExpiresAt: new Date(now.getTime() + settings.refreshTokenTtlMs),
    })
    .returning();
  return issueTokens(tokens, session!);
}

/** The token pair of a session as it stands (its current refresh generation). */
export async function issueTokens(tokens: TokenSigner, session: SessionRow): Promise<TokenPair> {
  const [accessToken, refreshToken] = await Promise.all([
    tokens.signAccess({ userId: session.userId, sessionId: session.id }, session.expiresAt),
    tokens.signRefresh({ sessionId: session.id, generation: session.refreshGeneration }, session.refreshExpiresAt),
  ]);
  return {
    accessToken,
    refreshToken,
    tokenType: 'Bearer',
    expiresAt: session.expiresAt,
    refreshExpiresAt: session.refreshExpiresAt,
    sessionId: session.id,
    userId: session.userId,
  };
}
