import { BENCH_USER_AGENT, type SeededUser } from './database.js';
import { FEATURE_SCENARIOS } from './feature-scenarios.js';
import { bearer, json, searchAsUsers, usersOverConnections, type Scenario } from './kit.js';

export type { BenchContext, Load, Scenario, ScenarioId } from './kit.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const REPORT_WORDS = ['monitor', 'desk', 'chair', 'dock', 'flicker', 'light', 'network', 'keys'];

/**
 * Bookings far beyond anything the seed holds (it books up to six months ahead), removed at the
 * end. Free desks: the n-th request books the next desk of a shuffled list for the hour
 * ⌊n / desks⌋ after `freeFrom`, for the user n mod users; with no more desks than users no two
 * requests ever collide, so every answer should be 200. Hot desks: each run gets a fresh week
 * at `hotFrom` in which requests pick one of a handful of desks and a random 1–3 h slot, so
 * many of them race for the same time of the same desk (200 or 409).
 */
export class Bookings {
  private next = 0;
  private hotRun = 0;
  private readonly desks: string[];
  private readonly hotDesks: string[];

  constructor(
    bookableDeskIds: readonly string[],
    private readonly users: readonly SeededUser[],
    private readonly freeFrom: Date,
    private readonly hotFrom: Date,
    hotDeskCount: number,
  ) {
    const shuffled = shuffle([...bookableDeskIds]);
    this.desks = shuffled.slice(0, Math.min(shuffled.length, users.length));
    this.hotDesks = shuffled.slice(0, Math.min(hotDeskCount, shuffled.length));
  }

  freeDeskBody(): string {
    const n = this.next++;
    const start = this.freeFrom.getTime() + Math.floor(n / this.desks.length) * HOUR;
    return JSON.stringify({
      deskId: this.desks[n % this.desks.length],
      startTime: new Date(start).toISOString(),
      endTime: new Date(start + HOUR).toISOString(),
      userId: this.users[n % this.users.length]!.id,
    });
  }

  private nextSeries = 0;

  /**
   * A weekly series of 52 occurrences (feature-scenarios.ts, docs/behaviour.md#recurring-reservations),
   * all free: the n-th is for the desk and the user of freeDeskBody's n-th request, at hour
   * ⌊n / desks⌋ of a week a year after `hotFrom`, so two series share a desk only at different
   * hours of the week (collision-free for the first desks × 168 requests).
   */
  seriesBody(): string {
    const n = this.nextSeries++;
    const start = this.hotFrom.getTime() + 365 * DAY + Math.floor(n / this.desks.length) * HOUR;
    return JSON.stringify({
      deskId: this.desks[n % this.desks.length],
      startTime: new Date(start).toISOString(),
      endTime: new Date(start + HOUR).toISOString(),
      timeZone: 'Europe/Berlin',
      rule: { frequency: 'WEEKLY', count: 52 },
      userId: this.users[n % this.users.length]!.id,
    });
  }

  /** Starts the next week of hot-desk bookings (one per run, warm-ups included). */
  hotWeek(): () => string {
    const weekStart = this.hotFrom.getTime() + this.hotRun++ * 7 * DAY;
    return () => {
      const start = weekStart + randomInt(7 * 24 - 3) * HOUR;
      return JSON.stringify({
        deskId: this.hotDesks[randomInt(this.hotDesks.length)],
        startTime: new Date(start).toISOString(),
        endTime: new Date(start + (1 + randomInt(3)) * HOUR).toISOString(),
        userId: this.users[randomInt(this.users.length)]!.id,
      });
    };
  }
}

const randomInt = (below: number) => Math.floor(Math.random() * below);

function shuffle<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

/** The issue 16 ceiling: an authenticated read or a search costs at most this many statements. */
const READ_STATEMENTS = 2;

