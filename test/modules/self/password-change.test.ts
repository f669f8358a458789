import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../../src/db/schema.js';
import { ADMIN_EMAIL, createTestApp, expectProblem, type TestApp, type TokenPairBody } from '../../helpers/app.js';

/**
 * An account created with a generated password (the printed admin@localhost one) must choose its
 * own before anything else (docs/behaviour.md, "Generated passwords").
 */

const GENERATED_ADMIN = 'admin@localhost';

/** Exactly the operations a caller who must change their password may still use. */
const ALLOWED = [
  'GET /api/self',
  'PUT /api/self/password',
  'POST /api/auth/logout',
  'GET /api/sessions',
  'GET /api/users/{id}/sessions',
  'DELETE /api/sessions/{id}',
];

const mustChange = async (t: TestApp, email: string) => {
  const [row] = await t.database.handle.db.select({ flag: users.mustChangePassword }).from(users).where(eq(users.email, email));
  return row?.flag;
};

interface Operation {
  name: string;
  method: string;
  path: string;
  isPublic: boolean;
  responses: Record<string, { description?: string }>;
}

/** Every operation of the service's own OpenAPI document. */
function operationsOf(t: TestApp): Operation[] {
  const document = t.app.swagger() as unknown as { paths: Record<string, Record<string, { security?: unknown[]; responses: Operation['responses'] }>> };
  return Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.entries(operations).map(([method, operation]) => ({
      name: `${method.toUpperCase()} ${path}`,
      method: method.toUpperCase(),
      path,
      isPublic: Array.isArray(operation.security) && operation.security.length === 0,
      responses: operation.responses,
    })),
  );
}

const flag = (t: TestApp, email: string) => t.database.handle.db.update(users).set({ mustChangePassword: true }).where(eq(users.email, email));

describe('the generated first admin', () => {
  it('is marked to change its password; an admin from ADMIN_EMAIL and ADMIN_PASSWORD is not', async () => {
    const generated = await createTestApp({ env: { ADMIN_EMAIL: '', ADMIN_PASSWORD: '' } });
    try {
      expect(await mustChange(generated, GENERATED_ADMIN)).toBe(true);
    } finally {
      await generated.close();
    }
    const configured = await createTestApp();
    try {
      expect(await mustChange(configured, ADMIN_EMAIL)).toBe(false);
    } finally {
      await configured.close();
    }
  });
});

