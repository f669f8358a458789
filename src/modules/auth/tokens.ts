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

/**
 * Signs and checks the two JWTs. Access and refresh tokens carry different audiences so one can
 * never stand in for the other; only HS256 is accepted (alg:none or RS256 tokens fail).
 */
export class TokenService {
  /** Imported once: handing jose raw bytes (or a KeyObject) makes it import a key on every call. */
  private readonly key: Promise<webcrypto.CryptoKey>;

  constructor(
    secret: string,
    private readonly clock: Clock,
  ) {
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
    const payload = await this.verify(token, ACCESS_AUDIENCE);
    if (!isUuid(payload?.sub) || !isUuid(payload.sid)) return undefined;
    return { userId: payload.sub, sessionId: payload.sid };
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
