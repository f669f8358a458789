/**
 * The seam for directory (LDAP) sign-in. A user whose `ldap` is true signs in only through it,
 * never with a local password.
 */
export interface DirectoryProfile {
  /** Every `mail` value of the entry: the addresses it speaks for (a sign-in links by one of them). */
  mails: string[];
  firstName: string;
  lastName: string;
  /** With LDAP_ADMIN_GROUP: whether the entry is a member of that group (read at this sign-in); else undefined. */
  admin?: boolean;
  /**
   * Of the team groups asked about (`verify`'s `teamGroups`), the DNs, as asked, whose `member`s include
   * the entry (read at this sign-in; docs/policies.md#teams); undefined when none were asked about.
   */
  teamGroups?: string[];
}

export type DirectoryResult = { verdict: 'accepted'; profile: DirectoryProfile } | { verdict: 'rejected' };

export interface DirectoryAuthenticator {
  /** Binds as the user; throws AppError SERVICE_UNAVAILABLE when the directory does not answer. */
  verify(email: string, password: string, teamGroups?: string[]): Promise<DirectoryResult>;
}
