import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../shared/errors.js';
import type { TokenPair } from './auth.service.js';

/**
 * The web app's session in the browser (docs/sessions.md): the refresh token lives in an HttpOnly,
 * SameSite=Strict cookie that only the web-session operations receive; the web app keeps the
 * access token in memory. The token-pair operations (login, refresh, logout) are unchanged.
 */
export const WEB_SESSION_COOKIE = 'deskbook_session';
/** The cookie goes only to the operations under this path (sign-in, refresh and sign-out of the browser). */
export const WEB_SESSION_PATH = '/api/auth/web-session';
/** Every cookie-authenticated operation requires this header (docs/sessions.md#threat-model). */
export const CSRF_HEADER = 'x-requested-with';
/**
 * How long a just-rotated refresh token of the cookie still counts as the current one: two tabs
 * that refresh at the same moment both send the same cookie (docs/sessions.md#tabs-refreshing-at-once).
 */
export const WEB_REFRESH_GRACE_MS = 10_000;

/** Said by every operation of the browser's session (docs/sessions.md). */
export const WEB_SESSION_NOTE =
  'For the web app in a browser (docs/sessions.md): the refresh token travels only in the `deskbook_session` cookie (HttpOnly, SameSite=Strict, Path=/api/auth/web-session, Secure when PUBLIC_URL is https, no Max-Age). ' +
  'The `X-Requested-With` header (any value) is required, else 403 CSRF_HEADER_REQUIRED. API clients use the token pair of /api/auth/login and /api/auth/refresh instead.';

/** A browser form or a cross-site link cannot add a custom header; a script of another origin needs CORS, which is not offered. */
export function requireCsrfHeader(request: FastifyRequest): void {
  const value = request.headers[CSRF_HEADER];
  if (typeof value !== 'string' || value.trim() === '') throw new AppError('CSRF_HEADER_REQUIRED');
}

/** The refresh token of the browser's cookie, if it sent one. */
export function webSessionCookieOf(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie;
  if (typeof header !== 'string') return undefined;
  for (const part of header.split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === WEB_SESSION_COOKIE) return value.join('=') || undefined;
  }
  return undefined;
}

/**
 * The Set-Cookie value: no Max-Age, so the browser forgets it when it closes (the server's session
 * ends WEB_SESSION_IDLE_TTL after its last refresh). Secure when PUBLIC_URL is https.
 */
export function webSessionCookie(refreshToken: string | undefined, secure: boolean): string {
  const value = refreshToken ?? '';
  const attributes = [`${WEB_SESSION_COOKIE}=${value}`, `Path=${WEB_SESSION_PATH}`, 'HttpOnly', 'SameSite=Strict'];
  if (refreshToken === undefined) attributes.push('Max-Age=0');
  if (secure) attributes.push('Secure');
  return attributes.join('; ');
}

/** Sets the cookie to the pair's refresh token and answers what the web app keeps: the access token only. */
export function sendWebSession(reply: FastifyReply, pair: TokenPair, secure: boolean) {
  reply.header('set-cookie', webSessionCookie(pair.refreshToken, secure)).header('cache-control', 'no-store');
  return {
    accessToken: pair.accessToken,
    tokenType: pair.tokenType,
    expiresAt: pair.expiresAt.toISOString(),
    refreshExpiresAt: pair.refreshExpiresAt.toISOString(),
    sessionId: pair.sessionId,
    userId: pair.userId,
  };
}

/** Clears the browser's cookie (sign-out, or a refresh refused). */
export function clearWebSession(reply: FastifyReply, secure: boolean): FastifyReply {
  return reply.header('set-cookie', webSessionCookie(undefined, secure)).header('cache-control', 'no-store');
}
