import { SignJWT, UnsecuredJWT, decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, ADMIN_PASSWORD, ISO_UTC, UUID, createTestApp, expectProblem, type TestApp } from '../../helpers/app.js';

describe('authentication', () => {
  let t: TestApp;
  const password = 'user-password-1';
  let userId: string;

  beforeAll(async () => {
    t = await createTestApp({ env: { LOGIN_MAX_FAILURES_PER_ACCOUNT: '5', LOGIN_MAX_ATTEMPTS_PER_ADDRESS: '1000' } });
    userId = (await t.createUser({ email: 'Alice.Smith@Example.test', firstName: 'Alice', lastName: 'Smith', password })).id;
  });
  afterAll(() => t.close());

  describe('POST /api/auth/login', () => {
    it('answers the token pair (docs/api.md#token-pair-sign-in-and-refresh) and creates a session', async () => {
      const response = await t.request({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: 'alice.smith@example.test', password },
        headers: { 'user-agent': 'TestBrowser/1.0' },
      });
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(Object.keys(body).sort()).toEqual(['accessToken', 'expiresAt', 'refreshExpiresAt', 'refreshToken', 'sessionId', 'tokenType', 'userId']);
      expect(body.tokenType).toBe('Bearer');
      expect(body.userId).toBe(userId);
      expect(body.sessionId).toMatch(UUID);
      expect(body.expiresAt).toMatch(ISO_UTC);
      expect(body.refreshExpiresAt).toMatch(ISO_UTC);
      const now = t.clock.now().getTime();
      expect(Date.parse(body.expiresAt) - now).toBe(15 * 60_000);
      expect(Date.parse(body.refreshExpiresAt) - now).toBe(30 * 86_400_000);
      expect(decodeJwt(body.accessToken).sub).toBe(userId);

      const sessions = await t.request({ method: 'GET', url: `/api/users/${userId}/sessions`, token: body.accessToken });
      expect(sessions.statusCode).toBe(200);
      const session = sessions.json().content.find((item: { id: string }) => item.id === body.sessionId);
      expect(session).toEqual({
        id: body.sessionId,
        userId,
        userAgent: 'TestBrowser/1.0',
        expiresAt: body.expiresAt,
        refreshExpiresAt: body.refreshExpiresAt,
        createdAt: expect.stringMatching(ISO_UTC),
        modifiedAt: expect.stringMatching(ISO_UTC),
      });
    });

    it('matches the e-mail regardless of case', async () => {
      await expect(t.login('ALICE.SMITH@EXAMPLE.TEST', password)).resolves.toMatchObject({ userId });
    });

    it('answers the same 401 for an unknown e-mail, a wrong password and a disabled account', async () => {
      const disabled = await t.createUser({ email: 'disabled@example.test', password: 'disabled-pass-1', enabled: false });
      const attempts = [
        { email: 'nobody@example.test', password },
        { email: 'alice.smith@example.test', password: 'wrong-password' },
        { email: disabled.email, password: 'disabled-pass-1' },
      ];
      const bodies = [];
      for (const payload of attempts) {
        const response = await t.request({ method: 'POST', url: '/api/auth/login', payload });
        const problem = expectProblem(response, 401, 'INVALID_CREDENTIALS');
        expect(response.headers['www-authenticate']).toMatch(/^Bearer/);
        bodies.push({ detail: problem.detail, title: problem.title, type: problem.type });
      }
      expect(bodies[1]).toEqual(bodies[0]);
      expect(bodies[2]).toEqual(bodies[0]);
    });

    it('refuses a local password for a directory (ldap) user when no directory is configured', async () => {
      const ldapUser = await t.createUser({ email: 'ldap.user@example.test', ldap: true });
      const response = await t.request({ method: 'POST', url: '/api/auth/login', payload: { email: ldapUser.email, password: 'anything-at-all' } });
      expectProblem(response, 401, 'INVALID_CREDENTIALS');
    });

    it('refuses bad bodies with 400 problem+json', async () => {
      const cases = [
        { payload: '{"email": "x@y.z", "password": ', code: 'MALFORMED_JSON' },
        { payload: { email: 'x@y.z' }, field: 'password' },
        { payload: { email: 'x@y.z', password: 12345678 }, field: 'password' },
        { payload: { email: 'x@y.z', password: 'long-enough', remember: true }, field: 'remember' },
        { payload: { email: 'x@y.z', password: 'p'.repeat(257) }, field: 'password' },
      ];
      for (const item of cases) {
        const response = await t.request({ method: 'POST', url: '/api/auth/login', payload: item.payload, headers: { 'content-type': 'application/json' } });
        const problem = expectProblem(response, 400, item.code ?? 'VALIDATION_FAILED');
        if (item.field) expect(problem.errors?.map((error) => error.field)).toContain(item.field);
      }
    });
  });

  describe('access tokens', () => {
    let pair: Awaited<ReturnType<TestApp['login']>>;
    beforeAll(async () => {
      pair = await t.login('alice.smith@example.test', password);
    });

    it('lets the bearer in', async () => {
      const response = await t.request({ method: 'GET', url: '/api/self', token: pair.accessToken });
      expect(response.statusCode).toBe(200);
      expect(response.json().id).toBe(userId);
    });

    it('answers 401 with WWW-Authenticate for a missing or malformed header', async () => {
      const missing = await t.request({ method: 'GET', url: '/api/self' });
      expectProblem(missing, 401, 'UNAUTHENTICATED');
      expect(missing.headers['www-authenticate']).toBe('Bearer realm="deskbook"');
      for (const authorization of ['Basic dXNlcjpwYXNz', 'Bearer', `Token ${pair.accessToken}`, 'Bearer a b c']) {
        const response = await t.request({ method: 'GET', url: '/api/self', headers: { authorization } });
        expectProblem(response, 401, 'INVALID_TOKEN');
        expect(response.headers['www-authenticate']).toContain('error="invalid_token"');
      }
    });

    it('refuses alg:none, a foreign key, a wrong audience and garbage', async () => {
      const claims = decodeJwt(pair.accessToken);
      const none = new UnsecuredJWT({ ...claims }).encode();
      const foreign = await new SignJWT({ ...claims })
        .setProtectedHeader({ alg: 'HS256' })
        .sign(new TextEncoder().encode('a-different-secret-of-enough-length-0123456789'));
      const tampered = pair.accessToken.replace(
        /\.[^.]+\./,
        () => `.${Buffer.from(JSON.stringify({ ...claims, sub: '00000000-0000-0000-0000-000000000000' })).toString('base64url')}.`,
      );
      // A token signed with HS512 by our own secret would still be refused: only HS256 is accepted.
      const headerHs512 = `${Buffer.from(JSON.stringify({ alg: 'HS512', typ: 'JWT' })).toString('base64url')}.${pair.accessToken.split('.')[1]}.${pair.accessToken.split('.')[2]}`;
      for (const token of [none, foreign, tampered, headerHs512, pair.refreshToken, 'not-a-jwt', 'a.b.c']) {
        const response = await t.request({ method: 'GET', url: '/api/self', token });
        expectProblem(response, 401, 'INVALID_TOKEN');
      }
    });

    it('expires after ACCESS_TOKEN_TTL', async () => {
      const fresh = await t.login('alice.smith@example.test', password);
      t.clock.advance(15 * 60_000 + 1000);
      try {
        expectProblem(await t.request({ method: 'GET', url: '/api/self', token: fresh.accessToken }), 401, 'INVALID_TOKEN');
        // The refresh token still works and gives a usable access token.
        const refreshed = await t.request({ method: 'POST', url: '/api/auth/refresh', payload: { refreshToken: fresh.refreshToken } });
        expect(refreshed.statusCode).toBe(200);
        expect((await t.request({ method: 'GET', url: '/api/self', token: refreshed.json().accessToken })).statusCode).toBe(200);
      } finally {
        t.clock.advance(-(15 * 60_000 + 1000));
      }
    });

    it('is refused right after logout, and so is its refresh token', async () => {
      const fresh = await t.login('alice.smith@example.test', password);
      const logout = await t.request({ method: 'POST', url: '/api/auth/logout', token: fresh.accessToken });
      expect(logout.statusCode).toBe(204);
      expectProblem(await t.request({ method: 'GET', url: '/api/self', token: fresh.accessToken }), 401, 'INVALID_TOKEN');
      expectProblem(await t.request({ method: 'POST', url: '/api/auth/refresh', payload: { refreshToken: fresh.refreshToken } }), 401, 'INVALID_REFRESH_TOKEN');
      // Other sessions of the same user are untouched.
      expect((await t.request({ method: 'GET', url: '/api/self', token: pair.accessToken })).statusCode).toBe(200);
    });
  });

  describe('POST /api/auth/refresh', () => {
    it('rotates: the new pair works, the old refresh token is spent', async () => {
      const first = await t.login('alice.smith@example.test', password);
      t.clock.advance(1000);
      const response = await t.request({ method: 'POST', url: '/api/auth/refresh', payload: { refreshToken: first.refreshToken } });
      expect(response.statusCode).toBe(200);
      const second = response.json();
      expect(second.sessionId).toBe(first.sessionId);
      expect(second.refreshToken).not.toBe(first.refreshToken);
      expect(Date.parse(second.expiresAt)).toBeGreaterThan(Date.parse(first.expiresAt));
      expect((await t.request({ method: 'GET', url: '/api/self', token: second.accessToken })).statusCode).toBe(200);

      const sessions = await t.request({ method: 'GET', url: '/api/sessions', token: second.accessToken, query: { size: '1000' } });
      const session = sessions.json().content.find((item: { id: string }) => item.id === first.sessionId);
      expect(session.expiresAt).toBe(second.expiresAt);
      expect(Date.parse(session.modifiedAt)).toBeGreaterThan(Date.parse(session.createdAt));
    });

    it('revokes the whole session when a spent refresh token comes back (theft detection)', async () => {
      const first = await t.login('alice.smith@example.test', password);
      const second = (await t.request({ method: 'POST', url: '/api/auth/refresh', payload: { refreshToken: first.refreshToken } })).json();
      const replay = await t.request({ method: 'POST', url: '/api/auth/refresh', payload: { refreshToken: first.refreshToken } });
      expectProblem(replay, 401, 'REFRESH_TOKEN_REUSED');
      expectProblem(await t.request({ method: 'GET', url: '/api/self', token: second.accessToken }), 401, 'INVALID_TOKEN');
      expectProblem(
        await t.request({ method: 'POST', url: '/api/auth/refresh', payload: { refreshToken: second.refreshToken } }),
        401,
        'INVALID_REFRESH_TOKEN',
      );
    });

    it('gives exactly one success for 50 concurrent refreshes of one token', async () => {
      const pair = await t.login('alice.smith@example.test', password);
      const responses = await Promise.all(
        Array.from({ length: 50 }, () => t.request({ method: 'POST', url: '/api/auth/refresh', payload: { refreshToken: pair.refreshToken } })),
      );
      const statuses = responses.map((response) => response.statusCode);
      expect(statuses.filter((status) => status === 200)).toHaveLength(1);
      expect(statuses.filter((status) => status === 401)).toHaveLength(49);
    });

    it('refuses an access token, a forged token and an expired refresh token', async () => {
      const pair = await t.login('alice.smith@example.test', password);
      for (const refreshToken of [pair.accessToken, 'garbage', new UnsecuredJWT({ sid: pair.sessionId, gen: 0 }).encode()]) {
        expectProblem(await t.request({ method: 'POST', url: '/api/auth/refresh', payload: { refreshToken } }), 401, 'INVALID_REFRESH_TOKEN');
      }
      t.clock.advance(31 * 86_400_000);
      try {
        expectProblem(
          await t.request({ method: 'POST', url: '/api/auth/refresh', payload: { refreshToken: pair.refreshToken } }),
          401,
          'INVALID_REFRESH_TOKEN',
        );
      } finally {
        t.clock.advance(-31 * 86_400_000);
      }
    });
  });

  describe('sign-in rate limits', () => {
    it('answers 429 with Retry-After after too many failures for one account from one address, even with the right password', async () => {
      await t.createUser({ email: 'bob@example.test', password: 'bob-password-1' });
      for (let attempt = 0; attempt < 5; attempt++) {
        expectProblem(await t.request({ method: 'POST', url: '/api/auth/login', payload: { email: 'bob@example.test', password: 'wrong-password' } }), 401);
      }
      const limited = await t.request({ method: 'POST', url: '/api/auth/login', payload: { email: 'BOB@example.test', password: 'bob-password-1' } });
      expectProblem(limited, 429, 'TOO_MANY_REQUESTS');
      const retryAfter = Number(limited.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(15 * 60);
      // Another account is not affected.
      await expect(t.login('alice.smith@example.test', password)).resolves.toBeTruthy();
      // After the window the account signs in again.
      t.clock.advance(15 * 60_000 + 1000);
      await expect(t.login('bob@example.test', 'bob-password-1')).resolves.toBeTruthy();
    });

    it('counts attempts from one client address (X-Forwarded-For only when TRUST_PROXY says so)', async () => {
      const limited = await createTestApp({ env: { LOGIN_MAX_ATTEMPTS_PER_ADDRESS: '3', TRUST_PROXY: 'true' } });
      try {
        const attempt = (forwardedFor: string) =>
          limited.request({
            method: 'POST',
            url: '/api/auth/login',
            payload: { email: 'x@example.test', password: 'whatever1' },
            headers: { 'x-forwarded-for': forwardedFor },
          });
        for (let i = 0; i < 3; i++) expect((await attempt('203.0.113.7')).statusCode).toBe(401);
        const over = await attempt('203.0.113.7');
        expectProblem(over, 429, 'TOO_MANY_REQUESTS');
        expect(Number(over.headers['retry-after'])).toBeLessThanOrEqual(60);
        expect((await attempt('203.0.113.8')).statusCode).toBe(401);
      } finally {
        await limited.close();
      }

      const untrusting = await createTestApp({ env: { LOGIN_MAX_ATTEMPTS_PER_ADDRESS: '2' } });
      try {
        const statuses = [];
        for (const forwardedFor of ['198.51.100.1', '198.51.100.2', '198.51.100.3']) {
          const response = await untrusting.request({
            method: 'POST',
            url: '/api/auth/login',
            payload: { email: 'x@example.test', password: 'whatever1' },
            headers: { 'x-forwarded-for': forwardedFor },
          });
          statuses.push(response.statusCode);
        }
        // A spoofed header does not give a new address: the third attempt is over the limit.
        expect(statuses).toEqual([401, 401, 429]);
      } finally {
        await untrusting.close();
      }
    });
  });

  it('creates the first admin from ADMIN_EMAIL and ADMIN_PASSWORD', async () => {
    const pair = await t.login(ADMIN_EMAIL, ADMIN_PASSWORD);
    const self = (await t.request({ method: 'GET', url: '/api/self', token: pair.accessToken })).json();
    expect(self).toMatchObject({ email: ADMIN_EMAIL, role: 'ADMIN', enabled: true, ldap: false });
  });
});
