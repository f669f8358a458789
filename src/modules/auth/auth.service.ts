import type { Database } from '../../db/client.js';
import { AppError } from '../../shared/errors.js';
import type { Clock } from '../../shared/clock.js';
import type { FastifyBaseLogger } from 'fastify';
import { SessionsRepository } from '../sessions/sessions.repository.js';
import { UsersRepository, type UserRow } from '../users/users.repository.js';
import type { Caller } from '../../identity/caller.js';
import { syncRole } from '../../identity/roles.js';
import { issueTokens, openSession, type TokenPair } from '../../identity/sessions.js';
import type { DirectoryAuthenticator, DirectoryProfile } from './directory.js';
import { syncGroupMemberships, teamDirectoryGroups } from '../teams/teams.access.js';
import { verifyPassword } from '../../identity/password-hashing.js';
import type { LoginThrottle } from '../../identity/throttle.js';
import type { TokenService } from './tokens.js';

export interface AuthSettings {
  accessTokenTtlMs: number;
  refreshTokenTtlMs: number;
  /** LDAP_AUTO_CREATE: the first successful directory sign-in of an unknown e-mail creates the user. */
  autoCreateDirectoryUsers?: boolean;
  /** WEB_SESSION_IDLE_TTL: how long a browser's session (docs/sessions.md) lives without a refresh. */
  webSessionTtlMs?: number;
}

/** How a refresh treats its token: the token-pair API (strict) or the browser's cookie (docs/sessions.md). */
export interface RefreshMode {
  /** The session ends this long after the refresh unless refreshed again. */
  refreshTokenTtlMs: number;
  /** A token of the generation just before the current one, rotated at most this long ago, is answered the current pair instead of revoking. */
  graceMs: number;
}

export type { TokenPair };

export class AuthService {
  constructor(
    private readonly db: Database,
    private readonly tokens: TokenService,
    private readonly throttle: LoginThrottle,
    private readonly clock: Clock,
    private readonly settings: AuthSettings,
    private readonly directory?: DirectoryAuthenticator,
    private readonly log?: FastifyBaseLogger,
  ) {}

  /**
   * Signs in with e-mail and password. Unknown e-mail, wrong password, a disabled account and a
   * directory user without a configured directory all answer the same 401.
   */
  async login(input: { email: string; password: string; userAgent?: string; clientAddress: string }, mode?: RefreshMode): Promise<TokenPair> {
    const now = this.clock.now();
    await this.throttle.attemptFromAddress(input.clientAddress, now);
    await this.throttle.beforePasswordCheck(input.email, input.clientAddress, now);
    const user = await this.verifiedUser(input.email.trim(), input.password);
    if (!user?.enabled) {
      await this.throttle.passwordRefused(input.email, now);
      throw new AppError('INVALID_CREDENTIALS');
    }
    await this.throttle.passwordAccepted(input.email, input.clientAddress);
    const settings = mode ? { ...this.settings, refreshTokenTtlMs: mode.refreshTokenTtlMs } : this.settings;
    return openSession(this.db, this.tokens, settings, { userId: user.id, userAgent: input.userAgent, now });
  }

  /** The user whose credentials these are, or undefined; every refusal costs one password hash or one bind. */
  private async verifiedUser(email: string, password: string): Promise<UserRow | undefined> {
    const users = new UsersRepository(this.db);
    const user = await users.findByEmail(email);
    if (user && !user.ldap) return (await verifyPassword(user.passwordHash, password)) ? user : undefined;
    const useDirectory = this.directory !== undefined && (user !== undefined || this.settings.autoCreateDirectoryUsers);
    if (!useDirectory) {
      await verifyPassword(null, password); // same cost as a wrong password
      return undefined;
    }
    const address = user?.email ?? email;
    // Every team's directory group, asked about in the same sign-in (docs/policies.md#teams).
    const result = await this.directory!.verify(address, password, await teamDirectoryGroups(this.db));
    if (result.verdict === 'rejected') return undefined;
    // An entry speaks only for the addresses it lists: link by the address signed in with, never
    // by another value of the entry (its first `mail` may well be someone else's address).
    const listed = result.profile.mails.find((mail) => mail.toLowerCase() === address.toLowerCase());
    if (listed === undefined) return undefined;
    if (user) return this.withDirectoryGroups(user, result.profile);
    // First directory sign-in of someone unknown here: create the local USER (a racing twin finds it).
    const { profile } = result;
    const created = await users.insertIfAbsent(
      { email: listed, firstName: profile.firstName.slice(0, 200), lastName: profile.lastName.slice(0, 200), role: 'USER', enabled: true, ldap: true },
      this.clock.now(),
    );
    // A racing twin may have created it; an existing local (non-directory) account is never taken over.
    const existing = created ?? (await users.findByEmail(listed));
    return existing?.ldap ? this.withDirectoryGroups(existing, result.profile) : undefined;
  }