describe('a password an admin sets (docs/behaviour.md#passwords-chosen-by-someone-else)', () => {
  it("must be replaced by its owner at the next sign-in (the default); an admin's own need not", async () => {
    const t = await createTestApp({ env: { PASSWORD_CHANGE_AFTER_ADMIN_SET: 'true' } });
    try {
      const user = await t.createUser({ email: 'chosen.by.admin@example.test', password: 'admin-chosen-1' });
      expect(await mustChange(t, 'chosen.by.admin@example.test')).toBe(true);
      const pair = await t.login('chosen.by.admin@example.test', 'admin-chosen-1');
      expectProblem(await t.request({ method: 'GET', url: '/api/reservation', token: pair.accessToken }), 403, 'PASSWORD_CHANGE_REQUIRED');
      // The password the admin typed is not one of the person's own.
      const same = await t.request({
        method: 'PUT',
        url: '/api/self/password',
        token: pair.accessToken,
        payload: { currentPassword: 'admin-chosen-1', newPassword: 'admin-chosen-1' },
      });
      expect(expectProblem(same, 400, 'PASSWORD_UNCHANGED').errors).toEqual([{ field: 'newPassword', message: 'must differ from the current password' }]);
      expect(await mustChange(t, user.email)).toBe(true);
      const own = await t.request({
        method: 'PUT',
        url: '/api/self/password',
        token: pair.accessToken,
        payload: { currentPassword: 'admin-chosen-1', newPassword: 'my-very-own-1' },
      });
      expect(own.statusCode, own.body).toBe(204);
      expect(await mustChange(t, user.email)).toBe(false);

      // An admin who sets their own password through the users route chose it.
      const admin = await t.login(ADMIN_EMAIL, 'admin-password-1');
      const own2 = await t.request({
        method: 'PUT',
        url: `/api/users/${admin.userId}/password`,
        token: admin.accessToken,
        payload: { password: 'admin-password-2' },
      });
      expect(own2.statusCode).toBe(204);
      expect(await mustChange(t, ADMIN_EMAIL)).toBe(false);
    } finally {
      await t.close();
    }
  });

  it('may be kept when PASSWORD_CHANGE_AFTER_ADMIN_SET is false', async () => {
    const t = await createTestApp({ env: { PASSWORD_CHANGE_AFTER_ADMIN_SET: 'false' } });
    try {
      await t.createUser({ email: 'kept@example.test', password: 'admin-chosen-1' });
      expect(await mustChange(t, 'kept@example.test')).toBe(false);
      const pair = await t.login('kept@example.test', 'admin-chosen-1');
      expect((await t.request({ method: 'GET', url: '/api/reservation', token: pair.accessToken })).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });
});

describe('a caller who must change their password', () => {
  let t: TestApp;
  let counter = 0;
  const PASSWORD = 'generated-pass-1';

  /** A fresh admin marked to change their password, signed in (sign-in itself answers the usual pair). */
  async function flaggedAdmin(): Promise<{ id: string; email: string; pair: TokenPairBody }> {
    counter += 1;
    const email = `flagged.${counter}@example.test`;
    const user = await t.createUser({ email, role: 'ADMIN', password: PASSWORD });
    await flag(t, email);
    const pair = await t.login(email, PASSWORD);
    expect(Object.keys(pair).sort()).toEqual(['accessToken', 'expiresAt', 'refreshExpiresAt', 'refreshToken', 'sessionId', 'tokenType', 'userId']);
    return { id: user.id, email, pair };
  }

  beforeAll(async () => {
    t = await createTestApp({ env: { LOGIN_MAX_ATTEMPTS_PER_ADDRESS: '100000' } });
  });
  afterAll(() => t?.close());

  it('gets 403 PASSWORD_CHANGE_REQUIRED from every authenticated operation but the allowed few', async () => {
    const { pair } = await flaggedAdmin();
    const checked: string[] = [];
    for (const { name, method, path, isPublic } of operationsOf(t)) {
      if (isPublic || ALLOWED.includes(name)) continue;
      const url = path.replace(/\{[^}]+\}/g, randomUUID());
      const response = await t.request({
        method: method as 'GET',
        url,
        token: pair.accessToken,
        ...(method === 'GET' || method === 'DELETE' ? {} : { payload: {} }),
      });
      const problem = expectProblem(response, 403, 'PASSWORD_CHANGE_REQUIRED');
      expect(problem.detail).toMatch(/password/i);
      checked.push(name);
    }
    // The gate was really exercised, on admin-only and everyone's operations alike.
    expect(checked).toEqual(
      expect.arrayContaining(['GET /api/users', 'POST /api/users', 'PUT /api/self', 'GET /api/reservation', 'POST /api/search/rooms', 'GET /api/stats']),
    );
    expect(checked.length).toBeGreaterThan(30);
  });

  it('documents the 403 on every operation it applies to', async () => {
    const gated = operationsOf(t).filter(({ name, isPublic }) => !isPublic && !ALLOWED.includes(name));
    expect(gated.length).toBeGreaterThan(30);
    for (const { name, responses } of gated) expect(responses['403']?.description, name).toContain('PASSWORD_CHANGE_REQUIRED');
  });

  it('may read itself, refresh, see and end only its own sessions, and sign out', async () => {
    const other = await t.login(ADMIN_EMAIL, 'admin-password-1');
    const { id, email, pair } = await flaggedAdmin();
    const second = await t.login(email, PASSWORD);

    const self = await t.request({ method: 'GET', url: '/api/self', token: pair.accessToken });
    expect(self.statusCode).toBe(200);
    expect(self.json()).toMatchObject({ id, email, role: 'ADMIN' });

    // An admin's session operations shrink to their own while the password must change.
    const sessions = await t.request({ method: 'GET', url: '/api/sessions', token: pair.accessToken, query: { size: '1000' } });
    expect(sessions.statusCode).toBe(200);
    expect(new Set(sessions.json().content.map((session: { userId: string }) => session.userId))).toEqual(new Set([id]));
    expectProblem(await t.request({ method: 'GET', url: '/api/sessions', token: pair.accessToken, query: { userId: other.userId } }), 403, 'FORBIDDEN');
    expect((await t.request({ method: 'GET', url: `/api/users/${id}/sessions`, token: pair.accessToken })).statusCode).toBe(200);
    expectProblem(await t.request({ method: 'GET', url: `/api/users/${other.userId}/sessions`, token: pair.accessToken }), 403, 'FORBIDDEN');
    expectProblem(await t.request({ method: 'DELETE', url: `/api/sessions/${other.sessionId}`, token: pair.accessToken }), 403, 'FORBIDDEN');
    expect((await t.request({ method: 'GET', url: '/api/self', token: other.accessToken })).statusCode).toBe(200);
    expect((await t.request({ method: 'DELETE', url: `/api/sessions/${second.sessionId}`, token: pair.accessToken })).statusCode).toBe(204);
    expectProblem(await t.request({ method: 'GET', url: '/api/self', token: second.accessToken }), 401, 'INVALID_TOKEN');

    const refreshed = await t.request({ method: 'POST', url: '/api/auth/refresh', payload: { refreshToken: pair.refreshToken } });
    expect(refreshed.statusCode).toBe(200);
    const next = refreshed.json<TokenPairBody>();
    expectProblem(await t.request({ method: 'GET', url: '/api/users', token: next.accessToken }), 403, 'PASSWORD_CHANGE_REQUIRED');
    expect((await t.request({ method: 'POST', url: '/api/auth/logout', token: next.accessToken })).statusCode).toBe(204);
    expectProblem(await t.request({ method: 'GET', url: '/api/self', token: next.accessToken }), 401, 'INVALID_TOKEN');
  });

  it('is let through once it has changed its own password, at once and on the same token', async () => {
    const { email, pair } = await flaggedAdmin();
    expectProblem(await t.request({ method: 'GET', url: '/api/users', token: pair.accessToken }), 403, 'PASSWORD_CHANGE_REQUIRED');
    const changed = await t.request({
      method: 'PUT',
      url: '/api/self/password',
      token: pair.accessToken,
      payload: { currentPassword: PASSWORD, newPassword: 'my-own-choice-1' },
    });
    expect(changed.statusCode, changed.body).toBe(204);
    expect(await mustChange(t, email)).toBe(false);
    expect((await t.request({ method: 'GET', url: '/api/users', token: pair.accessToken })).statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: '/api/users', token: (await t.login(email, 'my-own-choice-1')).accessToken })).statusCode).toBe(200);
  });

  it('is let through once an admin has set its password, with PASSWORD_CHANGE_AFTER_ADMIN_SET off (the suite runs so)', async () => {
    const { id, email } = await flaggedAdmin();
    const set = await t.request({ method: 'PUT', url: `/api/users/${id}/password`, token: await t.adminToken(), payload: { password: 'set-by-admin-1' } });
    expect(set.statusCode).toBe(204);
    expect(await mustChange(t, email)).toBe(false);
    expect((await t.request({ method: 'GET', url: '/api/users', token: (await t.login(email, 'set-by-admin-1')).accessToken })).statusCode).toBe(200);
  });

  it('may not keep the generated password: the same one again is 400 PASSWORD_UNCHANGED, and it stays held back', async () => {
    const { email, pair } = await flaggedAdmin();
    const same = await t.request({
      method: 'PUT',
      url: '/api/self/password',
      token: pair.accessToken,
      payload: { currentPassword: PASSWORD, newPassword: PASSWORD },
    });
    expectProblem(same, 400, 'PASSWORD_UNCHANGED');
    expect(await mustChange(t, email)).toBe(true);
    expectProblem(await t.request({ method: 'GET', url: '/api/users', token: pair.accessToken }), 403, 'PASSWORD_CHANGE_REQUIRED');
    // The old password still signs in: nothing was changed.
    expect((await t.login(email, PASSWORD)).accessToken).toBeTruthy();
  });

  it('stays held back by a refused password change', async () => {
    const { email, pair } = await flaggedAdmin();
    const wrong = await t.request({
      method: 'PUT',
      url: '/api/self/password',
      token: pair.accessToken,
      payload: { currentPassword: 'not-the-password', newPassword: 'my-own-choice-2' },
    });
    expectProblem(wrong, 400, 'INVALID_CURRENT_PASSWORD');
    expect(await mustChange(t, email)).toBe(true);
    expectProblem(await t.request({ method: 'GET', url: '/api/users', token: pair.accessToken }), 403, 'PASSWORD_CHANGE_REQUIRED');
  });
});
