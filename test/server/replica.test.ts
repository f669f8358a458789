import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, queryRows, type DatabaseHandle } from '../../src/db/client.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { pgbouncerInstalled, startPgBouncer } from '../helpers/pgbouncer.js';
import { insertDeskInNewRoom } from '../helpers/fixtures.js';
import { startPostgresCluster, startStandby, type PostgresCluster } from '../helpers/postgres-cluster.js';

/**
 * A read replica (docs/deployment.md#with-a-read-replica): a primary and a streaming standby
 * made by pg_basebackup, replay paused on the standby to play lag. A caller reads their own
 * writes at once (from the primary), others read the replica (stale within the bound), guarded
 * writes see the primary, and a replica that is down costs nothing but its speed.
 * PostgreSQL only: the embedded database has no replication.
 */

const DAY_MS = 86_400_000;

describe('a read replica with read-your-writes', () => {
  let primary: PostgresCluster | undefined;
  let standby: PostgresCluster | undefined;
  let primaryHandle: DatabaseHandle;
  let replicaHandle: DatabaseHandle;
  let replicaAdmin: postgres.Sql;
  /** Statements the app sent to the replica so far. */
  let replicaStatements = 0;
  let service: TestApp;
  /** A second process on the same databases, with a bound of 1 s. */
  let strict: TestApp;
  let alice: string;
  let bob: string;
  let adminToken: string;
  let deskId: string;
  let roomId: string;
  const start = new Date(Math.ceil(Date.now() / DAY_MS) * DAY_MS + DAY_MS + 10 * 3_600_000);
  const window = { start: start.toISOString(), end: new Date(start.getTime() + 3_600_000).toISOString() };

  beforeAll(async () => {
    primary = await startPostgresCluster();
    const admin = postgres(primary.url, { max: 1, onnotice: () => {} });
    await admin.unsafe('create database deskbook');
    await admin.end();
    standby = await startStandby(primary);
    const databaseUrl = primary.url.replace(/\/postgres$/, '/deskbook');
    const replicaUrl = standby.url.replace(/\/postgres$/, '/deskbook');
    primaryHandle = await openDatabase({ kind: 'postgres', url: databaseUrl });
    replicaHandle = await openDatabase({
      kind: 'postgres',
      url: replicaUrl,
      connectTimeoutMs: 1000,
      onQuery: (text) => {
        // The routers' own refresh (every 200 ms) is not a read of a request.
        if (!text.includes('pg_last_wal_replay_lsn')) replicaStatements++;
      },
    });
    replicaAdmin = postgres(replicaUrl, { max: 1, onnotice: () => {} });
    const database = { handle: primaryHandle, url: databaseUrl, dispose: async () => {} };
    service = await createTestApp({ database, readDatabase: replicaHandle, env: { DATABASE_READ_MAX_LAG: '60s' } });
    strict = await createTestApp({ database, readDatabase: replicaHandle, env: { DATABASE_READ_MAX_LAG: '1s' } });
    await service.createUser({ email: 'alice@example.test', password: 'alice-password-1' });
    await service.createUser({ email: 'bob@example.test', password: 'bob-password-1' });
    alice = (await service.login('alice@example.test', 'alice-password-1')).accessToken;
    bob = (await service.login('bob@example.test', 'bob-password-1')).accessToken;
    adminToken = await service.adminToken();
    const place = await insertDeskInNewRoom(primaryHandle.db);
    deskId = place.desk.id;
    roomId = place.room.id;
  }, 90_000);

  afterAll(async () => {
    await service?.close();
    await strict?.close();
    await replicaAdmin?.end({ timeout: 1 });
    await replicaHandle?.close();
    await primaryHandle?.close();
    await standby?.destroy();
    await primary?.destroy();
  });

  /** Runs `send` and answers its response and how many statements it sent to the replica. */
  async function counted<T>(send: () => Promise<T>): Promise<{ response: T; onReplica: number }> {
    const before = replicaStatements;
    const response = await send();
    return { response, onReplica: replicaStatements - before };
  }

  const list = (app: TestApp, token: string) => app.request({ method: 'GET', url: `/api/reservation?deskId=${deskId}`, token });
  const freeDesks = async (app: TestApp, token: string) => {
    const response = await app.request({ method: 'POST', url: '/api/search/rooms', token, payload: { reservation: { free: window } } });
    expect(response.statusCode, response.body).toBe(200);
    const rooms = response.json<{ content: { id: string; desks: { id: string }[] }[] }>().content;
    return rooms.filter((room) => room.id === roomId).flatMap((room) => room.desks.map((desk) => desk.id));
  };

  /** Waits until `check` holds (the replica refreshes every 200 ms; a rest after a failure lasts 5 s). */
  async function eventually(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error('condition not met in time');
      await sleep(100);
    }
  }

  it('serves the heavy reads of a caller without pending writes from the replica', async () => {
    // The desk was inserted on the primary a moment ago: once replayed, Bob's search reads the replica.
    await eventually(async () => {
      const { response, onReplica } = await counted(() => freeDesks(service, bob));
      return onReplica > 0 && response.includes(deskId);
    });
    const { onReplica } = await counted(() => list(service, bob));
    expect(onReplica).toBe(1);
    // Statistics too, once the replica holds every counted write the request saw on the primary.
    const figures = await counted(() => service.request({ method: 'GET', url: '/api/stats', token: adminToken }));
    expect(figures.response.statusCode).toBe(200);
    expect(figures.response.json<{ totalDesks: number; totalReservations: number }>()).toMatchObject({ totalDesks: 1, totalReservations: 0 });
    expect(figures.onReplica).toBeGreaterThan(0);
  });

  it('while replay is paused, a caller who booked reads it at once, others read the replica, and a guarded write sees the primary', async () => {
    await replicaAdmin`select pg_wal_replay_pause()`;
    await eventually(async () => (await replicaAdmin`select pg_get_wal_replay_pause_state() as state`)[0]!.state === 'paused');

    const booked = await service.request({
      method: 'POST',
      url: '/api/reservation',
      token: alice,
      payload: { deskId, startTime: window.start, endTime: window.end },
    });
    expect(booked.statusCode, booked.body).toBe(200);
    const reservationId = booked.json<{ id: string }>().id;

    // Alice's list and search, in this process and in another one (the position is kept in the database).
    for (const app of [service, strict]) {
      const mine = await counted(() => list(app, alice));
      expect(mine.response.statusCode).toBe(200);
      expect(mine.response.json<{ content: { id: string }[] }>().content.map((r) => r.id)).toEqual([reservationId]);
      expect(mine.onReplica).toBe(0);
      const search = await counted(() => freeDesks(app, alice));
      expect(search.response).not.toContain(deskId);
      expect(search.onReplica).toBe(0);
    }

    // Statistics promise everybody's writes: the replica's change count is behind the one the
    // request read on the primary, so they are computed there (by either process).
    for (const app of [service, strict]) {
      const figures = await counted(() => app.request({ method: 'GET', url: '/api/stats', token: adminToken }));
      expect(figures.response.json<{ totalReservations: number }>().totalReservations).toBe(1);
    }

    // Bob has written nothing: his search reads the paused replica, which has not seen the booking (stale within 60 s).
    const others = await counted(() => freeDesks(service, bob));
    expect(others.onReplica).toBeGreaterThan(0);
    expect(others.response).toContain(deskId);

    // Bob books the same desk and hour: the check reads the primary, so 409 and no double booking.
    const twice = await service.request({
      method: 'POST',
      url: '/api/reservation',
      token: bob,
      payload: { deskId, startTime: window.start, endTime: window.end },
    });
    expect(twice.statusCode, twice.body).toBe(409);
    expect(twice.headers['content-type']).toContain('application/problem+json');
    const rows = await queryRows<{ count: number }>(primaryHandle.db, sql`select count(*)::int as count from reservations where desk_id = ${deskId}`);
    expect(rows[0]!.count).toBe(1);

    // With a bound of 1 s, a replica that stopped replaying serves nobody once the primary moved on
    // for longer: the time passing is the point (nothing to wait on but the clock the lag is measured by).
    await sleep(1500);
    const bounded = await counted(() => freeDesks(strict, bob));
    expect(bounded.onReplica).toBe(0);
    expect(bounded.response).not.toContain(deskId);

    // Replay resumes: Alice's write reaches the replica and her reads go there again.
    await replicaAdmin`select pg_wal_replay_resume()`;
    await eventually(async () => {
      const { response, onReplica } = await counted(() => list(service, alice));
      return onReplica > 0 && response.json<{ content: unknown[] }>().content.length === 1;
    });
  });

  it.runIf(pgbouncerInstalled())('reaches a replica through PgBouncer in transaction mode (no named statements there)', async () => {
    const bouncer = await startPgBouncer(standby!.url, { poolSize: 4 });
    let pooledStatements = 0;
    const pooled = await openDatabase({
      kind: 'postgres',
      url: bouncer.through(standby!.url.replace(/\/postgres$/, '/deskbook')),
      pooler: 'transaction',
      onQuery: (text) => {
        if (!text.includes('pg_last_wal_replay_lsn')) pooledStatements++;
      },
    });
    const app = await createTestApp({
      database: { handle: primaryHandle, url: primary!.url.replace(/\/postgres$/, '/deskbook'), dispose: async () => {} },
      readDatabase: pooled,
      env: { DATABASE_POOLER: 'transaction' },
    });
    try {
      await eventually(async () => {
        const before = pooledStatements;
        const response = await list(app, bob);
        return response.statusCode === 200 && pooledStatements > before;
      });
      const booked = await app.request({
        method: 'POST',
        url: '/api/reservation',
        token: bob,
        payload: { deskId, startTime: window.end, endTime: new Date(start.getTime() + 2 * 3_600_000).toISOString() },
      });
      expect(booked.statusCode, booked.body).toBe(200);
      const mine = await list(app, bob);
      expect(mine.json<{ content: { id: string }[] }>().content.map((r) => r.id)).toContain(booked.json<{ id: string }>().id);
    } finally {
      await app.close();
      await pooled.close();
      await bouncer.stop();
    }
  });

  it('with the replica down, reads answer from the primary (no 5xx, the primary stays ready) and return to it once it is back', async () => {
    await standby!.stop('fast');
    // At once: the first read may find the replica gone mid-request and run again on the primary.
    for (let i = 0; i < 5; i++) {
      for (const token of [alice, bob]) {
        const answered = await list(service, token);
        expect(answered.statusCode, answered.body).toBe(200);
        const search = await service.request({ method: 'POST', url: '/api/search/rooms', token, payload: { reservation: { free: window } } });
        expect(search.statusCode, search.body).toBe(200);
      }
      await sleep(100);
    }
    expect(await freeDesks(service, bob)).not.toContain(deskId);
    expect((await service.request({ method: 'GET', url: '/api/health/ready' })).statusCode).toBe(200);

    await standby!.start();
    await eventually(async () => {
      const { response, onReplica } = await counted(() => list(service, bob));
      return response.statusCode === 200 && onReplica > 0;
    }, 20_000);
  }, 40_000);
});