  /**
   * LDAP_ADMIN_GROUP: the role follows the group membership read at this sign-in (docs/behaviour.md#ldap-groups);
   * the LDAP memberships of teams follow their groups (docs/policies.md#teams).
   */
  private async withDirectoryGroups(user: UserRow, profile: DirectoryProfile): Promise<UserRow | undefined> {
    if (!user.enabled) return user;
    await syncGroupMemberships(this.db, user.id, 'LDAP', profile.teamGroups ?? [], this.clock.now());
    if (profile.admin === undefined || !this.log) return user;
    return syncRole(this.db, { userId: user.id, admin: profile.admin, source: 'ldap', now: this.clock.now() }, this.log);
  }

  /**
   * Trades a refresh token for a new pair. The session moves to the next generation atomically;
   * a token of an earlier generation is a replay (stolen or raced), so the session is revoked.
   * With a grace (the browser's cookie, docs/sessions.md#tabs-refreshing-at-once), the token of
   * the generation just before, rotated at most `graceMs` ago, is a tab that lost the race: it gets
   * the current pair and nothing is revoked.
   */
  async refresh(refreshToken: string, mode?: RefreshMode): Promise<TokenPair> {
    const claims = await this.tokens.verifyRefresh(refreshToken);
    if (!claims) throw new AppError('INVALID_REFRESH_TOKEN');
    const now = this.clock.now();
    const sessions = new SessionsRepository(this.db);
    const rotated = await sessions.rotate(
      claims.sessionId,
      claims.generation,
      now,
      new Date(now.getTime() + this.settings.accessTokenTtlMs),
      new Date(now.getTime() + (mode?.refreshTokenTtlMs ?? this.settings.refreshTokenTtlMs)),
    );
    if (rotated) return issueTokens(this.tokens, rotated);
    const current = await sessions.findById(claims.sessionId);
    const raced =
      mode !== undefined &&
      current !== undefined &&
      current.refreshGeneration === claims.generation + 1 &&
      current.refreshExpiresAt > now &&
      now.getTime() - current.modifiedAt.getTime() <= mode.graceMs;
    if (raced) return issueTokens(this.tokens, current);
    if (current && current.refreshGeneration > claims.generation) {
      await sessions.delete(current.id);
      throw new AppError('REFRESH_TOKEN_REUSED');
    }
    throw new AppError('INVALID_REFRESH_TOKEN');
  }

  async logout(sessionId: string): Promise<void> {
    await new SessionsRepository(this.db).delete(sessionId);
  }

  /** The browser's cookie mode of sign-in and refresh: WEB_SESSION_IDLE_TTL (at most REFRESH_TOKEN_TTL) and the grace for racing tabs. */
  webMode(graceMs: number): RefreshMode {
    return { refreshTokenTtlMs: Math.min(this.settings.webSessionTtlMs ?? this.settings.refreshTokenTtlMs, this.settings.refreshTokenTtlMs), graceMs };
  }

  /**
   * Signs the browser out with the refresh token of its cookie: the session it names ends (any
   * generation of its token will do; a forged or expired one ends nothing). Answers whether one ended.
   */
  async logoutWithRefreshToken(refreshToken: string | undefined): Promise<boolean> {
    const claims = refreshToken === undefined ? undefined : await this.tokens.verifyRefresh(refreshToken);
    if (!claims) return false;
    return new SessionsRepository(this.db).delete(claims.sessionId);
  }

  /** The caller of an access token, checked against its live session on every request. */
  async authenticate(accessToken: string): Promise<Caller> {
    const claims = await this.tokens.verifyAccess(accessToken);
    if (!claims) throw new AppError('INVALID_TOKEN');
    const found = await new SessionsRepository(this.db).findLiveWithUser(claims.sessionId, claims.userId, this.clock.now());
    if (!found) throw new AppError('INVALID_TOKEN');
    return { user: found.user, sessionId: found.sessionId };
  }
}
