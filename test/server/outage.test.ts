import { setTimeout as sleep } from 'node:timers/promises';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../helpers/app.js';
import { adminWithDesk, call, slot, summary, timed, type Outcome } from '../helpers/load.js';
import { startPostgresCluster, type PostgresCluster } from '../helpers/postgres-cluster.js';
import { freePort, killServers, startServer, stopServer, waitHealthy, type ServerProcess } from '../helpers/server-process.js';

/**
 * A database outage under load (docs/behaviour.md, Health and database outages): a server process on a
 * PostgreSQL cluster of its own, 20 requests a second (reads and bookings), the cluster stopped
 * for 5 s (`pg_ctl stop -m immediate`: no goodbye to the clients, crash recovery at the restart)
 * and started again. While it is down every request answers 503 SERVICE_UNAVAILABLE with
 * Retry-After within 2 s; it recovers without a restart; no acknowledged booking is lost.
 * PostgreSQL only: the embedded database lives inside the server process and cannot go away alone.
 */

const RATE_MS = 50;
const BEFORE_MS = 3000;
const DOWN_MS = 5000;
const AFTER_MS = 6000;
const FAST_MS = 2000;
const RECOVERY_MS = 3000;

describe('a PostgreSQL outage under load', () => {
  let cluster: PostgresCluster | undefined;
  let server: ServerProcess;
  let databaseUrl: string;
  let token: string;
  let deskId: string;

  beforeAll(async () => {
    cluster = await startPostgresCluster();
    const admin = postgres(cluster.url, { max: 1, onnotice: () => {} });
    await admin.unsafe('create database deskbook');
    await admin.end();
    databaseUrl = cluster.url.replace(/\/postgres$/, '/deskbook');
    server = startServer({ DATABASE_URL: databaseUrl, ADMIN_EMAIL, ADMIN_PASSWORD, LOG_LEVEL: 'warn', REQUEST_LOG: 'false' }, await freePort());
    await waitHealthy(server);
    ({ token, deskId } = await adminWithDesk(server));
  }, 90_000);

  afterAll(async () => {
    if (server && !server.exit) await stopServer(server).catch(() => undefined);
    await killServers();
    await cluster?.destroy();
  });

  it('answers 503 fast while the database is down, recovers without a restart and loses no acknowledged booking', async () => {
    const t0 = Date.now();
    const outcomes: Promise<Outcome>[] = [];
    const readiness: Promise<Outcome>[] = [];
    const liveness: Promise<Outcome>[] = [];
    let n = 0;
    let stopping = true;
    const load = (async () => {
      while (stopping) {
        const i = n++;
        outcomes.push(
          i % 2 === 0
            ? timed(t0, 'read', () => call(server, 'GET', `/api/reservation?deskId=${deskId}&size=5`, { token }))
            : timed(t0, 'book', () => call(server, 'POST', '/api/reservation', { token, body: slot(deskId, i) })),
        );
        if (i % 5 === 0) readiness.push(timed(t0, 'read', () => call(server, 'GET', '/api/health/ready')));
        if (i % 20 === 0) liveness.push(timed(t0, 'read', () => call(server, 'GET', '/api/health')));
        await sleep(RATE_MS);
      }
    })();

    // Load before, during and after the outage for fixed spans: the time passing is the point.
    await sleep(BEFORE_MS);
    const stopBegan = Date.now() - t0;
    await cluster!.stop('immediate');
    const down = Date.now() - t0;
    await sleep(DOWN_MS);
    const startBegan = Date.now() - t0;
    await cluster!.start();
    const up = Date.now() - t0;
    await sleep(AFTER_MS);
    stopping = false;
    await load;
    const all = await Promise.all(outcomes);
    const ready = await Promise.all(readiness);
    const live = await Promise.all(liveness);

    const during = all.filter((o) => o.start >= down && o.end < startBegan);
    const startedDuring = all.filter((o) => o.start >= stopBegan && o.start < startBegan);
    const recovered = all.filter((o) => o.start >= up + RECOVERY_MS);
    const firstOk = all.find((o) => o.start >= up && o.status === 200);
    const slowest = Math.max(...startedDuring.map((o) => o.end - o.start));
    const report =
      `stop ${stopBegan}-${down} ms, start ${startBegan}-${up} ms; ${all.length} requests (${summary(all)}); ` +
      `during the outage: ${summary(during)}, slowest ${slowest} ms; first 200 ${firstOk ? firstOk.end - up : 'never'} ms after the restart`;
    console.log(report);

    // Every request got an answer, none a 500.
    expect(
      all.filter((o) => o.status === 0 || (o.status >= 500 && o.status !== 503)),
      report,
    ).toEqual([]);
    // Down: 503 SERVICE_UNAVAILABLE with Retry-After, within 2 s, for reads and bookings alike.
    expect(during.length, report).toBeGreaterThan(40);
    for (const outcome of during) {
      expect(outcome, report).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE' });
      expect(Number(outcome.retryAfter)).toBeGreaterThanOrEqual(1);
    }
    // Requests that began while it was going down answer within 2 s too (whatever the answer).
    for (const outcome of startedDuring) expect(outcome.end - outcome.start, JSON.stringify(outcome)).toBeLessThanOrEqual(FAST_MS);
    // Back without a restart of the server process.
    expect(server.exit).toBeUndefined();
    expect(firstOk, report).toBeDefined();
    expect(firstOk!.end - up).toBeLessThanOrEqual(RECOVERY_MS);
    expect(recovered.length).toBeGreaterThan(20);
    expect(
      recovered.filter((o) => o.status !== 200),
      report,
    ).toEqual([]);
    // Readiness: 503 while down (within ~1 s), 200 after; liveness stays 200 throughout.
    const readyDuring = ready.filter((o) => o.start >= down && o.end < startBegan);
    expect(readyDuring.length).toBeGreaterThan(5);
    for (const outcome of readyDuring) {
      expect(outcome).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE' });
      expect(outcome.end - outcome.start).toBeLessThanOrEqual(FAST_MS);
    }
    const readyAfter = ready.filter((o) => o.start >= up + RECOVERY_MS);
    expect(readyAfter.length).toBeGreaterThan(0);
    for (const outcome of readyAfter) expect(outcome.status).toBe(200);
    expect(live.map((o) => o.status)).toEqual(live.map(() => 200));
    expect(live.some((o) => o.start >= down && o.end < startBegan)).toBe(true);

    // Nothing acknowledged is lost: every booking answered 200 is in the database.
    const acknowledged = all.filter((o) => o.kind === 'book' && o.status === 200).map((o) => o.id!);
    expect(acknowledged.length).toBeGreaterThan(40);
    const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
    try {
      const rows = await sql<{ id: string }[]>`select id from reservations where id = any(${acknowledged}::uuid[])`;
      expect(rows.length).toBe(acknowledged.length);
    } finally {
      await sql.end();
    }
  }, 60_000);
});