/** Deskbook's own scenarios, in the order they run within a round (FEATURE_SCENARIOS follow). */
export const CORE_SCENARIOS: readonly Scenario[] = [
  { id: 'r1', title: 'R1 constant JSON (bare Fastify)', server: 'reference', expected: [200], load: () => ({ method: 'GET', requests: [{ path: '/r1' }] }) },
  {
    id: 'r2',
    title: 'R2 primary-key SELECT (bare Fastify)',
    server: 'reference',
    expected: [200],
    postgresOnly: true,
    load: () => ({ method: 'GET', requests: [{ path: '/r2' }] }),
  },
  {
    id: 'r3',
    title: 'R3 20-row page + COUNT(*) (bare Fastify)',
    server: 'reference',
    expected: [200],
    postgresOnly: true,
    load: () => ({ method: 'GET', requests: [{ path: '/r3' }] }),
  },
  {
    id: 'self',
    title: 'GET /api/self',
    server: 'app',
    expected: [200],
    targetRatio: 0.15,
    maxStatements: READ_STATEMENTS,
    load: (context) => ({ method: 'GET', requests: [{ path: '/api/self' }], ...usersOverConnections(context) }),
  },
  {
    id: 'departments',
    title: 'GET /api/departments (page of 20)',
    server: 'app',
    expected: [200],
    targetRatio: 0.06,
    maxStatements: READ_STATEMENTS,
    load: (context) => ({ method: 'GET', requests: [{ path: '/api/departments?page=0&size=20' }], ...usersOverConnections(context) }),
  },
  {
    id: 'reservations',
    title: 'GET /api/reservation (USER)',
    server: 'app',
    expected: [200],
    targetRatio: 0.06,
    maxStatements: READ_STATEMENTS,
    load: (context) => ({ method: 'GET', requests: [{ path: '/api/reservation' }], ...usersOverConnections(context) }),
  },
  {
    id: 'desks',
    title: 'GET …/rooms/{roomId}/desks?size=100 (100 desks)',
    server: 'app',
    expected: [200],
    targetRatio: 0.06,
    maxStatements: READ_STATEMENTS,
    load: (context) => ({
      method: 'GET',
      requests: [{ path: `/api/departments/${context.bigRoom.departmentId}/rooms/${context.bigRoom.roomId}/desks?size=100` }],
      ...usersOverConnections(context),
    }),
  },
  {
    id: 'search-rooms',
    title: 'POST /api/search/rooms (free 09–17, dept + equipment)',
    server: 'app',
    expected: [200],
    fixedRate: 100,
    targetRatio: 0.01,
    maxStatements: READ_STATEMENTS,
    load: (context) =>
      searchAsUsers(context, '/api/search/rooms', {
        department: { location: 'Berlin' },
        equipment: [{ type: 'DOCKING_STATION' }],
        reservation: { free: context.searchWindow },
      }),
  },
  {
    id: 'search-rooms-partly',
    title: 'POST /api/search/rooms (partlyReserved, PT2H)',
    server: 'app',
    expected: [200],
    fixedRate: 100,
    targetRatio: 0.01,
    maxStatements: READ_STATEMENTS,
    load: (context) =>
      searchAsUsers(context, '/api/search/rooms', {
        department: { location: 'Berlin' },
        equipment: [{ type: 'DOCKING_STATION' }],
        reservation: { free: { ...context.searchWindow, partlyReserved: true, partlyBetween: 'PT2H' } },
      }),
  },
  {
    id: 'search-free-department',
    title: 'POST /api/search/rooms (free 09–17, one department)',
    server: 'app',
    expected: [200],
    fixedRate: 100,
    targetRatio: 0.01,
    maxStatements: READ_STATEMENTS,
    load: (context) => searchAsUsers(context, '/api/search/rooms', { department: context.department, reservation: { free: context.searchWindow } }),
  },
  {
    id: 'search-departments',
    title: 'POST /api/search/departments',
    server: 'app',
    expected: [200],
    fixedRate: 100,
    targetRatio: 0.01,
    maxStatements: READ_STATEMENTS,
    load: (context) =>
      searchAsUsers(context, '/api/search/departments', {
        room: { available: true },
        equipment: [{ type: 'MONITOR' }],
        reservation: { free: context.searchWindow },
      }),
  },
  {
    id: 'search-reports',
    title: 'POST /api/search/reports (title text)',
    server: 'app',
    expected: [200],
    fixedRate: 100,
    targetRatio: 0.01,
    maxStatements: READ_STATEMENTS,
    load: (context) => {
      let next = 0;
      return {
        method: 'POST',
        headers: json,
        ...usersOverConnections(context),
        requests: [
          {
            path: '/api/search/reports',
            setupRequest: (request) => ({ ...request, body: JSON.stringify({ title: REPORT_WORDS[next++ % REPORT_WORDS.length] }) }),
          },
        ],
      };
    },
  },
  {
    id: 'stats',
    title: 'GET /api/stats (ADMIN)',
    server: 'app',
    expected: [200],
    fixedRate: 20,
    // "As fast as today": 0.078 × R1 in the run of 2026-11-22, less the spread between runs.
    targetRatio: 0.07,
    maxStatements: READ_STATEMENTS,
    load: (context) => ({ method: 'GET', headers: bearer(context.adminToken), requests: [{ path: '/api/stats' }] }),
  },
  {
    id: 'book',
    title: 'POST /api/reservation (free desks)',
    server: 'app',
    expected: [200],
    load: (context) => ({
      method: 'POST',
      headers: { ...json, ...bearer(context.adminToken) },
      requests: [{ path: '/api/reservation', setupRequest: (request) => ({ ...request, body: context.bookings.freeDeskBody() }) }],
    }),
  },
  {
    id: 'book-hot',
    title: 'POST /api/reservation (hot desks)',
    server: 'app',
    expected: [200, 409],
    load: (context) => {
      const body = context.bookings.hotWeek();
      return {
        method: 'POST',
        headers: { ...json, ...bearer(context.adminToken) },
        requests: [{ path: '/api/reservation', setupRequest: (request) => ({ ...request, body: body() }) }],
      };
    },
  },
  {
    id: 'login',
    title: 'POST /api/auth/login',
    server: 'app',
    expected: [200],
    separate: true,
    load: (context) => {
      let next = 0;
      const users = context.users.slice(0, 1000);
      return {
        method: 'POST',
        headers: { ...json, 'user-agent': BENCH_USER_AGENT },
        requests: [
          {
            path: '/api/auth/login',
            setupRequest: (request) => ({ ...request, body: JSON.stringify({ email: users[next++ % users.length]!.email, password: context.password }) }),
          },
        ],
      };
    },
  },
];

/**
 * Scenarios of features that land on other branches: append them in scripts/bench/feature-scenarios.ts
 * (a list of Scenario definitions); they run after Deskbook's own, in every round and on both databases.
 */
export const SCENARIOS: readonly Scenario[] = [...CORE_SCENARIOS, ...FEATURE_SCENARIOS];

const duplicate = SCENARIOS.find((scenario, index) => SCENARIOS.findIndex((other) => other.id === scenario.id) !== index);
if (duplicate) throw new Error(`two bench scenarios are named "${duplicate.id}"`);

/** The next workday (Monday to Friday) after `now`, 09:00–17:00 UTC. */
export function nextWorkdayWindow(now: Date): { start: string; end: string } {
  let day = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) + DAY;
  while ([0, 6].includes(new Date(day).getUTCDay())) day += DAY;
  return { start: new Date(day + 9 * HOUR).toISOString(), end: new Date(day + 17 * HOUR).toISOString() };
}
