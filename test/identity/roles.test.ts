import type { FastifyBaseLogger } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syncRole } from '../../src/identity/roles.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, createTestApp, type TestApp } from '../helpers/app.js';

/**
 * syncRole, shared by single sign-on and directory sign-in: promote, demote, and the last enabled
 * admin kept with a warning in the log (docs/behaviour.md#roles-from-the-provider-or-the-directory).
 */
describe('syncRole', () => {
  let t: TestApp;
  const lines: { level: string; message: string }[] = [];
  const log = {
    warn: (_object: unknown, message: string) => lines.push({ level: 'warn', message }),
    info: (_object: unknown, message: string) => lines.push({ level: 'info', message }),
  } as unknown as FastifyBaseLogger;

  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  const roleOf = async (id: string) => (await t.request({ method: 'GET', url: `/api/users/${id}`, token: await t.adminToken() })).json<{ role: string }>().role;

  it('never demotes the last enabled admin, and says so in the log', async () => {
    const admin = (await t.login(ADMIN_EMAIL, ADMIN_PASSWORD)).userId;
    const kept = await syncRole(t.database.handle.db, { userId: admin, admin: false, source: 'oidc', now: t.clock.now() }, log);
    expect(kept?.role).toBe('ADMIN');
    expect(lines).toEqual([{ level: 'warn', message: expect.stringContaining('the last enabled admin') }]);
  });

  it('promotes and demotes otherwise, logging each change', async () => {
    lines.length = 0;
    const user = await t.createUser({ email: 'roles@example.test' });
    expect((await syncRole(t.database.handle.db, { userId: user.id, admin: true, source: 'ldap', now: t.clock.now() }, log))?.role).toBe('ADMIN');
    expect(await roleOf(user.id)).toBe('ADMIN');
    expect((await syncRole(t.database.handle.db, { userId: user.id, admin: false, source: 'ldap', now: t.clock.now() }, log))?.role).toBe('USER');
    expect(await roleOf(user.id)).toBe('USER');
    expect(lines.map((line) => line.level)).toEqual(['info', 'info']);
  });
});
