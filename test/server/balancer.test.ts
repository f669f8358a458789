import { setTimeout as sleep } from 'node:timers/promises';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../helpers/app.js';
import { adminUrl, createPostgresDatabase } from '../helpers/database.js';
import { haproxyInstalled, startHaProxy, type HaProxy } from '../helpers/haproxy.js';
import { adminWithDesk, call, slot, summary, timed, type Outcome } from '../helpers/load.js';
import { pgbouncerInstalled, startPgBouncer, type PgBouncer } from '../helpers/pgbouncer.js';
import { freePort, killServers, startServer, stopServer, waitHealthy, type ServerProcess } from '../helpers/server-process.js';

/**
 * Three server processes behind a real HAProxy that checks /api/health/ready, all reaching
 * PostgreSQL through a real PgBouncer in transaction mode whose pool (4 server connections) is
 * smaller than the processes' pools (3 × 4): docs/deployment.md#behind-a-load-balancer and
 * docs/deployment.md#through-pgbouncer-in-transaction-mode. A booking storm makes one booking,
 * a sign-out in one process is refused by the others at once, statistics read in one process
 * show a booking made in another, sign-in failures count across processes, and a rolling restart under load (docs/deployment.md#rolling-restarts) answers every
 * request with 200, loses no acknowledged booking and leaves no overlap.
 */

const POOL_SIZE = 4;
const FAILURES = 3;
const RATE_MS = 20;

async function ready(server: ServerProcess, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const response = await fetch(`${server.base}/api/health/ready`).catch(() => undefined);
    if (response?.status === 200) return;
    await sleep(100);
  }
  throw new Error(`not ready within ${timeoutMs} ms`);
}

