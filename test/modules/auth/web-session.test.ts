import { decodeJwt } from 'jose';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ISO_UTC, UUID, createTestApp, expectProblem, type TestApp } from '../../helpers/app.js';

/**
 * The browser's session (docs/sessions.md): the refresh token in an HttpOnly SameSite=Strict
 * cookie scoped to /api/auth/web-session, the CSRF header, sign-out everywhere, and two tabs that
 * refresh at the same moment keeping their one session.
 */

const CSRF = { 'x-requested-with': 'deskbook' };
const COOKIE_PATH = '/api/auth/web-session';

/** The Set-Cookie values of a response, as a list. */
const setCookies = (response: LightMyRequestResponse): string[] => {
  const header = response.headers['set-cookie'];
  return header === undefined ? [] : Array.isArray(header) ? header : [String(header)];
};
/** The value of the session cookie set by a response (undefined when none was set). */
const sessionCookie = (response: LightMyRequestResponse): string | undefined => {
  const line = setCookies(response).find((value) => value.startsWith('deskbook_session='));
  return line?.split(';')[0]!.slice('deskbook_session='.length);
};
const attributesOf = (response: LightMyRequestResponse): string[] =>
  setCookies(response)
    .find((value) => value.startsWith('deskbook_session='))!
    .split(';')
    .slice(1)
    .map((part) => part.trim());

