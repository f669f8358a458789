import { webcrypto } from 'node:crypto';
import { errors as joseErrors, jwtVerify, SignJWT, type JWTPayload } from 'jose';
import type { Clock } from '../../shared/clock.js';
import { isUuid } from '../../shared/text.js';

const ISSUER = 'deskbook';
const ACCESS_AUDIENCE = 'deskbook-api';
const REFRESH_AUDIENCE = 'deskbook-refresh';
const ALGORITHM = 'HS256';

export interface AccessClaims {
  userId: string;
  sessionId: string;
}

export interface RefreshClaims {
  sessionId: string;
  generation: number;
}

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/** How many verified access tokens TokenService remembers by default (docs/benchmarks.md#statements-per-request). */
export const DEFAULT_VERIFIED_TOKEN_MEMO = 10_000;

export interface TokenServiceOptions {
  /** At most this many verified access tokens are remembered (0: none); the oldest is dropped first. */
  memoSize?: number;
}

/**
 * Signs and checks the two JWTs. Access and refresh tokens carry different audiences so one can
 * never stand in for the other; only HS256 is accepted (alg:none or RS256 tokens fail).
 */
export class TokenService {
  /** Imported once: handing jose raw bytes (or a KeyObject) makes it import a key on every call. */
  private readonly key: Promise<webcrypto.CryptoKey>;
  /**
   * Access tokens that verified, with their claims and expiry (ms): checking the HMAC again on
   * every request cost about a fifth of GET /api/self's CPU. Only the signature check is
   * remembered; the session is still read on every request (revocation counts at once), and an
   * entry is never used at or after its token's `exp`. Insertion order: the first key is the oldest.
   */
  private readonly verified = new Map<string, { claims: AccessClaims; expiresAtMs: number }>();
  private readonly memoSize: number;

  constructor(
    secret: string,
    private readonly clock: Clock,
    options: TokenServiceOptions = {},
  ) {
    this.memoSize = Math.max(0, Math.trunc(options.memoSize ?? DEFAULT_VERIFIED_TOKEN_MEMO));
    this.key = webcrypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
  }

  async signAccess(claims: AccessClaims, expiresAt: Date): Promise<string> {
    return new SignJWT({ sid: claims.sessionId })
      .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
      .setIssuer(ISSUER)
      .setAudience(ACCESS_AUDIENCE)
      .setSubject(claims.userId)
      .setIssuedAt(seconds(this.clock.now()))
      .setExpirationTime(seconds(expiresAt))
      .sign(await this.key);
  }

  async signRefresh(claims: RefreshClaims, expiresAt: Date): Promise<string> {
    return new SignJWT({ sid: claims.sessionId, gen: claims.generation })
      .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
      .setIssuer(ISSUER)
      .setAudience(REFRESH_AUDIENCE)
      .setIssuedAt(seconds(this.clock.now()))
      .setExpirationTime(seconds(expiresAt))
      .sign(await this.key);
  }

  /** The claims of a valid access token, or undefined for anything that does not verify. */
  async verifyAccess(token: string): Promise<AccessClaims | undefined> {
    const remembered = this.verified.get(token);
    if (remembered !== undefined) {
      if (this.clock.now().getTime() < remembered.expiresAtMs) return remembered.claims;
      this.verified.delete(token);
    }
    const payload = await this.verify(token, ACCESS_AUDIENCE);
    if (!isUuid(payload?.sub) || !isUuid(payload.sid)) return undefined;
    const claims = { userId: payload.sub, sessionId: payload.sid };
    this.remember(token, claims, (payload.exp as number) * 1000);
    return claims;
  }

  /** How many verified access tokens are remembered now (tests). */
  get rememberedTokens(): number {
    return this.verified.size;
  }

  private remember(token: string, claims: AccessClaims, expiresAtMs: number): void {
    if (this.memoSize === 0) return;
    this.verified.delete(token);
    while (this.verified.size >= this.memoSize) {
      const oldest = this.verified.keys().next().value as string;
      this.verified.delete(oldest);
    }
    this.verified.set(token, { claims, expiresAtMs });
  }

  /** The claims of a valid refresh token, or undefined. */
  async verifyRefresh(token: string): Promise<RefreshClaims | undefined> {
    const payload = await this.verify(token, REFRESH_AUDIENCE);
    if (!isUuid(payload?.sid) || !Number.isInteger(payload.gen)) return undefined;
    return { sessionId: payload.sid, generation: payload.gen as number };
  }

  private async verify(token: string, audience: string): Promise<JWTPayload | undefined> {
    try {
      const { payload } = await jwtVerify(token, await this.key, {
        algorithms: [ALGORITHM],
        issuer: ISSUER,
        audience,
        currentDate: this.clock.now(),
        requiredClaims: ['exp', 'iat'],
      });
      return payload;
    } catch (error) {
      if (error instanceof joseErrors.JOSEError || error instanceof TypeError) return undefined;
      throw error;
    }
  }
}
