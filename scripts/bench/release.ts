/**
 * The release loop under load (docs/behaviour.md#release-of-no-shows), on the bench's database:
 * `npx tsx scripts/bench/release.ts` (after `npm run build`; BENCH_DATABASE_URL as for the bench).
 *
 * Starts the built server with its defaults, books COUNT reservations running now on free desks,
 * makes them due evenly over one minute (their attendance set PENDING with release times from
 * 10 s to 70 s ahead), and meanwhile measures GET /api/reservation (a USER's list) at 100 req/s;
 * then the same load again with nothing to release, for comparison. First, on the same
 * reservations, check-in against booking a free desk at saturation (5 s each). Prints how many were released,
 * the latest release after its deadline, and both p99s. Removes its reservations at the end.
 */
import os from 'node:os';
import path from 'node:path';
import { mkdtempSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { projectPath } from '../../src/shared/paths.js';
import { SEED_PASSWORD } from '../seed/seed.js';
import postgres from 'postgres';
import { measure } from './measure.js';
import { measureAtRate } from './paced.js';
import { freePort, ServerProcess } from './processes.js';

const COUNT = Number(process.env.RELEASE_COUNT ?? 5000);
const RATE = 100;
/** Seconds of the measured load while releasing (the due times span 10 s to 70 s ahead). */
const SECONDS = Number(process.env.RELEASE_SECONDS ?? 80);
const databaseUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/deskbook_large';
const sql = postgres(databaseUrl, { max: 2, onnotice: () => {} });
const dataset = {
  users: await sql<{ id: string; email: string }[]>`select id, email from users where email ~ '^user[0-9]+@example\.test$' order by email`,
  bookableDeskIds: (
    await sql<{ id: string }[]>`select d.id from desks d join rooms r on r.id = d.room_id where d.type = 'FLEX' and r.available order by d.id`
  ).map((row) => row.id),
};
const port = await freePort();
const logFile = path.join(mkdtempSync(path.join(os.tmpdir(), 'deskbook-release-')), 'server.log');
const server = await ServerProcess.start({
  name: 'server',
  args: ['--max-old-space-size=192', '--max-semi-space-size=16', projectPath('dist', 'server.js')],
  env: {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'production',
    MALLOC_ARENA_MAX: '2',
    DATABASE_URL: databaseUrl,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    REQUEST_LOG: 'false',
    LOGIN_MAX_ATTEMPTS_PER_ADDRESS: '1000000',
    // Check-in is measured at saturation by 50 users: far more writes a minute each than a person makes.
    RESERVATION_WRITES_PER_MINUTE: '1000000',
  },
  port,
  readyPath: '/api/health',
  logFile,
  timeoutMs: 300_000,
});
let ids: string[] = [];
try {
  const tokens: string[] = [];
  for (const user of dataset.users.slice(0, 50)) {
    const response = await fetch(`${server.baseUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: user.email, password: process.env.BENCH_PASSWORD ?? SEED_PASSWORD }),
    });
    tokens.push(((await response.json()) as { accessToken: string }).accessToken);
  }
  let next = 0;
  const load = {
    method: 'GET' as const,
    requests: [{ path: '/api/reservation' }],
    setupClient: (client: { setHeaders(h: Record<string, string>): void }) => client.setHeaders({ authorization: `Bearer ${tokens[next++ % tokens.length]}` }),
  };

  const now = Date.now();
  const users = dataset.users.slice(100).map((user) => user.id);
  const admin = await fetch(`${server.baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@example.test', password: process.env.BENCH_PASSWORD ?? SEED_PASSWORD }),
  });
  const adminToken = ((await admin.json()) as { accessToken: string }).accessToken;
  const desks = dataset.bookableDeskIds;
  const rows = await sql<{ id: string }[]>`
    insert into reservations (user_id, desk_id, start_time, end_time, user_exclusive, created_at, modified_at)
    select u, d, ${new Date(now - 15 * 60_000)}, ${new Date(now + 3 * 3_600_000)}, false, now(), now()
      from unnest(${desks.map((_, i) => users[i % users.length]!)}::uuid[], ${desks}::uuid[]) as t(u, d)
    on conflict do nothing
    returning id`;
  ids = rows.map((row) => row.id);
  // Check-in against booking, 5 s each at saturation (50 connections). On the large dataset each
  // check-in is a first one (10,000 desks); on a smaller one repeats get the idempotent answer.
  let nextCheckIn = 0;
  const checkIn = await measure({
    url: server.baseUrl,
    seconds: 5,
    expected: [200],
    load: {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}` },
      requests: [{ setupRequest: (request) => ({ ...request, path: `/api/reservation/${ids[nextCheckIn++ % ids.length]}/check-in` }) }],
    },
  });
  let nextBooking = 0;
  const farAhead = Math.floor(now / 86_400_000) * 86_400_000 + 800 * 86_400_000;
  const booking = await measure({
    url: server.baseUrl,
    seconds: 5,
    expected: [200],
    load: {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      requests: [
        {
          path: '/api/reservation',
          setupRequest: (request) => {
            const n = nextBooking++;
            const start = farAhead + Math.floor(n / desks.length) * 3_600_000;
            return {
              ...request,
              body: JSON.stringify({
                deskId: desks[n % desks.length],
                userId: users[n % users.length],
                startTime: new Date(start).toISOString(),
                endTime: new Date(start + 3_600_000).toISOString(),
              }),
            };
          },
        },
      ],
    },
  });
  await sql`delete from reservations where start_time >= ${new Date(farAhead)}`;
  console.log(
    `check-in ${Math.round(checkIn.perSecond)} req/s (p99 ${checkIn.p99} ms), booking ${Math.round(booking.perSecond)} req/s (p99 ${booking.p99} ms)`,
  );
  await sql`update attendance set status = 'NOT_REQUIRED', checked_in_at = null where reservation_id = any(${ids}::uuid[])`;
  ids = ids.slice(0, COUNT);
  const extra = rows.slice(COUNT).map((row) => row.id);
  if (extra.length > 0) await sql`delete from reservations where id = any(${extra}::uuid[])`;
  const firstDue = now + 10_000;
  await sql`
    update attendance a set status = 'PENDING', release_at = ${new Date(firstDue)}::timestamptz + (t.n * ${60_000 / ids.length}) * interval '1 millisecond'
      from unnest(${ids}::uuid[]) with ordinality as t(id, n)
     where a.reservation_id = t.id`;
  console.log(`${ids.length} reservations due from ${new Date(firstDue).toISOString()} over one minute`);

  const during = await measureAtRate({ url: server.baseUrl, load, rate: RATE, seconds: SECONDS, expected: [200] });
  const [outcome] = await sql<{ released: number; pending: number; latest_ms: number; cut: number }[]>`
    select count(*) filter (where a.status = 'NO_SHOW')::int as released,
           count(*) filter (where a.status = 'PENDING')::int as pending,
           coalesce(max(extract(epoch from (a.released_at - a.release_at)) * 1000), 0)::float8 as latest_ms,
           count(*) filter (where r.end_time = a.released_at)::int as cut
      from attendance a join reservations r on r.id = a.reservation_id
     where a.reservation_id = any(${ids}::uuid[])`;
  await sleep(2000);
  const after = await measureAtRate({ url: server.baseUrl, load, rate: RATE, seconds: Math.min(30, SECONDS), expected: [200] });
  console.log(
    JSON.stringify(
      {
        reservations: ids.length,
        released: outcome!.released,
        stillPending: outcome!.pending,
        endsCut: outcome!.cut,
        latestReleaseAfterDeadlineMs: Math.round(outcome!.latest_ms),
        getReservationWhileReleasing: { rate: RATE, p50: during.p50, p99: during.p99, errors: during.errors },
        getReservationNothingToRelease: { rate: RATE, p50: after.p50, p99: after.p99, errors: after.errors },
      },
      null,
      2,
    ),
  );
} finally {
  if (ids.length > 0) await sql`delete from reservations where id = any(${ids}::uuid[])`;
  await server.stop();
  await sql.end({ timeout: 5 });
}
