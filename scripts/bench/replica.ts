/**
 * What a read replica costs and gains (docs/benchmarks.md#read-replica): a throwaway primary and a
 * streaming standby of it (pg_basebackup, test/helpers/postgres-cluster.ts), the small seed
 * profile on the primary, and two servers from the same code: one on the primary alone, one with
 * DATABASE_READ_URL on the standby. The reservation list and a room search (as a USER who wrote
 * nothing: the replica answers), and bookings (as the ADMIN: each one also stores its WAL
 * position), with autocannon's 50 connections, the two servers alternating in each round.
 *
 *   npm run build && npx tsx scripts/bench/replica.ts [--seconds 5] [--rounds 3] [--source]
 *
 * Run it as root or as the postgres user (initdb). On one machine both clusters share its cores,
 * so this shows the price of the routing, not the capacity a replica on its own machine adds.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs, promisify } from 'node:util';
import postgres from 'postgres';
import { startPostgresCluster, startStandby, type PostgresCluster } from '../../test/helpers/postgres-cluster.js';
import { SEED_ADMIN_EMAIL, SEED_PASSWORD } from '../seed/seed.js';
import { measure, summarize, type Measurement } from './measure.js';
import { startDeskbook, type ServerProcess } from './processes.js';

const { values } = parseArgs({
  options: { seconds: { type: 'string', default: '5' }, rounds: { type: 'string', default: '3' }, source: { type: 'boolean', default: false } },
});
const source = values.source;
const seconds = Number(values.seconds);
const rounds = Number(values.rounds);
const root = path.resolve(import.meta.dirname, '../..');
const HOUR = 3_600_000;

const clusters: PostgresCluster[] = [];
const servers: ServerProcess[] = [];
const logs = mkdtempSync(path.join(tmpdir(), 'deskbook-replica-bench-'));

async function start(label: string, env: Record<string, string>): Promise<ServerProcess> {
  const server = await startDeskbook({
    label,
    source,
    logDirectory: logs,
    env: {
      LOG_LEVEL: 'warn',
      REQUEST_LOG: 'false',
      LOGIN_MAX_ATTEMPTS_PER_ADDRESS: '1000000',
      // USERs book beyond the seed's six months (book-users).
      RESERVATION_HORIZON: '3650d',
      // Each of the 50 USERs books thousands of quarter hours ahead (book-users).
      RESERVATION_MAX_FUTURE: '100000',
      EXPENSIVE_CONCURRENCY_PER_USER: '1000',
      ...env,
    },
  });
  servers.push(server);
  return server;
}

async function token(server: ServerProcess, email: string): Promise<string> {
  const login = await fetch(`${server.baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: SEED_PASSWORD }),
  });
  if (login.status !== 200) throw new Error(`sign-in of ${email}: ${login.status} ${await login.text()}`);
  return ((await login.json()) as { accessToken: string }).accessToken;
}

try {
  const primary = await startPostgresCluster();
  clusters.push(primary);
  const admin = postgres(primary.url, { max: 1, onnotice: () => {} });
  await admin.unsafe('create database deskbook');
  const databaseUrl = primary.url.replace(/\/postgres$/, '/deskbook');
  await promisify(execFile)(process.execPath, ['--import', 'tsx', path.join(root, 'scripts', 'seed.ts'), '--profile', 'small'], {
    env: { ...process.env, DATABASE_URL: databaseUrl },
    cwd: root,
  });
  const standby = await startStandby(primary);
  clusters.push(standby);
  const alone = await start('primary', { DATABASE_URL: databaseUrl });
  const replicated = await start('replica', { DATABASE_URL: databaseUrl, DATABASE_READ_URL: standby.url.replace(/\/postgres$/, '/deskbook') });
  const user = await token(alone, 'user00001@example.test');
  const adminToken = await token(alone, SEED_ADMIN_EMAIL);
  // One USER per connection: each booking also updates its own caller's row (no hot row).
  const userTokens = await Promise.all(Array.from({ length: 50 }, (_, i) => token(alone, `user${String(i + 1).padStart(5, '0')}@example.test`)));
  let nextClient = 0;
  const reader = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  // Desks a USER may book (flexible, in an available room).
  const desks = (
    await reader<{ id: string }[]>`select d.id from desks d join rooms r on r.id = d.room_id where d.type = 'FLEX' and r.available order by d.id`
  ).map((row) => row.id);
  await reader.end();
  const tomorrow = new Date(Math.ceil(Date.now() / (24 * HOUR)) * 24 * HOUR + 9 * HOUR);
  const window = { start: tomorrow.toISOString(), end: new Date(tomorrow.getTime() + 8 * HOUR).toISOString() };
  // Past the seed's six months; the n-th booking of the whole run takes its own quarter hour, so
  // that no two overlap for anyone (one reservation at a time per user) and three rounds at
  // 1,500 bookings a second stay within the 3,650-day horizon set above.
  let booking = 0;
  const farAway = Date.UTC(new Date().getUTCFullYear() + 2, 0, 1);
  const SLOT = HOUR / 4;
  const nextBooking = () => {
    const n = booking++;
    const start = farAway + n * SLOT;
    return JSON.stringify({ deskId: desks[n % desks.length], startTime: new Date(start).toISOString(), endTime: new Date(start + SLOT).toISOString() });
  };
  const scenarios = [
    { id: 'reservations', title: 'GET /api/reservation (USER)', token: user, request: { method: 'GET' as const, path: '/api/reservation' } },
    {
      id: 'search-rooms',
      title: 'POST /api/search/rooms, free 8 h tomorrow (USER)',
      token: user,
      request: { method: 'POST' as const, path: '/api/search/rooms', body: JSON.stringify({ reservation: { free: window } }) },
    },
    {
      id: 'book',
      title: 'POST /api/reservation (one ADMIN on all connections, own quarter hour each)',
      token: adminToken,
      request: { method: 'POST' as const, path: '/api/reservation', setupRequest: (request: object) => ({ ...request, body: nextBooking() }) },
    },
    {
      id: 'book-users',
      title: 'POST /api/reservation (50 USERs, one per connection, own quarter hour each)',
      token: adminToken,
      setupClient: (client: { setHeaders(headers: Record<string, string>): void }) =>
        client.setHeaders({ authorization: `Bearer ${userTokens[nextClient++ % userTokens.length]}`, 'content-type': 'application/json' }),
      request: { method: 'POST' as const, path: '/api/reservation', setupRequest: (request: object) => ({ ...request, body: nextBooking() }) },
    },
  ];
  // Transactions the standby ran: shows which server's reads it answered (the refresh adds about 5 a second).
  const onStandby = postgres(standby.url, { max: 1, onnotice: () => {} });
  const standbyTransactions = async () =>
    Number((await onStandby<{ n: string }[]>`select xact_commit::text as n from pg_stat_database where datname = 'deskbook'`)[0]!.n);
  const runs = new Map<string, Measurement[]>();
  for (let round = 1; round <= rounds; round++) {
    for (const scenario of scenarios) {
      const order = round % 2 === 1 ? [alone, replicated] : [replicated, alone];
      for (const server of order) {
        const load = {
          headers: { authorization: `Bearer ${scenario.token}`, 'content-type': 'application/json' },
          requests: [scenario.request],
          ...('setupClient' in scenario ? { setupClient: scenario.setupClient } : {}),
        };
        if (round === 1) await measure({ url: server.baseUrl, load, seconds: 1, expected: [200] });
        const before = await standbyTransactions();
        const result = await measure({ url: server.baseUrl, load, seconds, expected: [200] });
        // pg_stat_database is sent by each backend when it goes idle, at most once a second.
        await new Promise((resolve) => setTimeout(resolve, 1200));
        const replicaShare = (await standbyTransactions()) - before;
        const key = `${scenario.id} ${server.name}`;
        runs.set(key, [...(runs.get(key) ?? []), result]);
        console.log(
          `round ${round} ${key.padEnd(24)} ${Math.round(result.perSecond)} req/s p50 ${result.p50} ms p99 ${result.p99} ms errors ${result.errors}; ${result.responses} responses, ${replicaShare} transactions on the standby`,
        );
      }
    }
  }
  console.log(`\n| scenario | primary only req/s | with replica req/s | ratio | p99 primary / replica ms |\n| --- | ---: | ---: | ---: | ---: |`);
  for (const scenario of scenarios) {
    const a = summarize(runs.get(`${scenario.id} primary`)!);
    const b = summarize(runs.get(`${scenario.id} replica`)!);
    console.log(
      `| ${scenario.title} | ${Math.round(a.perSecond)} | ${Math.round(b.perSecond)} | ${(b.perSecond / a.perSecond).toFixed(2)} | ${a.p99} / ${b.p99} |`,
    );
  }
  await onStandby.end();
  await admin.end();
} finally {
  await Promise.all(servers.map((server) => server.stop()));
  for (const cluster of clusters.reverse()) await cluster.destroy();
  rmSync(logs, { recursive: true, force: true });
}
