import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../src/db/client.js';
import { ThrottleRepository } from '../../../src/identity/throttle.js';
import { purgeJobs } from '../../../src/app.js';
import { housekeep } from '../../../src/infrastructure/housekeeping/housekeeping.js';
import { PasswordTokensRepository } from '../../../src/modules/password/password.repository.js';
import { createTestApp, type TestApp } from '../../helpers/app.js';

const DAY = 86_400_000;

describe('housekeeping', () => {
  let t: TestApp;
  const count = async (table: string) => Number((await queryRows<{ n: string }>(t.database.handle.db, sql.raw(`select count(*) as n from ${table}`)))[0]!.n);

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('removes ended sessions, old sign-in windows and failure counts and expired password links, and keeps the live ones', async () => {
    const db = t.database.handle.db;
    const start = t.clock.now();
    const old = await t.createUser({ email: 'old.session@example.test', password: 'old-session-1' });
    const fresh = await t.createUser({ email: 'fresh.session@example.test', password: 'fresh-session-1' });
    await t.login(old.email, 'old-session-1');
    const throttle = new ThrottleRepository(db);
    await throttle.hit({ key: 'address:192.0.2.1', limit: 100, windowMs: 60_000 }, start);
    const delays = { threshold: 1, baseMs: 1000, maxMs: 60_000, quietMs: 15 * 60_000 };
    await throttle.recordFailure('old.failures@example.test', start, delays);
    await new PasswordTokensRepository(db).replace(old.id, old.email, 'hash-of-old-link', 'reset', start, new Date(start.getTime() + 3_600_000));

    // 31 days on: the first session and link have ended; a new session, window and link are live.
    t.clock.advance(31 * DAY);
    const now = t.clock.now();
    const live = await t.login(fresh.email, 'fresh-session-1');
    await throttle.hit({ key: 'address:192.0.2.2', limit: 100, windowMs: 60_000 }, now);
    await throttle.recordFailure('fresh.failures@example.test', now, delays);
    await new PasswordTokensRepository(db).replace(fresh.id, fresh.email, 'hash-of-fresh-link', 'reset', now, new Date(now.getTime() + 3_600_000));
    const sessionsBefore = await count('sessions');
    const throttleBefore = await count('login_throttle');

    await housekeep(
      db,
      now,
      purgeJobs({ ...t.config, LOGIN_ACCOUNT_WINDOW: 15 * 60_000, LOGIN_ADDRESS_WINDOW: 15 * 60_000, PASSWORD_MAIL_COOLDOWN: 15 * 60_000 }),
    );

    expect(await count('sessions')).toBeLessThan(sessionsBefore);
    const sessionUsers = await queryRows<{ user_id: string }>(db, sql`select user_id from sessions`);
    expect(sessionUsers.map((row) => row.user_id)).not.toContain(old.id);
    expect(sessionUsers.map((row) => row.user_id)).toContain(fresh.id);
    expect((await t.request({ method: 'GET', url: '/api/self', token: live.accessToken })).statusCode).toBe(200);

    const keys = (await queryRows<{ key: string }>(db, sql`select key from login_throttle`)).map((row) => row.key);
    expect(keys).toContain('address:192.0.2.2');
    expect(keys).not.toContain('address:192.0.2.1');
    expect(await count('login_throttle')).toBeLessThan(throttleBefore);

    const accounts = await queryRows<{ account: string }>(db, sql`select account from login_account_failures`);
    expect(accounts.map((row) => row.account)).toEqual(['fresh.failures@example.test']);

    const links = await queryRows<{ user_id: string }>(db, sql`select user_id from password_tokens`);
    expect(links.map((row) => row.user_id)).toEqual([fresh.id]);
  });

  it('runs every job when one fails, then fails naming the jobs that failed', async () => {
    const ran: string[] = [];
    const jobs = [
      {
        name: 'broken job',
        purge: () => Promise.reject(new Error('boom')),
      },
      {
        name: 'slower job',
        // Finishes after the broken one has failed.
        purge: async () => {
          await new Promise((resolve) => setImmediate(resolve));
          ran.push('slower job');
        },
      },
    ];
    const failure = await housekeep(t.database.handle.db, t.clock.now(), jobs).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(ran).toEqual(['slower job']);
    expect(failure).toBeInstanceOf(AggregateError);
    expect((failure as AggregateError).message).toBe('housekeeping: broken job failed');
    expect((failure as AggregateError).errors).toEqual([new Error('boom')]);
    await expect(housekeep(t.database.handle.db, t.clock.now(), [jobs[1]!])).resolves.toBeUndefined();
  });
});
