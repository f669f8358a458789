import { existsSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

// Every test file runs on the embedded database (PGlite); with TEST_DATABASE_URL set (an admin
// connection to a PostgreSQL server) it runs a second time against that server, each test file
// in a fresh database of its own.
// Each project's global setup migrates one template database that every test database copies
// (test/helpers/template-setup.ts).
const shared = { include: ['test/**/*.test.ts'], testTimeout: 60_000, hookTimeout: 120_000, globalSetup: ['test/helpers/template-setup.ts'] };
const projects: { test: Record<string, unknown> }[] = [{ test: { ...shared, name: 'pglite', env: { TEST_DB: 'pglite' } } }];
if (process.env.TEST_DATABASE_URL) projects.push({ test: { ...shared, name: 'postgres', env: { TEST_DB: 'postgres' } } });

// A named subset of the API suite, one or more files per module, a third time with every pool
// through Debian's PgBouncer in transaction mode (docs/deployment.md#through-pgbouncer-in-transaction-mode).
// Server processes the files start go through the same PgBouncer (serverDatabaseEnv in
// test/helpers/database.ts), so the booking storms of concurrency.test.ts run through it too.
export const THROUGH_PGBOUNCER = [
  'test/modules/attendance/attendance.test.ts',
  'test/modules/attendance/release-processes.test.ts',
  'test/modules/auth/auth.test.ts',
  'test/modules/avatars/avatars.test.ts',
  'test/modules/calendar/bounds.test.ts',
  'test/modules/calendar/feed.test.ts',
  'test/modules/calendar/invitations.test.ts',
  'test/modules/department-images/department-images.test.ts',
  'test/modules/floor-plans/floor-plans.test.ts',
  'test/modules/inventory/rooms-desks.test.ts',
  'test/modules/inventory/departments.test.ts',
  'test/modules/oidc/oidc.test.ts',
  'test/modules/password/password.test.ts',
  'test/modules/reports/reports.test.ts',
  'test/modules/reservations/concurrency.test.ts',
  'test/modules/reservations/deadlock.test.ts',
  'test/modules/reservations/reservations.test.ts',
  'test/modules/search/places.test.ts',
  'test/modules/self/self.test.ts',
  'test/modules/series/series.test.ts',
  'test/modules/sessions/sessions.test.ts',
  'test/modules/settings/settings.test.ts',
  'test/modules/stats/stats.test.ts',
  'test/modules/users/users.test.ts',
];
if (process.env.TEST_DATABASE_URL && existsSync('/usr/sbin/pgbouncer'))
  projects.push({
    test: {
      ...shared,
      include: THROUGH_PGBOUNCER,
      name: 'pgbouncer',
      env: { TEST_DB: 'postgres', TEST_POOLER: 'transaction' },
      globalSetup: ['test/helpers/template-setup.ts', 'test/helpers/pgbouncer-setup.ts'],
    },
  });

// .ci/run asks for a JSON report too (VITEST_JSON_REPORT), to print a plain closing line.
const jsonReport = process.env.VITEST_JSON_REPORT;
const reporting = jsonReport ? { reporters: ['default', 'json'], outputFile: { json: jsonReport } } : {};

export default defineConfig({ test: { projects, ...reporting } });
