/**
 * The seam for directory (LDAP) sign-in, filled in by the LDAP module. A user whose `ldap` is
 * true signs in only through it, never with a local password.
 */
export type DirectoryVerdict = 'accepted' | 'rejected';

export interface DirectoryAuthenticator {
  /** Binds as the user; throws AppError SERVICE_UNAVAILABLE when the directory does not answer. */
  verify(email: string, password: string): Promise<DirectoryVerdict>;
}
