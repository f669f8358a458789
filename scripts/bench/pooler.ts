/**
 * What DATABASE_POOLER=transaction costs (docs/benchmarks.md#pooler-mode): the `self` and
 * `reservations` reads against two built servers on the same fresh PostgreSQL database, one
 * connected directly (named prepared statements, pipelining) and one through Debian's PgBouncer
 * in transaction mode (pool of 10) with DATABASE_POOLER=transaction, alternating in each round.
 *
 *   npm run build && npx tsx scripts/bench/pooler.ts [--seconds 5] [--rounds 3] [--source]
 *
 * (--source: both servers from src/ with tsx, no build.)
 *
 * BENCH_ADMIN_URL: an admin connection to the PostgreSQL server (default
 * postgres://postgres@127.0.0.1:5432/postgres); a database is created and dropped.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import postgres from 'postgres';
import { startPgBouncer } from '../../test/helpers/pgbouncer.js';
import { measure, summarize, type Measurement } from './measure.js';
import { startDeskbook, type ServerProcess } from './processes.js';

const { values } = parseArgs({
  options: { seconds: { type: 'string', default: '5' }, rounds: { type: 'string', default: '3' }, source: { type: 'boolean', default: false } },
});
const source = values.source;
const seconds = Number(values.seconds);
const rounds = Number(values.rounds);
const adminUrl = process.env.BENCH_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const ADMIN_EMAIL = 'bench-admin@example.test';
const ADMIN_PASSWORD = 'bench-admin-password-1';

const name = `deskbook_pooler_bench_${process.pid}`;
const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
await admin.unsafe(`create database "${name}"`);
const url = new URL(adminUrl);
url.pathname = `/${name}`;
const bouncer = await startPgBouncer(adminUrl, { poolSize: 10 });
const logs = mkdtempSync(path.join(tmpdir(), 'deskbook-pooler-bench-'));
const servers: ServerProcess[] = [];

async function start(label: string, env: Record<string, string>): Promise<ServerProcess> {
  const server = await startDeskbook({
    label,
    source,
    logDirectory: logs,
    env: {
      ADMIN_EMAIL,
      ADMIN_PASSWORD,
      ...env,
    },
  });
  servers.push(server);
  return server;
}

try {
  const direct = await start('direct', { DATABASE_URL: url.toString() });
  const pooled = await start('pgbouncer', { DATABASE_URL: bouncer.through(url.toString()), DATABASE_POOLER: 'transaction' });
  const login = await fetch(`${direct.baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD }),
  });
  const { accessToken } = (await login.json()) as { accessToken: string };
  const headers = { authorization: `Bearer ${accessToken}` };
  const scenarios = [
    { id: 'self', path: '/api/self' },
    { id: 'reservations', path: '/api/reservation' },
  ];
  const runs = new Map<string, Measurement[]>();
  for (let round = 1; round <= rounds; round++) {
    for (const scenario of scenarios) {
      const order = round % 2 === 1 ? [direct, pooled] : [pooled, direct];
      for (const server of order) {
        const load = { method: 'GET' as const, headers, requests: [{ path: scenario.path }] };
        if (round === 1) await measure({ url: server.baseUrl, load, seconds: 1, expected: [200] });
        const result = await measure({ url: server.baseUrl, load, seconds, expected: [200] });
        const key = `${scenario.id} ${server.name}`;
        runs.set(key, [...(runs.get(key) ?? []), result]);
        console.log(`round ${round} ${key.padEnd(24)} ${Math.round(result.perSecond)} req/s p50 ${result.p50} ms p99 ${result.p99} ms errors ${result.errors}`);
      }
    }
  }
  console.log(`\n| scenario | direct req/s | through PgBouncer req/s | cost | p99 direct / PgBouncer ms |\n| --- | ---: | ---: | ---: | ---: |`);
  for (const scenario of scenarios) {
    const a = summarize(runs.get(`${scenario.id} direct`)!);
    const b = summarize(runs.get(`${scenario.id} pgbouncer`)!);
    const cost = ((1 - b.perSecond / a.perSecond) * 100).toFixed(0);
    console.log(`| GET ${scenario.path} | ${Math.round(a.perSecond)} | ${Math.round(b.perSecond)} | ${cost} % | ${a.p99} / ${b.p99} |`);
  }
} finally {
  await Promise.all(servers.map((server) => server.stop()));
  await bouncer.stop();
  await admin.unsafe(`drop database if exists "${name}" with (force)`);
  await admin.end();
  rmSync(logs, { recursive: true, force: true });
}
