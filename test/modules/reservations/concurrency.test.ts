import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, queryRows, type DatabaseHandle } from '../../../src/db/client.js';
import { users } from '../../../src/db/schema.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../../helpers/app.js';
import { createPostgresDatabase, serverDatabaseEnv, throughPgBouncer } from '../../helpers/database.js';
import { PGBOUNCER_POOL_SIZE } from '../../helpers/pgbouncer-setup.js';
import { insertDesk, insertDeskInNewRoom } from '../../helpers/fixtures.js';
import { freePort, killServers, startServer, stopServer, waitHealthy, type ServerProcess } from '../../helpers/server-process.js';

/**
 * The guarantee of docs/behaviour.md#reservations under load: many simultaneous overlapping bookings over HTTP,
 * through one server process and spread over two processes sharing one PostgreSQL database.
 * Exactly one wins, every other gets 409, none a 5xx, and no overlapping pair exists afterwards.
 * In the `pgbouncer` project both processes reach PostgreSQL through one PgBouncer pool of 3
 * server connections, fewer than their two pools of 10 (docs/deployment.md#through-pgbouncer-in-transaction-mode).
 */

const ATTEMPTS = 60;
const DAY = 86_400_000;

interface Outcome {
  attempts: number;
  ok: number;
  conflicts: number;
  /** Each answer of 500 or more as "status CODE: detail", so that a failure says what happened. */
  serverErrors: string[];
  /** Any other answer, as "status CODE". */
  other: string[];
}

