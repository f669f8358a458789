import { readFileSync } from 'node:fs';
import type { ConnectionOptions } from 'node:tls';
import { Client, InappropriateAuthError, InvalidCredentialsError, InvalidDNSyntaxError, NoSuchObjectError, ResultCodeError, type Entry } from 'ldapts';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import { AppError } from '../../shared/errors.js';
import type { DirectoryAuthenticator, DirectoryProfile, DirectoryResult } from './directory.js';

/** RFC 4515: a value inside a search filter. `*)(uid=*))(|(uid=*` stays a literal string. */
export function escapeFilterValue(value: string): string {
  return value.replace(/[\\*()\u0000]/g, (char) => `\\${char.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/** RFC 4514: a value inside a distinguished name. */
export function escapeDnValue(value: string): string {
  return value.replace(/[\\,+"<>;=\u0000]/g, (char) => (char === '\u0000' ? '\\00' : `\\${char}`)).replace(/^[ #]| $/g, (char) => `\\${char}`);
}

const REJECTED: DirectoryResult = { verdict: 'rejected' };
const PROFILE_ATTRIBUTES = ['mail', 'givenName', 'sn', 'cn'];

const all = (value: Entry[string] | undefined): string[] =>
  (value === undefined ? [] : Array.isArray(value) ? value : [value]).map((item) => (Buffer.isBuffer(item) ? item.toString('utf8') : String(item)));
const first = (value: Entry[string] | undefined): string | undefined => all(value)[0];

function profileOf(entry: Entry, fallbackEmail: string): DirectoryProfile {
  const cn = first(entry.cn)?.trim() ?? '';
  const [cnFirst = '', ...cnRest] = cn.split(/\s+/);
  return {
    mails: all(entry.mail)
      .map((mail) => mail.trim())
      .filter(Boolean),
    firstName: first(entry.givenName)?.trim() || cnFirst || fallbackEmail.split('@')[0]!,
    lastName: first(entry.sn)?.trim() || cnRest.join(' ') || '-',
  };
}

/**
 * Search-then-bind (or bind to a DN template) against an LDAP directory with ldapts. A wrong
 * password or an unknown user is 'rejected'; a directory that does not answer in time, or
 * refuses the search account, is a 503, never a sign-in.
 */
export class LdapDirectory implements DirectoryAuthenticator {
  private readonly tls: ConnectionOptions | undefined;

  constructor(
    private readonly config: Pick<
      Config,
      | 'LDAP_URL'
      | 'LDAP_BIND_DN'
      | 'LDAP_BIND_PASSWORD'
      | 'LDAP_USER_BASE'
      | 'LDAP_USER_FILTER'
      | 'LDAP_USER_DN_TEMPLATE'
      | 'LDAP_TIMEOUT'
      | 'LDAP_STARTTLS'
      | 'LDAP_TLS_CA_FILE'
      | 'LDAP_TLS_REJECT_UNAUTHORIZED'
      | 'LDAP_ADMIN_GROUP'
    >,
    private readonly log: FastifyBaseLogger,
  ) {
    const usesTls = config.LDAP_STARTTLS || config.LDAP_URL?.startsWith('ldaps:');
    this.tls = usesTls
      ? { rejectUnauthorized: config.LDAP_TLS_REJECT_UNAUTHORIZED, ...(config.LDAP_TLS_CA_FILE ? { ca: readFileSync(config.LDAP_TLS_CA_FILE) } : {}) }
      : undefined;
  }

  async verify(email: string, password: string): Promise<DirectoryResult> {
    // An empty password would be an anonymous ("unauthenticated") bind, which many servers accept.
    if (password.length === 0) return REJECTED;
    return this.config.LDAP_USER_DN_TEMPLATE ? this.bindByTemplate(email, password) : this.searchThenBind(email, password);
  }

  private async connect(): Promise<Client> {
    const client = new Client({
      url: this.config.LDAP_URL!,
      timeout: this.config.LDAP_TIMEOUT,
      connectTimeout: this.config.LDAP_TIMEOUT,
      tlsOptions: this.tls,
      strictDN: true,
    });
    if (this.config.LDAP_STARTTLS) await client.startTLS(this.tls);
    return client;
  }

  private async searchThenBind(email: string, password: string): Promise<DirectoryResult> {
    const service = await this.attempt(() => this.connect());
    let entry: Entry | undefined;
    let admin: boolean | undefined;
    try {
      entry = await this.attempt(async () => {
        if (this.config.LDAP_BIND_DN) await service.bind(this.config.LDAP_BIND_DN, this.config.LDAP_BIND_PASSWORD ?? '');
        const filter = this.config.LDAP_USER_FILTER.replaceAll('{email}', escapeFilterValue(email));
        const { searchEntries } = await service.search(this.config.LDAP_USER_BASE!, { scope: 'sub', filter, attributes: PROFILE_ATTRIBUTES, sizeLimit: 2 });
        // No entry, or an ambiguous filter: nobody signs in.
        return searchEntries.length === 1 ? searchEntries[0] : undefined;
      });
      if (entry) admin = await this.inAdminGroup(service, entry.dn);
    } finally {
      await service.unbind().catch(() => {});
    }
    if (!entry) return REJECTED;
    const accepted = await this.bindAsUser(entry.dn, password);
    return accepted ? { verdict: 'accepted', profile: { ...profileOf(entry, email), admin } } : REJECTED;
  }

  private async bindByTemplate(email: string, password: string): Promise<DirectoryResult> {
    const username = email.split('@')[0] ?? email;
    if (!username) return REJECTED;
    const dn = this.config.LDAP_USER_DN_TEMPLATE!.replaceAll('{email}', escapeDnValue(email)).replaceAll('{username}', escapeDnValue(username));
    const client = await this.attempt(() => this.connect());
    try {
      if (!(await this.userBind(client, dn, password))) return REJECTED;
      const entry = await this.attempt(async () => (await client.search(dn, { scope: 'base', attributes: PROFILE_ATTRIBUTES })).searchEntries[0]);
      const admin = await this.inAdminGroup(client, entry?.dn ?? dn);
      // An entry we may not read lists no addresses, so it cannot be linked to an account.
      return { verdict: 'accepted', profile: { ...(entry ? profileOf(entry, email) : { mails: [], firstName: username, lastName: '-' }), admin } };
    } finally {
      await client.unbind().catch(() => {});
    }
  }

  /**
   * LDAP_ADMIN_GROUP: whether `dn` is a `member` of that groupOfNames (docs/behaviour.md#ldap-groups).
   * A group that does not exist (or may not be read) has no members; that is logged.
   */
  private async inAdminGroup(client: Client, dn: string): Promise<boolean | undefined> {
    const group = this.config.LDAP_ADMIN_GROUP;
    if (!group) return undefined;
    try {
      const { searchEntries } = await client.search(group, { scope: 'base', filter: `(member=${escapeFilterValue(dn)})`, attributes: ['dn'] });
      return searchEntries.length > 0;
    } catch (error) {
      if (error instanceof NoSuchObjectError || error instanceof InvalidDNSyntaxError) {
        this.log.warn({ group }, 'LDAP_ADMIN_GROUP does not exist in the directory; nobody is an admin through it');
        return false;
      }
      throw this.unavailable(error);
    }
  }

  private async bindAsUser(dn: string, password: string): Promise<boolean> {
    const client = await this.attempt(() => this.connect());
    try {
      return await this.userBind(client, dn, password);
    } finally {
      await client.unbind().catch(() => {});
    }
  }

  /** The user's own bind: a refusal of the credentials is an answer, anything else is an outage. */
  private async userBind(client: Client, dn: string, password: string): Promise<boolean> {
    try {
      await client.bind(dn, password);
      return true;
    } catch (error) {
      const refused = [InvalidCredentialsError, NoSuchObjectError, InappropriateAuthError, InvalidDNSyntaxError].some((type) => error instanceof type);
      if (refused) return false;
      throw this.unavailable(error);
    }
  }

  private async attempt<T>(operation: () => Promise<T>): Promise<T> {
    try {
      return await operation();
    } catch (error) {
      throw this.unavailable(error);
    }
  }

  private unavailable(error: unknown): AppError {
    const code = error instanceof ResultCodeError ? `LDAP result ${error.code}` : (error as { code?: string }).code;
    this.log.warn({ err: error, code }, 'directory did not answer or refused the search account');
    return new AppError('SERVICE_UNAVAILABLE', 'The directory does not answer; try again later');
  }
}
