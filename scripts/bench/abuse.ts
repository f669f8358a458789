/**
 * One USER abusing feeds and mails while another user's `GET /api/self` is measured (issue 24,
 * docs/behaviour.md#calendar-feed, #invitation-mails, #costly-operations): the abuser (the last
 * seeded user, whose feed is given FEED_EVENTS calendar rows first) makes a calendar feed, then in ABUSERS loops books a 15-minute slot at
 * night, fetches its feed ten times at once, cancels the slot and fetches ten times again, as
 * fast as the server answers. Every booking changes the feed and queues invitation mails; the
 * per-user write limit, the single-flight feed build and the fair, capped mail queue are what
 * keep the measured user's latency flat. The target: p99 ≤ 50 ms at the fixed rate.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../../src/db/client.js';
import { BENCH_USER_AGENT, type Dataset } from './database.js';
import type { BenchContext, Load, Scenario } from './kit.js';
import { bearer, json } from './kit.js';

/** Events the abuser's feed starts with (a third of them tombstones), as in the report. */
const FEED_EVENTS = 2000;
/** Marks the calendar rows prepared here, so they are removed again. */
const ABUSE_LOCATION = 'deskbook-bench-abuse';
const HOUR = 3_600_000;

/** Abusing loops; BENCH_ABUSERS=0 measures the same load without the abuse (a control run). */
const ABUSERS = Number(process.env.BENCH_ABUSERS ?? 3);
const FETCHES_AT_ONCE = 10;
const DAY = 86_400_000;

interface Abuse {
  stop(): Promise<void>;
}

/** The abuser's feed as the issue found it: FEED_EVENTS rows from 25 days back on, every third a tombstone. */
async function prepareAbuse(db: Database, dataset: Dataset): Promise<void> {
  await removeAbuse(db);
  const user = dataset.users.at(-1)!;
  const from = Math.floor((Date.now() - 25 * 86_400_000) / HOUR) * HOUR;
  await db.execute(
    sql`insert into calendar_events (reservation_id, user_id, desk_id, start_time, end_time, location, sequence, changed_at, cancelled_at)
        select gen_random_uuid(), ${user.id}::uuid, ${dataset.bookableDeskIds[0]!}::uuid,
          to_timestamp(${from / 1000} + i * 3600 + 1800), to_timestamp(${from / 1000} + i * 3600 + 2700), ${ABUSE_LOCATION}, i % 3, now(),
          case when i % 3 = 0 then now() end
        from generate_series(0, ${FEED_EVENTS - 1}) i`,
  );
}

async function removeAbuse(db: Database): Promise<void> {
  await db.execute(sql`delete from calendar_events where location = ${ABUSE_LOCATION}`);
  // Slots the loops left booked: a cancel refused by the write limit (429), or an interrupted run.
  // Only the abuse books 15 minutes from 02:00 UTC (the seed books working hours).
  await db.execute(
    sql`delete from reservations where start_time > now()
        and (start_time at time zone 'UTC')::time = '02:00' and end_time - start_time = interval '15 minutes'`,
  );
}

function startAbuse(context: BenchContext): Abuse {
  let token = '';
  const headers = (body: boolean) => ({ ...(body ? json : {}), ...bearer(token), 'user-agent': BENCH_USER_AGENT });
  const statuses: Record<string, number> = {};
  const count = (status: number) => (statuses[status] = (statuses[status] ?? 0) + 1);
  let stopped = false;
  const reported = new Set<number>();
  const deskId = (JSON.parse(context.bookings.freeDeskBody()) as { deskId: string }).deskId;
  // Nights 60 days ahead (inside a USER's horizon, outside the seeded working hours), one slot per loop.
  const night = Math.floor((Date.now() + 60 * DAY) / DAY) * DAY + 2 * 3_600_000;

  const request = async (method: string, path: string, body?: unknown) => {
    try {
      const response = await fetch(`${context.appUrl}${path}`, {
        method,
        headers: headers(body !== undefined),
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      count(response.status);
      const text = await response.text();
      if (response.status >= 400 && response.status !== 429 && !reported.has(response.status)) {
        reported.add(response.status);
        process.stderr.write(`  abuser's first ${response.status} (${method} ${path.replace(/calendar\/[^.]+/, 'calendar/…')}): ${text.slice(0, 300)}\n`);
      }
      return { status: response.status, text };
    } catch {
      count(0);
      return { status: 0, text: '' };
    }
  };

  const loops = (async () => {
    const login = await fetch(`${context.appUrl}/api/auth/login`, {
      method: 'POST',
      headers: { ...json, 'user-agent': BENCH_USER_AGENT },
      body: JSON.stringify({ email: context.users.at(-1)!.email, password: context.password }),
    });
    token = ((await login.json()) as { accessToken: string }).accessToken;
    const created = await request('POST', '/api/self/calendar-feed');
    const feedPath = created.status === 200 ? new URL((JSON.parse(created.text) as { url: string }).url).pathname : undefined;
    const fetchFeed = async () => {
      if (feedPath !== undefined) await Promise.all(Array.from({ length: FETCHES_AT_ONCE }, () => request('GET', feedPath)));
    };
    await Promise.all(
      Array.from({ length: ABUSERS }, async (_, loop) => {
        const start = new Date(night + loop * DAY);
        const slot = { deskId, startTime: start.toISOString(), endTime: new Date(start.getTime() + 15 * 60_000).toISOString() };
        while (!stopped) {
          const booked = await request('POST', '/api/reservation', slot);
          await fetchFeed();
          // Always cancelled, also when stopping: the abuse leaves no reservation behind.
          if (booked.status === 200) await request('DELETE', `/api/reservation/${(JSON.parse(booked.text) as { id: string }).id}`);
          await fetchFeed();
        }
      }),
    );
  })();
  return {
    async stop() {
      stopped = true;
      await loops;
      process.stderr.write(`  abuser's answers: ${JSON.stringify(statuses)}\n`);
    },
  };
}

/** Other users' GET /api/self: the signed-in bench users (the abuser, the last seeded user, is not among them), one per connection. */
function selfOfOthers(context: BenchContext): Load {
  let next = 0;
  const tokens = context.userTokens;
  return { method: 'GET', requests: [{ path: '/api/self' }], setupClient: (client) => client.setHeaders(bearer(tokens[next++ % tokens.length]!)) };
}

export const ABUSE_SCENARIOS: Scenario[] = [
  {
    id: 'self-under-abuse',
    title: 'GET /api/self (another USER abuses feeds, mails)',
    server: 'app',
    expected: [200],
    fixedRate: 100,
    fixedRateP99Ms: 50,
    postgresOnly: true,
    prepare: prepareAbuse,
    cleanup: removeAbuse,
    background: startAbuse,
    load: selfOfOthers,
  },
];
