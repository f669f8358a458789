import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DirectoryAuthenticator } from '../../../src/modules/auth/directory.js';
import { ADMIN_EMAIL, UUID, createTestApp, expectProblem, type TestApp, type TokenPairBody, type UserBody } from '../../helpers/app.js';

const OWN_VIEW_KEYS = ['email', 'enabled', 'firstName', 'hasAvatar', 'id', 'lastName', 'ldap', 'role'];
const DIRECTORY_PASSWORD = 'directory-password-1';

/** A directory that accepts one password for everybody. */
const directory: DirectoryAuthenticator = {
  verify: async (email, password) =>
    password === DIRECTORY_PASSWORD
      ? { verdict: 'accepted', profile: { mails: [email], firstName: 'Directory', lastName: 'Person' } }
      : { verdict: 'rejected' },
};

describe('self', () => {
  let t: TestApp;
  let counter = 0;

  /** A fresh local USER with a password, signed in once. */
  async function freshUser(password = 'first-password-1'): Promise<{ user: UserBody; pair: TokenPairBody; password: string }> {
    counter += 1;
    const user = await t.createUser({ email: `self.user.${counter}@example.test`, firstName: 'Self', lastName: `User${counter}`, password });
    return { user, pair: await t.login(user.email, password), password };
  }

  const getSelf = (token?: string) => t.request({ method: 'GET', url: '/api/self', token });
  const putSelf = (payload: unknown, token?: string) => t.request({ method: 'PUT', url: '/api/self', token, payload: payload as Record<string, unknown> });
  const changePassword = (payload: unknown, token?: string) =>
    t.request({ method: 'PUT', url: '/api/self/password', token, payload: payload as Record<string, unknown> });
  const loginStatus = async (email: string, password: string) =>
    (await t.request({ method: 'POST', url: '/api/auth/login', payload: { email, password } })).statusCode;
  const fieldsOf = (problem: { errors?: { field: string }[] }) => problem.errors?.map((error) => error.field) ?? [];

  beforeAll(async () => {
    t = await createTestApp({ env: { LOGIN_MAX_FAILURES_PER_ACCOUNT: '3', LOGIN_MAX_ATTEMPTS_PER_ADDRESS: '100000' }, directory });
  });
  afterAll(() => t.close());

  describe('GET /api/self', () => {
    it("answers a USER's own User with enabled, ldap and role", async () => {
      const { user, pair } = await freshUser();
      const response = await getSelf(pair.accessToken);
      expect(response.statusCode).toBe(200);
      const self = response.json<UserBody>();
      expect(Object.keys(self).sort()).toEqual(OWN_VIEW_KEYS);
      expect(self).toEqual({
        id: user.id,
        firstName: 'Self',
        lastName: user.lastName,
        email: user.email,
        enabled: true,
        ldap: false,
        role: 'USER',
        hasAvatar: false,
      });
      expect(self.id).toMatch(UUID);
      // The same user through /api/users lacks the admin-only members.
      const viaUsers = (await t.request({ method: 'GET', url: `/api/users/${user.id}`, token: pair.accessToken })).json<UserBody>();
      expect(Object.keys(viaUsers).sort()).toEqual(['email', 'firstName', 'hasAvatar', 'id', 'lastName']);
    });

    it("answers an admin's own User with role ADMIN", async () => {
      const response = await getSelf(await t.adminToken());
      expect(response.statusCode).toBe(200);
      const self = response.json<UserBody>();
      expect(Object.keys(self).sort()).toEqual(OWN_VIEW_KEYS);
      expect(self).toMatchObject({ email: ADMIN_EMAIL, role: 'ADMIN', enabled: true, ldap: false, hasAvatar: false });
    });

    it('shows ldap true for a directory user', async () => {
      const user = await t.createUser({ email: 'self.directory@example.test', ldap: true });
      const pair = await t.login(user.email, DIRECTORY_PASSWORD);
      expect((await getSelf(pair.accessToken)).json()).toMatchObject({ id: user.id, ldap: true, role: 'USER', enabled: true });
    });

    it('reflects changes an admin made, on the next request', async () => {
      const { user, pair } = await freshUser();
      const admin = await t.adminToken();
      expect(
        (await t.request({ method: 'PUT', url: `/api/users/${user.id}`, token: admin, payload: { role: 'ADMIN', lastName: 'Promoted' } })).statusCode,
      ).toBe(200);
      expect((await getSelf(pair.accessToken)).json()).toMatchObject({ role: 'ADMIN', lastName: 'Promoted' });
    });

    it('answers 401 without a valid token', async () => {
      expectProblem(await getSelf(), 401, 'UNAUTHENTICATED');
      expectProblem(await getSelf('not-a-token'), 401, 'INVALID_TOKEN');
    });
  });

  describe('PUT /api/self', () => {
    it('changes firstName and lastName and answers the own User', async () => {
      const { user, pair } = await freshUser();
      const first = await putSelf({ firstName: 'Renamed' }, pair.accessToken);
      expect(first.statusCode).toBe(200);
      const afterFirst = first.json<UserBody>();
      expect(Object.keys(afterFirst).sort()).toEqual(OWN_VIEW_KEYS);
      expect(afterFirst).toEqual({ ...user, firstName: 'Renamed' });

      const second = await putSelf({ lastName: 'Person' }, pair.accessToken);
      expect(second.json()).toEqual({ ...user, firstName: 'Renamed', lastName: 'Person' });
      const both = await putSelf({ firstName: 'Both', lastName: 'Changed' }, pair.accessToken);
      expect(both.json()).toEqual({ ...user, firstName: 'Both', lastName: 'Changed' });
      const nothing = await putSelf({}, pair.accessToken);
      expect(nothing.statusCode).toBe(200);
      expect(nothing.json()).toEqual(both.json());

      expect((await getSelf(pair.accessToken)).json()).toEqual(both.json());
      const asAdmin = (await t.request({ method: 'GET', url: `/api/users/${user.id}`, token: await t.adminToken() })).json();
      expect(asAdmin).toEqual(both.json());
    });

    it('refuses role, email, enabled and other members with 400 naming the field, changing nothing', async () => {
      const { user, pair } = await freshUser();
      const cases: [Record<string, unknown>, string][] = [
        [{ role: 'ADMIN' }, 'role'],
        [{ firstName: 'Sneaky', role: 'ADMIN' }, 'role'],
        [{ role: 'USER' }, 'role'],
        [{ email: 'taken.over@example.test' }, 'email'],
        [{ enabled: false }, 'enabled'],
        [{ ldap: true }, 'ldap'],
        [{ id: '00000000-0000-4000-8000-000000000000' }, 'id'],
        [{ password: 'new-password-1' }, 'password'],
        [{ hasAvatar: true }, 'hasAvatar'],
      ];
      for (const [payload, field] of cases) {
        const problem = expectProblem(await putSelf(payload, pair.accessToken), 400, 'VALIDATION_FAILED');
        expect(fieldsOf(problem), JSON.stringify(payload)).toContain(field);
      }
      const self = (await getSelf(pair.accessToken)).json<UserBody>();
      expect(self).toEqual(user);
      expect(self.role).toBe('USER');
      // Still a USER where it matters.
      expectProblem(
        await t.request({ method: 'POST', url: '/api/users', token: pair.accessToken, payload: { firstName: 'A', lastName: 'B', email: 'a.b@example.test' } }),
        403,
        'FORBIDDEN',
      );
      expect(await loginStatus(user.email, 'first-password-1')).toBe(200);
    });

    it('refuses names of the wrong type or length with 400', async () => {
      const { user, pair } = await freshUser();
      const cases: [unknown, string][] = [
        [{ firstName: 5 }, 'firstName'],
        [{ firstName: '' }, 'firstName'],
        [{ firstName: '   ' }, 'firstName'],
        [{ lastName: null }, 'lastName'],
        [{ lastName: 'x'.repeat(201) }, 'lastName'],
      ];
      for (const [payload, field] of cases) {
        const problem = expectProblem(await putSelf(payload, pair.accessToken), 400, 'VALIDATION_FAILED');
        expect(fieldsOf(problem)).toContain(field);
      }
      expectProblem(
        await t.request({
          method: 'PUT',
          url: '/api/self',
          token: pair.accessToken,
          payload: '{"firstName":',
          headers: { 'content-type': 'application/json' },
        }),
        400,
        'MALFORMED_JSON',
      );
      expect((await getSelf(pair.accessToken)).json()).toEqual(user);
    });

    it('answers 401 without a token', async () => {
      expectProblem(await putSelf({ firstName: 'Nobody' }), 401, 'UNAUTHENTICATED');
    });
  });

  describe('PUT /api/self/password', () => {
    it('refuses a wrong current password with 400 INVALID_CURRENT_PASSWORD, changing nothing', async () => {
      const { user, pair, password } = await freshUser();
      const problem = expectProblem(
        await changePassword({ currentPassword: 'wrong-password-1', newPassword: 'second-password-1' }, pair.accessToken),
        400,
        'INVALID_CURRENT_PASSWORD',
      );
      expect(fieldsOf(problem)).toEqual(['currentPassword']);
      expect((await getSelf(pair.accessToken)).statusCode).toBe(200);
      expect(await loginStatus(user.email, 'second-password-1')).toBe(401);
      expect(await loginStatus(user.email, password)).toBe(200);
    });

    it('refuses a new password that is too short or too long with 400, changing nothing', async () => {
      const { user, pair, password } = await freshUser();
      for (const newPassword of ['seven77', '', 'n'.repeat(257)]) {
        const problem = expectProblem(await changePassword({ currentPassword: password, newPassword }, pair.accessToken), 400, 'VALIDATION_FAILED');
        expect(fieldsOf(problem)).toEqual(['newPassword']);
      }
      expect(await loginStatus(user.email, 'seven77')).toBe(401);
      expect(await loginStatus(user.email, password)).toBe(200);
    });

    it('refuses bad bodies with 400', async () => {
      const { pair, password } = await freshUser();
      const cases: [unknown, string][] = [
        [{ newPassword: 'second-password-1' }, 'currentPassword'],
        [{ currentPassword: password }, 'newPassword'],
        [{ currentPassword: password, newPassword: 12345678 }, 'newPassword'],
        [{ currentPassword: password, newPassword: 'second-password-1', userId: pair.userId }, 'userId'],
      ];
      for (const [payload, field] of cases) {
        const problem = expectProblem(await changePassword(payload, pair.accessToken), 400, 'VALIDATION_FAILED');
        expect(fieldsOf(problem)).toContain(field);
      }
      expectProblem(await changePassword({ currentPassword: password, newPassword: 'second-password-1' }), 401, 'UNAUTHENTICATED');
    });

    it('answers 204; the current token keeps working, other sessions end, the new password signs in and the old does not', async () => {
      const { user, pair: current, password } = await freshUser();
      const other = await t.login(user.email, password);
      const third = await t.login(user.email, password);

      const response = await changePassword({ currentPassword: password, newPassword: 'second-password-1' }, current.accessToken);
      expect(response.statusCode).toBe(204);
      expect(response.body).toBe('');

      expect((await getSelf(current.accessToken)).json()).toMatchObject({ id: user.id });
      for (const pair of [other, third]) {
        expectProblem(await getSelf(pair.accessToken), 401, 'INVALID_TOKEN');
        expectProblem(await t.request({ method: 'POST', url: '/api/auth/refresh', payload: { refreshToken: pair.refreshToken } }), 401);
      }
      // The current session also keeps its refresh token.
      const refreshed = await t.request({ method: 'POST', url: '/api/auth/refresh', payload: { refreshToken: current.refreshToken } });
      expect(refreshed.statusCode).toBe(200);

      expect(await loginStatus(user.email, password)).toBe(401);
      const fresh = await t.login(user.email, 'second-password-1');
      expect((await getSelf(fresh.accessToken)).json()).toMatchObject({ id: user.id });
    });

    it("does not touch other users' sessions", async () => {
      const a = await freshUser();
      const b = await freshUser();
      expect((await changePassword({ currentPassword: a.password, newPassword: 'second-password-1' }, a.pair.accessToken)).statusCode).toBe(204);
      expect((await getSelf(b.pair.accessToken)).statusCode).toBe(200);
      expect((await getSelf(await t.adminToken())).statusCode).toBe(200);
    });

    it('refuses a directory user with 409 DIRECTORY_USER', async () => {
      const user = await t.createUser({ email: 'self.directory.password@example.test', ldap: true });
      const pair = await t.login(user.email, DIRECTORY_PASSWORD);
      expectProblem(await changePassword({ currentPassword: DIRECTORY_PASSWORD, newPassword: 'local-password-1' }, pair.accessToken), 409, 'DIRECTORY_USER');
      expect(await loginStatus(user.email, 'local-password-1')).toBe(401);
    });

    it('counts wrong current passwords toward the account limit: 429 with Retry-After, then the window passes', async () => {
      const { user, pair, password } = await freshUser();
      for (let attempt = 0; attempt < 3; attempt++) {
        expectProblem(
          await changePassword({ currentPassword: `wrong-password-${attempt}`, newPassword: 'second-password-1' }, pair.accessToken),
          400,
          'INVALID_CURRENT_PASSWORD',
        );
      }
      const limited = await changePassword({ currentPassword: 'wrong-password-9', newPassword: 'second-password-1' }, pair.accessToken);
      expectProblem(limited, 429, 'TOO_MANY_REQUESTS');
      const retryAfter = Number(limited.headers['retry-after']);
      expect(Number.isInteger(retryAfter)).toBe(true);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(15 * 60);

      // While limited, even the right current password is refused and changes nothing; so is sign-in.
      expectProblem(await changePassword({ currentPassword: password, newPassword: 'second-password-1' }, pair.accessToken), 429, 'TOO_MANY_REQUESTS');
      expectProblem(await t.request({ method: 'POST', url: '/api/auth/login', payload: { email: user.email, password } }), 429, 'TOO_MANY_REQUESTS');
      // The token itself still works, and other accounts are not limited.
      expect((await getSelf(pair.accessToken)).statusCode).toBe(200);
      const other = await freshUser();
      expect((await changePassword({ currentPassword: other.password, newPassword: 'second-password-1' }, other.pair.accessToken)).statusCode).toBe(204);

      const step = 15 * 60_000 + 1000;
      t.clock.advance(step);
      try {
        // The access token of the limited session has expired meanwhile; sign in again.
        const again = await t.login(user.email, password);
        expect((await changePassword({ currentPassword: password, newPassword: 'second-password-1' }, again.accessToken)).statusCode).toBe(204);
        expect(await loginStatus(user.email, 'second-password-1')).toBe(200);
      } finally {
        t.clock.advance(-step);
      }
    });
  });
});