describe('the browser session (docs/sessions.md)', () => {
  let t: TestApp;
  const password = 'tab-password-1';
  let email: string;
  let userId: string;

  beforeAll(async () => {
    t = await createTestApp({ env: { LOGIN_MAX_ATTEMPTS_PER_ADDRESS: '1000' } });
    const user = await t.createUser({ email: 'tabs@example.test', password });
    email = user.email;
    userId = user.id;
  });
  afterAll(() => t.close());

  const signIn = async () => {
    const response = await t.request({ method: 'POST', url: COOKIE_PATH, payload: { email, password }, headers: { ...CSRF, 'user-agent': 'Chrome on Linux' } });
    expect(response.statusCode, response.body).toBe(200);
    return { response, body: response.json(), cookie: sessionCookie(response)! };
  };
  const refresh = (cookie: string | undefined, headers: Record<string, string> = CSRF) =>
    t.request({
      method: 'POST',
      url: `${COOKIE_PATH}/refresh`,
      headers: { ...headers, ...(cookie !== undefined ? { cookie: `deskbook_session=${cookie}` } : {}) },
    });
  const sessionsOf = async (token: string) => {
    const response = await t.request({ method: 'GET', url: '/api/sessions', token });
    expect(response.statusCode).toBe(200);
    return (response.json() as { content: { id: string; userAgent: string | null }[] }).content;
  };

  it('sets the refresh token as an HttpOnly, SameSite=Strict cookie of the refresh path and answers the access token only', async () => {
    const { response, body, cookie } = await signIn();
    expect(Object.keys(body).sort()).toEqual(['accessToken', 'expiresAt', 'refreshExpiresAt', 'sessionId', 'tokenType', 'userId']);
    expect(body).toMatchObject({ tokenType: 'Bearer', userId, sessionId: expect.stringMatching(UUID), expiresAt: expect.stringMatching(ISO_UTC) });
    expect(response.headers['cache-control']).toBe('no-store');
    expect(attributesOf(response).sort()).toEqual(['HttpOnly', `Path=${COOKIE_PATH}`, 'SameSite=Strict']);
    // No Max-Age or Expires: the browser forgets it when it closes; http PUBLIC_URL: not Secure.
    expect(decodeJwt(cookie)).toMatchObject({ aud: 'deskbook-refresh', sid: body.sessionId });
    // The session ends WEB_SESSION_IDLE_TTL (3 days) after sign-in unless refreshed, not 30 days.
    expect(Date.parse(body.refreshExpiresAt) - t.clock.now().getTime()).toBe(3 * 86_400_000);
    expect(JSON.stringify(body)).not.toContain(cookie);
    const own = await sessionsOf(body.accessToken);
    expect(own.find((item) => item.id === body.sessionId)?.userAgent).toBe('Chrome on Linux');
  });

  it('is Secure when PUBLIC_URL is https', async () => {
    const secure = await createTestApp({ env: { PUBLIC_URL: 'https://desks.example.test' }, database: t.database });
    try {
      const response = await secure.request({ method: 'POST', url: COOKIE_PATH, payload: { email, password }, headers: CSRF });
      expect(response.statusCode).toBe(200);
      expect(attributesOf(response)).toContain('Secure');
      const out = await secure.request({ method: 'DELETE', url: COOKIE_PATH, headers: { ...CSRF, cookie: `deskbook_session=${sessionCookie(response)}` } });
      expect(attributesOf(out)).toContain('Secure');
    } finally {
      await secure.close();
    }
  });

  it('refuses every cookie operation without the X-Requested-With header (CSRF), and changes nothing', async () => {
    const { body, cookie } = await signIn();
    expectProblem(await t.request({ method: 'POST', url: COOKIE_PATH, payload: { email, password } }), 403, 'CSRF_HEADER_REQUIRED');
    expectProblem(await refresh(cookie, {}), 403, 'CSRF_HEADER_REQUIRED');
    expectProblem(await refresh(cookie, { 'x-requested-with': ' ' }), 403, 'CSRF_HEADER_REQUIRED');
    const out = await t.request({ method: 'DELETE', url: COOKIE_PATH, headers: { cookie: `deskbook_session=${cookie}` } });
    expectProblem(out, 403, 'CSRF_HEADER_REQUIRED');
    expect(setCookies(out)).toEqual([]);
    // The session is untouched: the same cookie still refreshes.
    expect((await sessionsOf(body.accessToken)).some((item) => item.id === body.sessionId)).toBe(true);
    expect((await refresh(cookie)).statusCode).toBe(200);
  });

  it('refreshes from the cookie: a new access token, the cookie rotated, the session kept', async () => {
    const { body, cookie } = await signIn();
    t.clock.advance(60_000);
    const renewed = await refresh(cookie);
    expect(renewed.statusCode, renewed.body).toBe(200);
    const next = renewed.json();
    expect(next).toMatchObject({ sessionId: body.sessionId, userId });
    expect(next.accessToken).not.toBe(body.accessToken);
    expect(next).not.toHaveProperty('refreshToken');
    const rotated = sessionCookie(renewed)!;
    expect(decodeJwt(rotated).gen).toBe((decodeJwt(cookie).gen as number) + 1);
    expect(attributesOf(renewed).sort()).toEqual(['HttpOnly', `Path=${COOKIE_PATH}`, 'SameSite=Strict']);
    expect((await t.request({ method: 'GET', url: '/api/self', token: next.accessToken })).statusCode).toBe(200);
  });

  it('answers 401 when there is no cookie, and clears one that is refused', async () => {
    const none = await refresh(undefined);
    expectProblem(none, 401, 'INVALID_REFRESH_TOKEN');
    // Nothing to clear: a sign-in answered meanwhile keeps the cookie it set.
    expect(setCookies(none)).toEqual([]);
    const forged = await refresh('not-a-token');
    expectProblem(forged, 401, 'INVALID_REFRESH_TOKEN');
    expect(sessionCookie(forged)).toBe('');
  });

  it('keeps the one session when two tabs refresh with the same cookie at the same moment', async () => {
    const { body, cookie } = await signIn();
    const [first, second] = await Promise.all([refresh(cookie), refresh(cookie)]);
    expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
    // Both tabs end up with the current generation: the cookie jar holds a working token either way.
    expect(decodeJwt(sessionCookie(first)!).gen).toBe(decodeJwt(sessionCookie(second)!).gen);
    expect(first.json().sessionId).toBe(body.sessionId);
    expect(second.json().sessionId).toBe(body.sessionId);
    for (const answer of [first, second]) expect((await t.request({ method: 'GET', url: '/api/self', token: answer.json().accessToken })).statusCode).toBe(200);
    expect((await refresh(sessionCookie(second))).statusCode).toBe(200);
  });

  it('still treats an old cookie as theft once the grace of a rotation has passed', async () => {
    const { body, cookie } = await signIn();
    const renewed = await refresh(cookie);
    expect(renewed.statusCode).toBe(200);
    // Within 10 s the token just rotated is a racing tab…
    t.clock.advance(5_000);
    expect((await refresh(cookie)).statusCode).toBe(200);
    // …after that it is a replay: the session is revoked and the cookie cleared.
    t.clock.advance(6_000);
    const replay = await refresh(cookie);
    expectProblem(replay, 401, 'REFRESH_TOKEN_REUSED');
    expect(sessionCookie(replay)).toBe('');
    expectProblem(await t.request({ method: 'GET', url: '/api/self', token: renewed.json().accessToken }), 401, 'INVALID_TOKEN');
    expect((await sessionsOf(await t.adminToken())).some((item) => item.id === body.sessionId)).toBe(false);
  });

  it('a token two generations old is never forgiven, even at once', async () => {
    const { cookie } = await signIn();
    const once = sessionCookie(await refresh(cookie));
    expect((await refresh(once)).statusCode).toBe(200);
    expectProblem(await refresh(cookie), 401, 'REFRESH_TOKEN_REUSED');
  });

  it('signs out: the session is revoked, its access token refused and the cookie cleared', async () => {
    const { body, cookie } = await signIn();
    const out = await t.request({ method: 'DELETE', url: COOKIE_PATH, headers: { ...CSRF, cookie: `deskbook_session=${cookie}` } });
    expect(out.statusCode).toBe(204);
    expect(sessionCookie(out)).toBe('');
    expect(attributesOf(out).sort()).toEqual(['HttpOnly', 'Max-Age=0', `Path=${COOKIE_PATH}`, 'SameSite=Strict']);
    expectProblem(await t.request({ method: 'GET', url: '/api/self', token: body.accessToken }), 401, 'INVALID_TOKEN');
    expectProblem(await refresh(cookie), 401, 'INVALID_REFRESH_TOKEN');
    // Signing out again, or without a cookie, is no error.
    expect((await t.request({ method: 'DELETE', url: COOKIE_PATH, headers: CSRF })).statusCode).toBe(204);
  });

  it('leaves the token-pair API as it was: login and refresh answer the pair, and a raced refresh still revokes', async () => {
    const pair = await t.login(email, password);
    expect(pair.refreshToken).toEqual(expect.any(String));
    expect(Date.parse(pair.refreshExpiresAt) - t.clock.now().getTime()).toBe(30 * 86_400_000);
    const first = await t.request({ method: 'POST', url: '/api/auth/refresh', payload: { refreshToken: pair.refreshToken } });
    expect(first.statusCode).toBe(200);
    expect(setCookies(first)).toEqual([]);
    // No grace for API clients (docs/behaviour.md#authentication-and-sessions).
    expectProblem(await t.request({ method: 'POST', url: '/api/auth/refresh', payload: { refreshToken: pair.refreshToken } }), 401, 'REFRESH_TOKEN_REUSED');
  });

  it('a refresh moves the end of the browser session on by WEB_SESSION_IDLE_TTL', async () => {
    const { cookie } = await signIn();
    t.clock.advance(2 * 86_400_000);
    const renewed = await refresh(cookie);
    expect(Date.parse(renewed.json().refreshExpiresAt) - t.clock.now().getTime()).toBe(3 * 86_400_000);
    // Three quiet days later the session has ended.
    t.clock.advance(3 * 86_400_000 + 1_000);
    expectProblem(await refresh(sessionCookie(renewed)), 401, 'INVALID_REFRESH_TOKEN');
  });
});
