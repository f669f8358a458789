import { existsSync, readdirSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

/**
 * The tests in tiers (README.md#tests, docs/testing.md): every file belongs to exactly one of
 * `unit`, `api` and `system`; `pgbouncer` runs a named subset of them once more through PgBouncer.
 * `npx vitest run --project <name>` runs one tier; `npm test` runs them all.
 *
 * Every project with a database runs on PostgreSQL: the embedded PostgreSQL 17 the global setup
 * starts once per run in a temporary directory, or TEST_DATABASE_URL's server (an admin
 * connection); each test file gets fresh databases of its own, copies of one migrated template
 * (test/helpers/database-setup.ts).
 */

/** No database, no server process, no browser: pure functions, config, docs, the web app's code. Seconds. */
export const UNIT = [
  'test/architecture.test.ts',
  'test/config.test.ts',
  'test/docs.test.ts',
  'test/infrastructure/database-gate/breaker.test.ts',
  'test/db/postgres-queue.test.ts',
  'test/db/replica.test.ts',
  'test/identity/password-hashing.test.ts',
  'test/identity/policy.test.ts',
  'test/infrastructure/images/decode-queue.test.ts',
  'test/infrastructure/jobs/runner.test.ts',
  'test/infrastructure/outbox/backoff.test.ts',
  'test/shared/**/*.test.ts',
  'test/modules/closures/recurrence.test.ts',
  'test/modules/policies/rules.test.ts',
  'test/modules/notifications/endpoints.test.ts',
  'test/modules/people/visibility.test.ts',
  // The web app's code, and its build; serving.test.ts serves it from a test app (api).
  ...readdirSync('test/web')
    .filter((name) => name.endsWith('.test.ts') && name !== 'serving.test.ts')
    .map((name) => `test/web/${name}`),
];

/**
 * Other processes than vitest's: server processes (crash, outage, balancer, replica, two
 * processes on one database), the browser, OpenLDAP, PgBouncer, the scripts (bench quick run,
 * seed), the build and the container image.
 */
export const SYSTEM = [
  'test/server/**/*.test.ts',
  'test/e2e/**/*.test.ts',
  'test/scripts/**/*.test.ts',
  // The build (tsc, the Node 24 installer script) and the container image: processes of their own.
  'test/build/**/*.test.ts',
  'test/container/**/*.test.ts',
  'test/db/pooler.test.ts',
  'test/modules/attendance/release-processes.test.ts',
  'test/modules/auth/ldap.test.ts',
  'test/modules/auth/ldap-groups.test.ts',
  'test/modules/auth/ldap-teams.test.ts',
  'test/modules/avatars/decode-memory.test.ts',
  'test/modules/reservations/concurrency.test.ts',
  'test/modules/policies/race-processes.test.ts',
];

// A named subset once more with every pool through Debian's PgBouncer in transaction mode
// (docs/deployment.md#through-pgbouncer-in-transaction-mode): the files whose writes run in
// transactions, take locks or race, and the two that start several server processes (their
// processes go through the same PgBouncer, serverDatabaseEnv in test/helpers/database.ts).
// Read-only lists run their statements the same way and are left out.
export const THROUGH_PGBOUNCER = [
  'test/modules/attendance/attendance.test.ts',
  'test/modules/attendance/release-processes.test.ts',
  'test/infrastructure/outbox/outbox.test.ts',
  'test/modules/auth/auth.test.ts',
  'test/modules/calendar/bounds.test.ts',
  'test/modules/calendar/invitations.test.ts',
  'test/modules/closures/closures.test.ts',
  'test/modules/inventory/rooms-desks.test.ts',
  'test/modules/password/password.test.ts',
  'test/modules/reports/reports.test.ts',
  'test/modules/reservations/concurrency.test.ts',
  'test/modules/policies/race-processes.test.ts',
  'test/modules/policies/policies.test.ts',
  'test/modules/policies/booking-cost.test.ts',
  'test/modules/approvals/approvals.test.ts',
  'test/modules/reservations/deadlock.test.ts',
  'test/modules/reservations/reservations.test.ts',
  'test/modules/series/series.test.ts',
  'test/modules/sessions/sessions.test.ts',
  'test/modules/settings/settings.test.ts',
  'test/modules/users/users.test.ts',
];

const timeouts = { testTimeout: 60_000, hookTimeout: 120_000 };
const databaseSetup = 'test/helpers/database-setup.ts';

const projects: { test: Record<string, unknown> }[] = [
  // One module graph for every unit file (no per-file isolation): they hold no state across files
  // (password-hashing.test.ts puts the hash cost back), and the tier runs in half the time.
  { test: { ...timeouts, name: 'unit', include: UNIT, isolate: false } },
  // Everything else: the service through app.inject on a database of its own (a new file lands here).
  // One module graph per worker here too (docs/testing.md#how-long-it-takes): every file builds its
  // own app on its own database, and importing the service anew for each file was half the tier's time.
  { test: { ...timeouts, name: 'api', include: ['test/**/*.test.ts'], exclude: [...UNIT, ...SYSTEM], globalSetup: [databaseSetup], isolate: false } },
  // Server processes, a browser, OpenLDAP, clusters of their own: two files at a time, after the
  // other projects (vitest runs projects with another worker count as a group of their own).
  {
    test: {
      ...timeouts,
      name: 'system',
      include: SYSTEM,
      globalSetup: [databaseSetup, 'test/helpers/web-build-setup.ts'],
      maxWorkers: 2,
      sequence: { groupOrder: 1 },
    },
  },
];
if (existsSync('/usr/sbin/pgbouncer'))
  projects.push({
    test: {
      ...timeouts,
      name: 'pgbouncer',
      include: THROUGH_PGBOUNCER,
      env: { TEST_POOLER: 'transaction' },
      isolate: false,
      globalSetup: [databaseSetup, 'test/helpers/pgbouncer-setup.ts'],
    },
  });

// .ci/run asks for a JSON report too (VITEST_JSON_REPORT), to print a plain closing line.
const jsonReport = process.env.VITEST_JSON_REPORT;
const reporting = jsonReport ? { reporters: ['default', 'json'], outputFile: { json: jsonReport } } : {};

// Files spend most of their time waiting for PostgreSQL (another process), so three run at a
// time even on two cores (vitest's default there is one): the api tier took 136 s instead of
// minutes (docs/testing.md#how-long-it-takes).
export default defineConfig({ test: { projects, maxWorkers: 3, ...reporting } });
