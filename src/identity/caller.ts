import { users } from '../db/schema.js';

/**
 * What a request knows of its signed-in user: the columns routes use (who, which role, the
 * profile GET /api/self answers, read routing's last write) and never the password hash, which
 * only the code that checks a password reads, from the database (docs/architecture.md#layers).
 */
export const callerColumns = {
  id: users.id,
  email: users.email,
  firstName: users.firstName,
  lastName: users.lastName,
  role: users.role,
  enabled: users.enabled,
  ldap: users.ldap,
  hasAvatar: users.hasAvatar,
  mustChangePassword: users.mustChangePassword,
  lastWriteLsn: users.lastWriteLsn,
};

export type CallerUser = Pick<typeof users.$inferSelect, keyof typeof callerColumns>;

/** Who is calling: the signed-in user and the session their access token belongs to (docs/behaviour.md#authentication-and-sessions). */
export interface Caller {
  user: CallerUser;
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
  authenticate(accessToken: string): Promise<Caller>;
}