describe('concurrent bookings against PostgreSQL over HTTP', () => {
  let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let handle: DatabaseHandle;
  let first: ServerProcess;
  let second: ServerProcess;
  let token: string;
  let userIds: string[];
  let day = 10;

  beforeAll(async () => {
    database = await createPostgresDatabase();
    const env = { ...serverDatabaseEnv(database.url), ADMIN_EMAIL, ADMIN_PASSWORD, LOG_LEVEL: 'warn', REQUEST_LOG: 'false' };
    first = startServer(env, await freePort());
    await waitHealthy(first);
    second = startServer(env, await freePort());
    await waitHealthy(second);
    handle = await openDatabase({ kind: 'postgres', url: database.url, poolSize: 2 });
    const rows = await handle.db
      .insert(users)
      .values(Array.from({ length: ATTEMPTS }, (_, i) => ({ email: `racer${i}@example.test`, firstName: 'Racer', lastName: String(i) })))
      .returning({ id: users.id });
    userIds = rows.map((row) => row.id);
    const login = await fetch(`${first.base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD }),
    });
    expect(login.status).toBe(200);
    token = ((await login.json()) as { accessToken: string }).accessToken;
  }, 120_000);

  afterAll(async () => {
    for (const server of [first, second]) if (server) await stopServer(server).catch(() => undefined);
    await killServers();
    await handle?.close();
    await database?.drop();
  });

  /** Fires every booking at once (round-robin over the servers) and tallies the answers. */
  async function race(servers: ServerProcess[], bookings: { deskId: string; userId: string; startTime: string; endTime: string }[]): Promise<Outcome> {
    const answers = await Promise.all(
      bookings.map(async (booking, i) => {
        const server = servers[i % servers.length]!;
        const response = await fetch(`${server.base}/api/reservation`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify(booking),
        });
        const text = await response.text();
        let body: { conflicts?: unknown[]; code?: string; detail?: string } = {};
        try {
          body = JSON.parse(text) as typeof body;
        } catch {
          body = { detail: text.slice(0, 200) };
        }
        if (response.status === 409) expect(body.conflicts, JSON.stringify(body)).toHaveLength(1);
        return { status: response.status, code: body.code, detail: body.detail };
      }),
    );
    const outcome: Outcome = {
      attempts: answers.length,
      ok: answers.filter(({ status }) => status === 200).length,
      conflicts: answers.filter(({ status }) => status === 409).length,
      serverErrors: answers.filter(({ status }) => status >= 500).map(({ status, code, detail }) => `${status} ${code}: ${detail}`),
      other: answers.filter(({ status }) => status !== 200 && status !== 409 && status < 500).map(({ status, code }) => `${status} ${code}`),
    };
    console.info(`[concurrency] ${servers.length} process(es): ${JSON.stringify(outcome)}`);
    return outcome;
  }

  /** Overlapping windows of one day: each starts a minute after the previous, all end together. */
  function window(i: number) {
    const start = Date.UTC(2031, 0, 1) + day * DAY + i * 60_000;
    return { startTime: new Date(start).toISOString(), endTime: new Date(Date.UTC(2031, 0, 1) + day * DAY + 4 * 3_600_000).toISOString() };
  }

  async function overlappingPairs(): Promise<number> {
    const [row] = await queryRows<{ pairs: number }>(
      handle.db,
      sql`select count(*)::int as pairs from reservations a join reservations b on a.id < b.id
          and tstzrange(a.start_time, a.end_time, '[)') && tstzrange(b.start_time, b.end_time, '[)')
          and (a.desk_id = b.desk_id or (a.user_id = b.user_id and a.user_exclusive and b.user_exclusive))`,
    );
    return row!.pairs;
  }

  it(`one desk, ${ATTEMPTS} users at once, one server process: exactly one booking succeeds`, async () => {
    const { desk } = await insertDeskInNewRoom(handle.db);
    day++;
    const outcome = await race(
      [first],
      userIds.map((userId, i) => ({ deskId: desk.id, userId, ...window(i) })),
    );
    expect(outcome).toEqual({ attempts: ATTEMPTS, ok: 1, conflicts: ATTEMPTS - 1, serverErrors: [], other: [] });
    expect(await overlappingPairs()).toBe(0);
  });

  it(`one desk, ${ATTEMPTS} users at once, spread over two server processes: exactly one succeeds`, async () => {
    const { desk } = await insertDeskInNewRoom(handle.db);
    day++;
    const outcome = await race(
      [first, second],
      userIds.map((userId, i) => ({ deskId: desk.id, userId, ...window(i) })),
    );
    expect(outcome).toEqual({ attempts: ATTEMPTS, ok: 1, conflicts: ATTEMPTS - 1, serverErrors: [], other: [] });
    expect(await overlappingPairs()).toBe(0);
  });

  it(`one user, ${ATTEMPTS} desks at once, over two server processes: the user ends up with exactly one`, async () => {
    const { room } = await insertDeskInNewRoom(handle.db);
    const desks = await Promise.all(Array.from({ length: ATTEMPTS }, (_, i) => insertDesk(handle.db, room.id, { name: `Desk ${i}` })));
    day++;
    const outcome = await race(
      [first, second],
      desks.map((desk, i) => ({ deskId: desk.id, userId: userIds[0]!, ...window(i) })),
    );
    expect(outcome).toEqual({ attempts: ATTEMPTS, ok: 1, conflicts: ATTEMPTS - 1, serverErrors: [], other: [] });
    expect(await overlappingPairs()).toBe(0);
  });

  it('many desks and users at once over two processes: every non-colliding booking succeeds', async () => {
    const { room } = await insertDeskInNewRoom(handle.db);
    const desks = await Promise.all(Array.from({ length: 10 }, (_, i) => insertDesk(handle.db, room.id, { name: `Busy ${i}` })));
    day++;
    // 60 bookings on 10 desks, each user once: 6 users compete for each desk.
    const outcome = await race(
      [first, second],
      userIds.map((userId, i) => ({ deskId: desks[i % desks.length]!.id, userId, ...window(i) })),
    );
    expect(outcome).toEqual({ attempts: ATTEMPTS, ok: desks.length, conflicts: ATTEMPTS - desks.length, serverErrors: [], other: [] });
    expect(await overlappingPairs()).toBe(0);
  });

  it.runIf(throughPgBouncer)('through PgBouncer the storms used no more server connections than its pool', async () => {
    // PgBouncer keeps its server connections open after the storms; the test's own pool of 2 is direct.
    const [row] = await queryRows<{ connections: number }>(
      handle.db,
      sql`select count(*)::int as connections from pg_stat_activity where datname = current_database()`,
    );
    expect(row!.connections).toBeGreaterThan(0);
    expect(row!.connections).toBeLessThanOrEqual(PGBOUNCER_POOL_SIZE + 2);
  });
});