describe.runIf(pgbouncerInstalled() && haproxyInstalled())('three processes behind HAProxy, through PgBouncer', () => {
  let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let bouncer: PgBouncer;
  let balancer: HaProxy;
  let front: ServerProcess;
  const servers: ServerProcess[] = [];
  let env: Record<string, string>;
  let token: string;
  let deskId: string;

  beforeAll(async () => {
    database = await createPostgresDatabase();
    bouncer = await startPgBouncer(adminUrl(), { poolSize: POOL_SIZE });
    env = {
      DATABASE_URL: bouncer.through(database.url),
      DATABASE_POOLER: 'transaction',
      DATABASE_POOL_SIZE: String(POOL_SIZE),
      ADMIN_EMAIL,
      ADMIN_PASSWORD,
      LOG_LEVEL: 'warn',
      REQUEST_LOG: 'false',
      SHUTDOWN_DRAIN_DELAY: '1s',
      LOGIN_MAX_FAILURES_PER_ACCOUNT: String(FAILURES),
    };
    const ports = [await freePort(), await freePort(), await freePort()];
    // The database is a copy of the migrated template: no process has migrations to apply, so they start together.
    servers.push(...ports.map((port) => startServer(env, port)));
    await Promise.all(servers.map((server) => waitHealthy(server)));
    balancer = await startHaProxy(ports);
    front = { base: balancer.base } as ServerProcess;
    await Promise.all(servers.map((server) => ready(server)));
    await balancer.waitUp(['s1', 's2', 's3']);
    ({ token, deskId } = await adminWithDesk(front));
  }, 120_000);

  afterAll(async () => {
    await Promise.all(servers.filter((server) => !server.exit).map((server) => stopServer(server).catch(() => undefined)));
    await killServers();
    await balancer?.stop();
    await bouncer?.stop();
    await database?.drop();
  });

  it('a booking storm over the three processes makes exactly one booking of a slot', async () => {
    const wanted = slot(deskId, 100_000);
    const answers = await Promise.all(
      Array.from({ length: 45 }, (_, index) => call(servers[index % 3]!, 'POST', '/api/reservation', { token, body: wanted }).then((r) => r.status)),
    );
    expect(answers.filter((status) => status === 200)).toHaveLength(1);
    expect(answers.filter((status) => status !== 200 && status !== 409)).toEqual([]);
  });

  it('a sign-out in one process is refused by the others at once', async () => {
    const login = await call(servers[0]!, 'POST', '/api/auth/login', { body: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD } });
    const session = ((await login.json()) as { accessToken: string }).accessToken;
    for (const server of servers) expect((await call(server, 'GET', '/api/self', { token: session })).status).toBe(200);
    expect((await call(servers[1]!, 'POST', '/api/auth/logout', { token: session })).status).toBe(204);
    for (const server of servers) expect((await call(server, 'GET', '/api/self', { token: session })).status).toBe(401);
  });

  it('statistics read in one process show a booking just made in another', async () => {
    const totals = async (server: ServerProcess) =>
      ((await (await call(server, 'GET', '/api/stats', { token })).json()) as { totalReservations: number }).totalReservations;
    const before = await totals(servers[2]!);
    expect((await call(servers[0]!, 'POST', '/api/reservation', { token, body: slot(deskId, 200_000) })).status).toBe(200);
    expect(await totals(servers[2]!)).toBe(before + 1);
    expect(await totals(servers[1]!)).toBe(before + 1);
  });

  it('a rolling restart under load answers every request, loses no acknowledged booking and leaves no overlap', async () => {
    const t0 = Date.now();
    const outcomes: Promise<Outcome>[] = [];
    let running = true;
    let n = 0;
    const load = (async () => {
      while (running) {
        const i = n++;
        outcomes.push(
          i % 2 === 0
            ? timed(t0, 'read', () => call(front, 'GET', `/api/reservation?deskId=${deskId}&size=5`, { token }))
            : timed(t0, 'book', () => call(front, 'POST', '/api/reservation', { token, body: slot(deskId, i) })),
        );
        await sleep(RATE_MS);
      }
    })();

    // The load runs a while before, between and after the restarts: the time passing is the point.
    await sleep(1000);
    const restarts: string[] = [];
    for (let index = 0; index < servers.length; index++) {
      const old = servers[index]!;
      const began = Date.now() - t0;
      old.child.kill('SIGTERM');
      // Draining (SHUTDOWN_DRAIN_DELAY): readiness fails at once while requests are still served.
      await expect.poll(async () => (await fetch(`${old.base}/api/health/ready`)).status, { timeout: 5000, interval: 20 }).toBe(503);
      expect((await call(old, 'GET', '/api/self', { token })).status).toBe(200);
      const exit = await stopServer(old);
      expect(exit).toEqual({ code: 0, signal: null });
      const fresh = startServer(env, old.port);
      await waitHealthy(fresh);
      await ready(fresh);
      servers[index] = fresh;
      restarts.push(`s${index + 1} ${began}-${Date.now() - t0} ms`);
      await balancer.waitUp(['s1', 's2', 's3']); // HAProxy sees it up (rise 2 × 200 ms) before the next goes down
    }
    await sleep(500);
    running = false;
    await load;
    const all = await Promise.all(outcomes);
    const report = `${all.length} requests (${summary(all)}); restarts ${restarts.join(', ')}`;
    console.log(`[rolling restart] ${report}`);

    expect(all.length).toBeGreaterThan(100);
    // 0 connection errors, 0 5xx: every request answered 200 (each booking takes a slot of its own).
    expect(
      all.filter((o) => o.status !== 200),
      report,
    ).toEqual([]);
    const acknowledged = all.filter((o) => o.kind === 'book').map((o) => o.id!);
    const sql = postgres(database.url, { max: 1, onnotice: () => {} });
    try {
      const rows = await sql<{ id: string }[]>`select id from reservations where id = any(${acknowledged}::uuid[])`;
      expect(rows.length, report).toBe(acknowledged.length);
      const [overlaps] = await sql<{ count: number }[]>`
        select count(*)::int as count from reservations a join reservations b
          on a.id < b.id and (a.desk_id = b.desk_id or a.user_id = b.user_id)
         and tstzrange(a.start_time, a.end_time) && tstzrange(b.start_time, b.end_time)`;
      expect(overlaps!.count).toBe(0);
    } finally {
      await sql.end();
    }
  }, 120_000);

  it('counts sign-in failures of one account across the processes', async () => {
    for (let attempt = 0; attempt < FAILURES; attempt++) {
      const response = await call(servers[attempt % 3]!, 'POST', '/api/auth/login', { body: { email: ADMIN_EMAIL, password: 'wrong-password-1' } });
      expect(response.status).toBe(401);
    }
    for (const server of servers) {
      const response = await call(server, 'POST', '/api/auth/login', { body: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD } });
      expect(response.status).toBe(429);
    }
  });
});
