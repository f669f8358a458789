import type { users } from '../db/schema.js';

/** Who is calling: the signed-in user and the session their access token belongs to (docs/behaviour.md#authentication-and-sessions). */
export interface Caller {
  user: typeof users.$inferSelect;
  sessionId: string;
}

/** Said in the description of each operation marked `allowedBeforePasswordChange`. */
export const OPEN_BEFORE_PASSWORD_CHANGE = 'Open to a caller who must still replace a generated password (admins then see and end their own sessions only).';

/**
 * Whether the caller acts as an admin. Not while they must replace a generated password: the few
 * operations open to them then (their sessions) cover their own things only.
 */
export const isAdmin = (caller: Caller): boolean => caller.user.role === 'ADMIN' && !caller.user.mustChangePassword;

/** Turns an access token into its caller (AuthService does; the authenticate plugin needs no more of it). */
export interface Authenticator {
  authenticate(accessToken: string, withStatsChanges: boolean): Promise<{ caller: Caller; statsChanges?: bigint }>;
}
