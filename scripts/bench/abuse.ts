/**
 * One USER abusing feeds and mails while another user's `GET /api/self` is measured (issue 24,
 * docs/behaviour.md#calendar-feed, #invitation-mails, #costly-operations): the abuser (the last
 * signed-in bench user) makes a calendar feed, then in ABUSERS loops books a 15-minute slot at
 * night, fetches its feed ten times at once, cancels the slot and fetches ten times again, as
 * fast as the server answers. Every booking changes the feed and queues invitation mails; the
 * per-user write limit, the single-flight feed build and the fair, capped mail queue are what
 * keep the measured user's latency flat. The target: p99 ≤ 50 ms at the fixed rate.
 */
import type { BenchContext, Load, Scenario } from './kit.js';
import { bearer, json } from './kit.js';

/** Abusing loops; BENCH_ABUSERS=0 measures the same load without the abuse (a control run). */
const ABUSERS = Number(process.env.BENCH_ABUSERS ?? 3);
const FETCHES_AT_ONCE = 10;
const DAY = 86_400_000;

interface Abuse {
  stop(): Promise<void>;
}

function startAbuse(context: BenchContext): Abuse {
  const token = context.userTokens.at(-1)!;
  const headers = { ...json, ...bearer(token) };
  const statuses: Record<string, number> = {};
  const count = (status: number) => (statuses[status] = (statuses[status] ?? 0) + 1);
  let stopped = false;
  const deskId = (JSON.parse(context.bookings.freeDeskBody()) as { deskId: string }).deskId;
  // Nights 60 days ahead (inside a USER's horizon, outside the seeded working hours), one slot per loop.
  const night = Math.floor((Date.now() + 60 * DAY) / DAY) * DAY + 2 * 3_600_000;

  const request = async (method: string, path: string, body?: unknown) => {
    try {
      const response = await fetch(`${context.appUrl}${path}`, {
        method,
        headers: body === undefined ? bearer(token) : headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      count(response.status);
      return { status: response.status, text: await response.text() };
    } catch {
      count(0);
      return { status: 0, text: '' };
    }
  };

  const loops = (async () => {
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

/** Another user's GET /api/self: every signed-in bench user but the abuser, one per connection. */
function selfOfOthers(context: BenchContext): Load {
  const others = context.userTokens.slice(0, -1);
  let next = 0;
  return { method: 'GET', requests: [{ path: '/api/self' }], setupClient: (client) => client.setHeaders(bearer(others[next++ % others.length]!)) };
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
    background: startAbuse,
    load: selfOfOthers,
  },
];
