import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import type { Clock } from '../../shared/clock.js';

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

/** Thrown for any token that does not verify; the message stays internal. */
export class TokenError extends Error {
  override name = 'TokenError';
}

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/**
 * Signs and checks the two JWTs. Access and refresh tokens carry different audiences so one can
 * never stand in for the other; only HS256 is accepted (alg:none or RS256 tokens fail).
 */
export class TokenService {
  private readonly key: Uint8Array;

  constructor(
    secret: string,
    private readonly clock: Clock,
  ) {
    this.key = new TextEncoder().encode(secret);
  }

  signAccess(claims: AccessClaims, expiresAt: Date): Promise<string> {
    return new SignJWT({ sid: claims.sessionId })
      .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
      .setIssuer(ISSUER)
      .setAudience(ACCESS_AUDIENCE)
      .setSubject(claims.userId)
      .setIssuedAt(seconds(this.clock.now()))
      .setExpirationTime(seconds(expiresAt))
      .sign(this.key);
  }

  signRefresh(claims: RefreshClaims, expiresAt: Date): Promise<string> {
    return new SignJWT({ sid: claims.sessionId, gen: claims.generation })
      .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
      .setIssuer(ISSUER)
      .setAudience(REFRESH_AUDIENCE)
      .setIssuedAt(seconds(this.clock.now()))
      .setExpirationTime(seconds(expiresAt))
      .sign(this.key);
  }

  async verifyAccess(token: string): Promise<AccessClaims> {
    const payload = await this.verify(token, ACCESS_AUDIENCE);
    if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string') throw new TokenError('missing claims');
    return { userId: payload.sub, sessionId: payload.sid };
  }

  async verifyRefresh(token: string): Promise<RefreshClaims> {
    const payload = await this.verify(token, REFRESH_AUDIENCE);
    if (typeof payload.sid !== 'string' || !Number.isInteger(payload.gen)) throw new TokenError('missing claims');
    return { sessionId: payload.sid, generation: payload.gen as number };
  }

  private async verify(token: string, audience: string) {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: [ALGORITHM],
        issuer: ISSUER,
        audience,
        currentDate: this.clock.now(),
        requiredClaims: ['exp', 'iat'],
      });
      return payload;
    } catch (error) {
      if (error instanceof joseErrors.JOSEError || error instanceof TypeError) throw new TokenError(error.message);
      throw error;
    }
  }
}

/** Session ids in tokens must be UUIDs before they get near SQL. */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
