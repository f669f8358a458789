import type { Database } from '../../db/client.js';
import { AppError } from '../../shared/errors.js';
import type { Clock } from '../../shared/clock.js';
import { SessionsRepository, type SessionRow } from '../sessions/sessions.repository.js';
import { UsersRepository, type UserRow } from '../users/users.repository.js';
import type { Caller } from '../../identity/caller.js';
import type { DirectoryAuthenticator } from './directory.js';
import { verifyPassword } from '../../identity/password-hashing.js';
import type { LoginThrottle } from '../../identity/throttle.js';
import type { TokenService } from './tokens.js';

export interface TokenPair {
  accessToken: string;
  refreshToken: string;
  tokenType: 'Bearer';
  expiresAt: Date;
  refreshExpiresAt: Date;
  sessionId: string;
  userId: string;
}

export interface AuthSettings {
  accessTokenTtlMs: number;
  refreshTokenTtlMs: number;
  /** LDAP_AUTO_CREATE: the first successful directory sign-in of an unknown e-mail creates the user. */
  autoCreateDirectoryUsers?: boolean;
}

const USER_AGENT_MAX = 512;

export class AuthService {
  constructor(
    private readonly db: Database,
    private readonly tokens: TokenService,
    private readonly throttle: LoginThrottle,
    private readonly clock: Clock,
    private readonly settings: AuthSettings,
    private readonly directory?: DirectoryAuthenticator,
  ) {}

  /**
   * Signs in with e-mail and password. Unknown e-mail, wrong password, a disabled account and a
   * directory user without a configured directory all answer the same 401.
   */
  async login(input: { email: string; password: string; userAgent?: string; clientAddress: string }): Promise<TokenPair> {
    const now = this.clock.now();
    await this.throttle.attemptFromAddress(input.clientAddress, now);
    await this.throttle.beforePasswordCheck(input.email, input.clientAddress, now);
    const user = await this.verifiedUser(input.email.trim(), input.password);
    if (!user?.enabled) {
      await this.throttle.passwordRefused(input.email, now);
      throw new AppError('INVALID_CREDENTIALS');
    }
    await this.throttle.passwordAccepted(input.email, input.clientAddress);
    const session = await new SessionsRepository(this.db).create({
      userId: user.id,
      userAgent: input.userAgent ? input.userAgent.replaceAll('\u0000', '').slice(0, USER_AGENT_MAX) : null,
      now,
      expiresAt: new Date(now.getTime() + this.settings.accessTokenTtlMs),
      refreshExpiresAt: new Date(now.getTime() + this.settings.refreshTokenTtlMs),
    });
    return this.issue(session);
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
    const result = await this.directory!.verify(address, password);
    if (result.verdict === 'rejected') return undefined;
    // An entry speaks only for the addresses it lists: link by the address signed in with, never
    // by another value of the entry (its first `mail` may well be someone else's address).
    const listed = result.profile.mails.find((mail) => mail.toLowerCase() === address.toLowerCase());
    if (listed === undefined) return undefined;
    if (user) return user;
    // First directory sign-in of someone unknown here: create the local USER (a racing twin finds it).
    const { profile } = result;
    const created = await users.insertIfAbsent(
      { email: listed, firstName: profile.firstName.slice(0, 200), lastName: profile.lastName.slice(0, 200), role: 'USER', enabled: true, ldap: true },
      this.clock.now(),
    );
    // A racing twin may have created it; an existing local (non-directory) account is never taken over.
    const existing = created ?? (await users.findByEmail(listed));
    return existing?.ldap ? existing : undefined;
  }

  /**
   * Trades a refresh token for a new pair. The session moves to the next generation atomically;
   * a token of an earlier generation is a replay (stolen or raced), so the session is revoked.
   */
  async refresh(refreshToken: string): Promise<TokenPair> {
    const claims = await this.tokens.verifyRefresh(refreshToken);
    if (!claims) throw new AppError('INVALID_REFRESH_TOKEN');
    const now = this.clock.now();
    const sessions = new SessionsRepository(this.db);
    const rotated = await sessions.rotate(
      claims.sessionId,
      claims.generation,
      now,
      new Date(now.getTime() + this.settings.accessTokenTtlMs),
      new Date(now.getTime() + this.settings.refreshTokenTtlMs),
    );
    if (rotated) return this.issue(rotated);
    const current = await sessions.findById(claims.sessionId);
    if (current && current.refreshGeneration > claims.generation) {
      await sessions.delete(current.id);
      throw new AppError('REFRESH_TOKEN_REUSED');
    }
    throw new AppError('INVALID_REFRESH_TOKEN');
  }

  async logout(sessionId: string): Promise<void> {
    await new SessionsRepository(this.db).delete(sessionId);
  }

  /**
   * The caller of an access token, checked against its live session on every request;
   * `withStatsChanges`: also the statistics change count, read in the same statement.
   */
  async authenticate(accessToken: string, withStatsChanges = false): Promise<{ caller: Caller; statsChanges?: bigint }> {
    const claims = await this.tokens.verifyAccess(accessToken);
    if (!claims) throw new AppError('INVALID_TOKEN');
    const repository = new SessionsRepository(this.db);
    const now = this.clock.now();
    if (withStatsChanges) {
      const found = await repository.findLiveWithUserAndStatsChanges(claims.sessionId, claims.userId, now);
      if (!found) throw new AppError('INVALID_TOKEN');
      return { caller: { user: found.user, sessionId: found.session.id }, statsChanges: BigInt(found.statsChanges ?? '0') };
    }
    const found = await repository.findLiveWithUser(claims.sessionId, claims.userId, now);
    if (!found) throw new AppError('INVALID_TOKEN');
    return { caller: { user: found.user, sessionId: found.session.id } };
  }

  private async issue(session: SessionRow): Promise<TokenPair> {
    const [accessToken, refreshToken] = await Promise.all([
      this.tokens.signAccess({ userId: session.userId, sessionId: session.id }, session.expiresAt),
      this.tokens.signRefresh({ sessionId: session.id, generation: session.refreshGeneration }, session.refreshExpiresAt),
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
}
