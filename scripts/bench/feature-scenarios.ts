import { ABUSE_SCENARIOS } from './abuse.js';
import { ATTENDANCE_SCENARIOS } from './attendance.js';
import { BENCH_FEED_PATH, prepareFeed, removeFeedRows } from './calendar.js';
import { bearer, json, usersOverConnections, type Scenario } from './kit.js';
import { PEOPLE_SCENARIOS } from './people.js';
import { POLICY_SCENARIOS } from './policies.js';
import { FAVOURITES_SCENARIOS } from './favourites.js';
import { WEB_SESSION_SCENARIOS } from './web-session.js';

/**
 * The extension point for features that land on other branches: append one Scenario per request
 * worth measuring. Each entry runs in every round after Deskbook's own scenarios (CORE_SCENARIOS in
 * scripts/bench/scenarios.ts), on PostgreSQL and on the embedded database, gets its statements per
 * request counted, and is selectable with `npm run bench -- --only <id>`.
 *
 * - `id`: unique, lower-case with dashes (the name on the command line);
 * - `title`: the table's row label, usually `METHOD /path (what)`;
 * - `server: 'app'`, `expected`: the statuses that are answers (anything else counts as an error);
 * - `load(context)`: autocannon options. `usersOverConnections(context)` gives each connection a
 *   signed-in user's token, `bearer(context.adminToken)` the admin's; `context.bigRoom` and
 *   `context.department` name seeded data. Read-only requests are best: a write must stay in the
 *   bench's own rows (reservations from a year ahead on), which the bench removes at the end;
 * - optional `targetRatio` (req/s ÷ R1), `maxStatements` (SQL statements per request) and
 *   `fixedRate` (req/s at which p99 ≤ 50 ms is checked): each adds a row to the targets table.
 *
 * Example:
 *
 *   import { usersOverConnections, type Scenario } from './kit.js';
 *   { id: 'floorplan', title: 'GET /api/.../floorplan', server: 'app', expected: [200], maxStatements: 2,
 *     load: (context) => ({ method: 'GET', requests: [{ path: '/api/...' }], ...usersOverConnections(context) }) },
 */
export const FEATURE_SCENARIOS: Scenario[] = [
  // The language preference (docs/i18n.md#choosing-the-language): every signed-in page load asks for it.
  {
    id: 'preferences',
    title: 'GET /api/self/preferences',
    server: 'app',
    expected: [200],
    maxStatements: 2,
    load: (context) => ({ method: 'GET', requests: [{ path: '/api/self/preferences' }], ...usersOverConnections(context) }),
  },
  {
    id: 'floor-plan',
    title: 'GET …/floor-plan/availability (~200 desks, 09–17)',
    server: 'app',
    expected: [200],
    targetRatio: 0.01,
    maxStatements: 2,
    fixedRate: 100,
    load: (context) => ({
      method: 'GET',
      requests: [
        {
          path:
            `/api/departments/${context.floorPlanDepartmentId}/floor-plan/availability` +
            `?from=${encodeURIComponent(context.searchWindow.start)}&to=${encodeURIComponent(context.searchWindow.end)}`,
        },
      ],
      ...usersOverConnections(context),
    }),
  },
  // Recurring reservations (docs/behaviour.md#recurring-reservations): 52 free weekly occurrences
  // booked in one request by the admin for seeded users, in the bench's own rows.
  {
    id: 'series',
    title: 'POST /api/reservation/series (52 weekly, free)',
    server: 'app',
    expected: [200],
    fixedRate: 10,
    fixedRateP99Ms: 150,
    load: (context) => ({
      method: 'POST',
      headers: { ...json, ...bearer(context.adminToken) },
      requests: [{ path: '/api/reservation/series', setupRequest: (request) => ({ ...request, body: context.bookings.seriesBody() }) }],
    }),
  },
  // Calendar feeds (docs/behaviour.md#calendar-feed): a person with ~200 events, polled by a
  // calendar app without and with a validator (If-None-Match: * matches whatever the feed is now).
  {
    id: 'calendar-feed',
    title: 'GET /api/calendar/{token}.ics (~200 events)',
    server: 'app',
    expected: [200],
    targetRatio: 0.02,
    maxStatements: 2,
    postgresOnly: true,
    prepare: prepareFeed,
    cleanup: removeFeedRows,
    load: () => ({ method: 'GET', requests: [{ path: BENCH_FEED_PATH }] }),
  },
  {
    id: 'calendar-feed-304',
    title: 'GET /api/calendar/{token}.ics (If-None-Match: 304)',
    server: 'app',
    expected: [304],
    maxStatements: 1,
    postgresOnly: true,
    prepare: prepareFeed,
    cleanup: removeFeedRows,
    load: () => ({ method: 'GET', headers: { 'if-none-match': '*' }, requests: [{ path: BENCH_FEED_PATH }] }),
  },
  // Attendance (issue 11): the admin's list; check-in and the release loop: scripts/bench/release.ts.
  ...ATTENDANCE_SCENARIOS,
  // Issue 24: another user's GET /api/self while one USER abuses feeds and mails (scripts/bench/abuse.ts).
  ...ABUSE_SCENARIOS,
  // Issue 27: booking with ten policy rules in force, beside `book` with none (scripts/bench/policies.ts).
  ...POLICY_SCENARIOS,
  // Free desks near my team (docs/favourites.md#book-near-my-team).
  ...FAVOURITES_SCENARIOS,
  // Public holidays (docs/policies.md#public-holidays): the admin's catalogue of countries (built once
  // per process, no SQL) and the preview of next year's German holidays everywhere, which writes nothing.
  {
    id: 'holiday-regions',
    title: 'GET /api/closures/holidays/regions (ADMIN)',
    server: 'app',
    expected: [200],
    maxStatements: 2,
    load: (context) => ({ method: 'GET', headers: bearer(context.adminToken), requests: [{ path: '/api/closures/holidays/regions' }] }),
  },
  {
    id: 'holiday-preview',
    title: 'POST /api/closures/holidays/preview (DE, a year, everywhere)',
    server: 'app',
    expected: [200],
    maxStatements: 4,
    load: (context) => ({
      method: 'POST',
      headers: { ...json, ...bearer(context.adminToken) },
      requests: [
        {
          path: '/api/closures/holidays/preview',
          body: JSON.stringify({ scope: 'EVERYWHERE', country: 'DE', language: 'en', years: [new Date().getUTCFullYear() + 1] }),
        },
      ],
    }),
  },
  // People (docs/people.md#who-is-in): who's in an office on a day (scripts/bench/people.ts).
  ...PEOPLE_SCENARIOS,
  // One sign-in across tabs: the browser's refresh with its rotating cookie (scripts/bench/web-session.ts, docs/sessions.md).
  ...WEB_SESSION_SCENARIOS,
];
