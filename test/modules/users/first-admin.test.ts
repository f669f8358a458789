import { afterEach, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, ADMIN_PASSWORD, createTestApp, type TestApp } from '../../helpers/app.js';
import { createTestDatabase, type TestDatabase } from '../../helpers/database.js';

/**
 * The first admin is bootstrapped only while no admin exists, whatever ADMIN_EMAIL and
 * ADMIN_PASSWORD say (docs/behaviour.md, "Users"). Each test restarts the app on one database.
 */

describe('first-admin bootstrap', () => {
  const open: TestApp[] = [];
  let database: TestDatabase | undefined;

  /** Starts (or restarts) the service on this test's database. */
  async function start(env: Record<string, string> = {}): Promise<TestApp> {
    database ??= await createTestDatabase();
    const t = await createTestApp({ database, env });
    open.push(t);
    return t;
  }

  async function emails(t: TestApp, token: string): Promise<string[]> {
    const response = await t.request({ method: 'GET', url: '/api/users', token, query: { size: '1000' } });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ content: { email: string }[] }>().content.map((user) => user.email);
  }

  afterEach(async () => {
    for (const t of open.splice(0)) await t.close();
    await database?.dispose();
    database = undefined;
  });

  it('does not bring back the ADMIN_EMAIL admin once it was deleted while another admin exists', async () => {
    const first = await start();
    const other = await first.createUser({ email: 'second.admin@example.test', role: 'ADMIN', password: 'second-admin-1' });
    const deleted = await first.request({
      method: 'DELETE',
      url: `/api/users/${(await first.login(ADMIN_EMAIL, ADMIN_PASSWORD)).userId}`,
      token: (await first.login(other.email, 'second-admin-1')).accessToken,
    });
    expect(deleted.statusCode, deleted.body).toBe(204);
    await first.close();

    const restarted = await start();
    const token = (await restarted.login(other.email, 'second-admin-1')).accessToken;
    expect(await emails(restarted, token)).toEqual([other.email]);
    expect((await restarted.request({ method: 'POST', url: '/api/auth/login', payload: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD } })).statusCode).toBe(
      401,
    );
  });

  it('does not create the ADMIN_EMAIL admin when another admin already exists', async () => {
    // First start without settings: the generated admin. Later the operator sets ADMIN_EMAIL.
    const first = await start({ ADMIN_EMAIL: '', ADMIN_PASSWORD: '' });
    await first.close();
    const restarted = await start({ ADMIN_EMAIL: 'late.admin@example.test', ADMIN_PASSWORD: 'late-admin-pw-1' });
    expect(
      (await restarted.request({ method: 'POST', url: '/api/auth/login', payload: { email: 'late.admin@example.test', password: 'late-admin-pw-1' } }))
        .statusCode,
    ).toBe(401);
  });

  it('creates the ADMIN_EMAIL admin when no admin exists, and only once', async () => {
    const first = await start();
    const id = (await first.login(ADMIN_EMAIL, ADMIN_PASSWORD)).userId;
    await first.close();
    const restarted = await start();
    const pair = await restarted.login(ADMIN_EMAIL, ADMIN_PASSWORD);
    expect(pair.userId).toBe(id);
    expect(await emails(restarted, pair.accessToken)).toEqual([ADMIN_EMAIL]);
  });
});
