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

  async verify(email: string, password: string, teamGroups: string[] = []): Promise<DirectoryResult> {
    // An empty password would be an anonymous ("unauthenticated") bind, which many servers accept.
    if (password.length === 0) return REJECTED;
    return this.config.LDAP_USER_DN_TEMPLATE ? this.bindByTemplate(email, password, teamGroups) : this.searchThenBind(email, password, teamGroups);
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

  private async searchThenBind(email: string, password: string, teamGroups: string[]): Promise<DirectoryResult> {
    const service = await this.attempt(() => this.connect());
    let entry: Entry | undefined;
    let admin: boolean | undefined;
    let teams: string[] | undefined;
    try {
      entry = await this.attempt(async () => {
        if (this.config.LDAP_BIND_DN) await service.bind(this.config.LDAP_BIND_DN, this.config.LDAP_BIND_PASSWORD ?? '');
        const filter = this.config.LDAP_USER_FILTER.replaceAll('{email}', escapeFilterValue(email));
        const { searchEntries } = await service.search(this.config.LDAP_USER_BASE!, { scope: 'sub', filter, attributes: PROFILE_ATTRIBUTES, sizeLimit: 2 });
        // No entry, or an ambiguous filter: nobody signs in.
        return searchEntries.length === 1 ? searchEntries[0] : undefined;
      });
      if (entry) {
        admin = await this.inAdminGroup(service, entry.dn);
        teams = await this.inTeamGroups(service, entry.dn, teamGroups);
      }
    } finally {
      await service.unbind().catch(() => {});
    }
    if (!entry) return REJECTED;
    const accepted = await this.bindAsUser(entry.dn, password);
    return accepted ? { verdict: 'accepted', profile: { ...profileOf(entry, email), admin, teamGroups: teams } } : REJECTED;
  }

  private async bindByTemplate(email: string, password: string, teamGroups: string[]): Promise<DirectoryResult> {
    const username = email.split('@')[0] ?? email;
    if (!username) return REJECTED;
    const dn = this.config.LDAP_USER_DN_TEMPLATE!.replaceAll('{email}', escapeDnValue(email)).replaceAll('{username}', escapeDnValue(username));
    const client = await this.attempt(() => this.connect());
    try {
      if (!(await this.userBind(client, dn, password))) return REJECTED;
      const entry = await this.attempt(async () => (await client.search(dn, { scope: 'base', attributes: PROFILE_ATTRIBUTES })).searchEntries[0]);
      const admin = await this.inAdminGroup(client, entry?.dn ?? dn);
      const teams = await this.inTeamGroups(client, entry?.dn ?? dn, teamGroups);
      // An entry we may not read lists no addresses, so it cannot be linked to an account.
      return {
        verdict: 'accepted',
        profile: { ...(entry ? profileOf(entry, email) : { mails: [], firstName: username, lastName: '-' }), admin, teamGroups: teams },
      };
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

  /**
   * The team groups (DNs of groupOfNames) `dn` is a `member` of (docs/policies.md#teams), read with
   * the same bind as LDAP_ADMIN_GROUP, in one search per directory subtree rather than one per team:
   * the base is the groups' nearest common ancestor, the filter asks for the member and the groups'
   * own RDNs, and the entries found are matched to the DNs asked (ignoring case). A base that does
   * not exist holds no groups (logged). Undefined when no group is asked about.
   */
  private async inTeamGroups(client: Client, dn: string, groups: string[]): Promise<string[] | undefined> {
    if (groups.length === 0) return undefined;
    const wanted = new Map(groups.map((group) => [normalizeDn(group), group]));
    const found: string[] = [];
    for (const { base, rdns } of groupSearches(groups)) {
      const filter = `(&(member=${escapeFilterValue(dn)})(|${rdns.map(([attribute, value]) => `(${attribute}=${escapeFilterValue(value)})`).join('')}))`;
      try {
        const { searchEntries } = await client.search(base, { scope: 'sub', filter, attributes: ['dn'] });
        for (const entry of searchEntries) {
          const group = wanted.get(normalizeDn(entry.dn));
          if (group !== undefined) found.push(group);
        }
      } catch (error) {
        if (error instanceof NoSuchObjectError || error instanceof InvalidDNSyntaxError) {
          this.log.warn({ base }, 'the directory has no entry where team groups are named; nobody is a member through them');
          continue;
        }
        throw this.unavailable(error);
      }
    }
    return found;
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

/** The RDNs of a DN, split at unescaped commas, each as [attribute, value] with DN escapes undone. */
export function parseDn(dn: string): [string, string][] {
  const parts: string[] = [];
  let current = '';
  for (let i = 0; i < dn.length; i++) {
    const char = dn[i]!;
    if (char === '\\' && i + 1 < dn.length) {
      current += char + dn[i + 1]!;
      i++;
    } else if (char === ',') {
      parts.push(current);
      current = '';
    } else current += char;
  }
  parts.push(current);
  return parts.map((part) => {
    const at = part.indexOf('=');
    const attribute = part.slice(0, at).trim();
    const raw = part.slice(at + 1).trim();
    const value = raw.replace(/\\([0-9a-fA-F]{2}|.)/g, (_, escaped: string) => (escaped.length === 2 ? String.fromCharCode(parseInt(escaped, 16)) : escaped));
    return [attribute, value];
  });
}

/** A DN in one spelling for comparison: RDNs parsed, attributes and values in lower case. */
export const normalizeDn = (dn: string): string =>
  parseDn(dn)
    .map(([attribute, value]) => `${attribute.toLowerCase()}=${value.toLowerCase()}`)
    .join(',');

/**
 * The searches that find which of `groups` hold a member: groups are put together by their root
 * (the last RDN); each set is searched from its nearest common ancestor, asking for the groups' own
 * first RDNs.
 */
export function groupSearches(groups: string[]): { base: string; rdns: [string, string][] }[] {
  const byRoot = new Map<string, [string, string][][]>();
  for (const group of groups) {
    const rdns = parseDn(group);
    if (rdns.length === 0 || rdns.some(([attribute]) => attribute === '')) continue;
    const root = normalizeDn(group).split(',').at(-1)!;
    byRoot.set(root, [...(byRoot.get(root) ?? []), rdns]);
  }
  return [...byRoot.values()].map((sets) => {
    // The longest common suffix of RDNs (compared ignoring case), never the groups themselves.
    const shortest = Math.min(...sets.map((rdns) => rdns.length - 1));
    let common = 0;
    while (
      common < shortest &&
      sets.every((rdns) => {
        const [a, b] = [rdns[rdns.length - 1 - common]!, sets[0]![sets[0]!.length - 1 - common]!];
        return a[0].toLowerCase() === b[0].toLowerCase() && a[1].toLowerCase() === b[1].toLowerCase();
      })
    ) {
      common++;
    }
    const first = sets[0]!;
    const base = first
      .slice(first.length - common)
      .map(([attribute, value]) => `${attribute}=${escapeDnValue(value)}`)
      .join(',');
    const seen = new Set<string>();
    const rdns = sets
      .map((rdns) => rdns[0]!)
      .filter(([attribute, value]) => {
        const key = `${attribute.toLowerCase()}=${value.toLowerCase()}`;
        return seen.has(key) ? false : (seen.add(key), true);
      });
    return { base, rdns };
  });
}
