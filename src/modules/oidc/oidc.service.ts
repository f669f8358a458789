import { createHash, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import { EncryptJWT, jwtDecrypt } from 'jose';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.js';
import type { Caller } from '../../identity/caller.js';
import { requireSelfOrAdmin } from '../../identity/policy.js';
import { syncRole } from '../../identity/roles.js';
import { syncGroupMemberships } from '../teams/teams.access.js';
import { openSession, type SessionSettings, type TokenPair } from '../../identity/sessions.js';
import type { Clock } from '../../shared/clock.js';
import { AppError, notFound } from '../../shared/errors.js';
import type { TokenService } from '../auth/tokens.js';
import type { LoginThrottle } from '../../identity/throttle.js';
import { UsersRepository, type UserRow } from '../users/users.repository.js';
import { OidcClient, type OidcClaims } from './oidc.client.js';
import { OidcRepository } from './oidc.repository.js';

/** Most values of the groups claim read at a sign-in. */
const GROUP_VALUES_READ = 1000;

export interface OidcSettings extends SessionSettings {
  /** Encrypts the sign-in in progress into its cookie (flowKey). */
  flowKey: Uint8Array;
  issuer: string;
  displayName: string;
  roleClaim?: string;
  /** OIDC_GROUPS_CLAIM: its values fill the teams whose oidcGroup they name (docs/policies.md#teams). */
  groupsClaim?: string;
  adminValues: string[];
  autoCreate: boolean;
}

/** How long a started sign-in may take at the provider, and how long the web app has to exchange its code. */
export const FLOW_TTL_MS = 10 * 60_000;
export const CODE_TTL_MS = 60_000;

const hash = (value: string) => createHash('sha256').update(value).digest('base64url');

/**
 * The key that encrypts a sign-in in progress into the browser's cookie (A256GCM): derived with
 * HKDF from the token signing secret, so every process of the service reads every cookie.
 */
export const flowKey = (signingSecret: string): Uint8Array => new Uint8Array(hkdfSync('sha256', signingSecret, 'deskbook', 'deskbook oidc flow cookie v1', 32));

const FLOW_ENCRYPTION = { alg: 'dir', enc: 'A256GCM' } as const;
const NAME_MAX = 200;

export interface OidcIdentityView {
  linked: boolean;
  issuer: string;
  subject: string | null;
  linkedAt: Date | null;
}

/**
 * Single sign-on (docs/behaviour.md#single-sign-on-openid-connect): start, callback and the
 * one-time code exchange; linking identities to users; roles from the provider's claim.
 */
export class OidcService {
  constructor(
    private readonly db: Database,
    private readonly client: OidcClient,
    private readonly tokens: TokenService,
    private readonly throttle: LoginThrottle,
    private readonly clock: Clock,
    private readonly settings: OidcSettings,
    private readonly log: FastifyBaseLogger,
  ) {}

  get displayName(): string {
    return this.settings.displayName;
  }

  /**
   * A new sign-in: answers the provider URL to send the browser to and the cookie that keeps the
   * sign-in in progress. State, nonce and PKCE verifier travel encrypted in that cookie, nothing is
   * written (docs/behaviour.md#single-sign-on-openid-connect): anonymous starts cost no storage.
   */
  async start(clientAddress: string): Promise<{ location: URL; cookie: string }> {
    const now = this.clock.now();
    await this.throttle.attemptFromAddress(clientAddress, now);
    const state = OidcClient.randomSecret();
    const nonce = OidcClient.randomSecret();
    const codeVerifier = OidcClient.randomVerifier();
    const location = await this.client.authorizationUrl({ state, nonce, codeVerifier });
    const seconds = Math.floor(now.getTime() / 1000);
    const cookie = await new EncryptJWT({ s: state, n: nonce, v: codeVerifier })
      .setProtectedHeader(FLOW_ENCRYPTION)
      .setIssuedAt(seconds)
      .setExpirationTime(seconds + FLOW_TTL_MS / 1000)
      .encrypt(this.settings.flowKey);
    return { location, cookie };
  }

  /** The sign-in in progress of this browser's cookie, if it decrypts, has not expired and names this state. */
  private async flowOf(cookie: string | undefined, state: string): Promise<{ nonce: string; codeVerifier: string } | undefined> {
    if (!cookie) return undefined;
    try {
      const { payload } = await jwtDecrypt(cookie, this.settings.flowKey, {
        currentDate: this.clock.now(),
        keyManagementAlgorithms: [FLOW_ENCRYPTION.alg],
        contentEncryptionAlgorithms: [FLOW_ENCRYPTION.enc],
      });
      const { s, n, v } = payload as { s?: unknown; n?: unknown; v?: unknown };
      if (typeof s !== 'string' || typeof n !== 'string' || typeof v !== 'string') return undefined;
      const [given, kept] = [Buffer.from(hash(state)), Buffer.from(hash(s))];
      return timingSafeEqual(given, kept) ? { nonce: n, codeVerifier: v } : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * The provider sent the browser back: verify, find (or link, or create) the user, answer the
   * one-time code and the new value of the browser's cookie that binds the code to it. The flow's
   * cookie is replaced by it, so the same callback cannot be finished twice from this browser (and
   * the provider's code is single-use anyway).
   */
  async callback(callbackUrl: URL, cookie: string | undefined): Promise<{ code: string; binding: string }> {
    const state = callbackUrl.searchParams.get('state');
    if (!state) throw new AppError('OIDC_STATE_INVALID');
    const flow = await this.flowOf(cookie, state);
    if (!flow) throw new AppError('OIDC_STATE_INVALID');
    const repository = new OidcRepository(this.db);
    const claims = await this.client.redeem(callbackUrl, { state, nonce: flow.nonce, codeVerifier: flow.codeVerifier });
    let user = await this.userFor(claims);
    if (!user.enabled) throw new AppError('OIDC_ACCOUNT_DISABLED');
    if (this.settings.roleClaim !== undefined) {
      const values = [claims[this.settings.roleClaim]].flat().filter((value): value is string => typeof value === 'string');
      const admin = values.some((value) => this.settings.adminValues.includes(value));
      user = (await syncRole(this.db, { userId: user.id, admin, source: 'oidc', now: this.clock.now() }, this.log)) ?? user;
    }
    if (this.settings.groupsClaim !== undefined) {
      // At most as many values as teams may exist are looked at: the rest can name no team anyway.
      const groups = [claims[this.settings.groupsClaim]]
        .flat()
        .filter((value): value is string => typeof value === 'string')
        .slice(0, GROUP_VALUES_READ);
      await syncGroupMemberships(this.db, user.id, 'OIDC', groups, this.clock.now());
    }
    const code = randomBytes(32).toString('base64url');
    const binding = randomBytes(32).toString('base64url');
    const now = this.clock.now();
    await repository.storeCode({ codeHash: hash(code), bindingHash: hash(binding), userId: user.id, now, expiresAt: new Date(now.getTime() + CODE_TTL_MS) });
    return { code, binding };
  }

  /** Trades the one-time code (from the same browser) for a session and token pair, as a password sign-in gives. */
  async exchange(code: string, binding: string | undefined, userAgent: string | undefined): Promise<TokenPair> {
    if (!binding) throw new AppError('OIDC_CODE_INVALID');
    const now = this.clock.now();
    const userId = await new OidcRepository(this.db).takeCode(hash(code), hash(binding), now);
    if (!userId) throw new AppError('OIDC_CODE_INVALID');
    const user = await new UsersRepository(this.db).findById(userId);
    if (!user) throw new AppError('OIDC_CODE_INVALID');
    if (!user.enabled) throw new AppError('OIDC_ACCOUNT_DISABLED');
    return openSession(this.db, this.tokens, this.settings, { userId, userAgent, now });
  }

  /**
   * By `sub` once linked. The first time by e-mail only when the provider says it is verified and
   * the account has neither a password nor a directory sign-in; else, with OIDC_AUTO_CREATE, a new USER.
   */
  private async userFor(claims: OidcClaims): Promise<UserRow> {
    const oidc = new OidcRepository(this.db);
    const users = new UsersRepository(this.db);
    const issuer = this.settings.issuer;
    const linked = await oidc.findIdentity(issuer, claims.sub);
    if (linked) {
      const user = await users.findById(linked.userId);
      if (user) return user;
    }
    const email = typeof claims.email === 'string' ? claims.email.trim() : '';
    const verified = claims.email_verified === true || claims.email_verified === 'true';
    const noAccount = (detail: string) => new AppError('OIDC_NO_ACCOUNT', detail, { subject: claims.sub });
    if (!email || !verified) {
      throw noAccount('No account is linked to this identity and the provider has not verified its e-mail address; ask an admin to link it');
    }
    let user = await users.findByEmail(email);
    if (!user && this.settings.autoCreate) {
      const given = typeof claims.given_name === 'string' ? claims.given_name.trim() : '';
      const family = typeof claims.family_name === 'string' ? claims.family_name.trim() : '';
      const now = this.clock.now();
      user =
        (await users.insertIfAbsent(
          {
            email: email.slice(0, 200),
            firstName: (given || email.split('@')[0]!).slice(0, NAME_MAX),
            lastName: (family || '-').slice(0, NAME_MAX),
            role: 'USER',
            enabled: true,
            ldap: false,
          },
          now,
        )) ?? (await users.findByEmail(email));
    }
    if (!user) throw noAccount('No account here has this e-mail address; ask an admin to create it');
    if (!user.enabled) throw new AppError('OIDC_ACCOUNT_DISABLED');
    if (user.ldap || user.passwordHash !== null) {
      throw noAccount('This account signs in with a password or the directory; an admin must link it to single sign-on first');
    }
    const created = await oidc.link({ issuer, subject: claims.sub, userId: user.id, now: this.clock.now() });
    if (!created) {
      // A racing twin linked it, or the account is linked to another identity of this provider.
      const now = await oidc.findIdentity(issuer, claims.sub);
      if (now?.userId !== user.id) throw noAccount('This account is already linked to another identity at the provider');
    }
    this.log.info({ userId: user.id }, 'single sign-on identity linked by verified e-mail');
    return user;
  }

  async identityOf(caller: Caller, userId: string): Promise<OidcIdentityView> {
    requireSelfOrAdmin(caller, userId, 'Only admins see how other accounts sign in');
    if (!(await new UsersRepository(this.db).findById(userId))) throw notFound('User', userId);
    const row = await new OidcRepository(this.db).findIdentityOfUser(userId, this.settings.issuer);
    return { linked: row !== undefined, issuer: this.settings.issuer, subject: row?.subject ?? null, linkedAt: row?.createdAt ?? null };
  }

  /** ADMIN links a user to the provider's `sub` explicitly (also a password or directory account). */
  async link(userId: string, subject: string): Promise<OidcIdentityView> {
    if (!(await new UsersRepository(this.db).findById(userId))) throw notFound('User', userId);
    const row = await new OidcRepository(this.db).link({ issuer: this.settings.issuer, subject, userId, now: this.clock.now() });
    if (!row) throw new AppError('OIDC_ALREADY_LINKED', 'This identity is linked to an account already, or this account to another identity; unlink first');
    return { linked: true, issuer: row.issuer, subject: row.subject, linkedAt: row.createdAt };
  }

  async unlink(userId: string): Promise<void> {
    if (!(await new OidcRepository(this.db).unlink(userId, this.settings.issuer))) throw notFound('Single sign-on link of user', userId);
  }
}
