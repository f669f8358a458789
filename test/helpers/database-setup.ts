import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';
import { withDatabase } from './database-url.js';
import { freePort } from './slapd.js';

/**
 * Global setup of every vitest project that needs a database (`api`, `system`, `pgbouncer`;
 * README.md#tests, docs/testing.md#the-test-database). It provides the workers with:
 * - `adminDatabaseUrl`: a superuser connection to the test PostgreSQL: TEST_DATABASE_URL when set,
 *   else an embedded PostgreSQL 17 (src/db/embedded-postgres.ts) started once for the whole run in
 *   a temporary directory, with fsync off (throwaway data), listening on a free loopback port,
 *   stopped and removed at teardown;
 * - `templateDatabase`: the committed migrations applied once, into a database every test database
 *   is a copy of. Applying all migrations cost each test app about 0.9 s; a copy costs a fraction,
 *   and the app's own migrate() then finds nothing left to apply. The migrations themselves stay
 *   tested from an empty database in test/db/migrate.test.ts.
 *
 * Several projects of one run share the cluster and the template (counted references on
 * globalThis: every global setup runs in vitest's main process).
 */

interface Shared {
  adminUrl: string;
  template: string;
  users: number;
  stop(): Promise<void>;
}

const KEY = Symbol.for('deskbook.test-database');
type Holder = { [KEY]?: Promise<Shared> };

/** TEST_DATABASE_URL's server, or an embedded PostgreSQL of this run's own. */
async function testPostgres(): Promise<{ adminUrl: string; stop(): Promise<void> }> {
  const given = process.env.TEST_DATABASE_URL;
  if (given) return { adminUrl: given, stop: async () => {} };
  const { startEmbeddedPostgres } = await import('../../src/db/embedded-postgres.js');
  // As root, startEmbeddedPostgres lets the cluster's system user through this 0700 folder itself.
  const dataDir = mkdtempSync(path.join(tmpdir(), 'deskbook-test-pg-'));
  try {
    // On loopback too (a port of its own): plain postgres:// URLs for postgres.js, PgBouncer and
    // the server processes the tests start (docs/deployment.md#the-embedded-postgresql).
    const cluster = await startEmbeddedPostgres({ dataDir, fsync: false, port: await freePort() });
    return {
      adminUrl: cluster.url,
      async stop() {
        try {
          await cluster.stop();
        } finally {
          rmSync(dataDir, { recursive: true, force: true });
        }
      },
    };
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}

async function startShared(): Promise<Shared> {
  const { adminUrl, stop: stopCluster } = await testPostgres();
  const template = `deskbook_template_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`create database "${template}"`);
    const handle = await openDatabase({ kind: 'postgres', url: withDatabase(adminUrl, template), poolSize: 1 });
    try {
      await migrate(handle.db);
    } finally {
      // CREATE DATABASE … TEMPLATE refuses a template anyone is connected to.
      await handle.close();
    }
  } catch (error) {
    await admin.end();
    await stopCluster();
    throw error;
  }
  return {
    adminUrl,
    template,
    users: 0,
    async stop() {
      try {
        await admin.unsafe(`drop database if exists "${template}" with (force)`);
      } finally {
        await admin.end();
        await stopCluster();
      }
    },
  };
}

/** The run's test PostgreSQL and template, started by the first caller; release() stops them after the last. */
export async function acquireTestDatabase(): Promise<{ adminUrl: string; template: string; release(): Promise<void> }> {
  const holder = globalThis as Holder;
  const pending = (holder[KEY] ??= startShared());
  let shared: Shared;
  try {
    shared = await pending;
  } catch (error) {
    delete holder[KEY];
    throw error;
  }
  shared.users += 1;
  let released = false;
  return {
    adminUrl: shared.adminUrl,
    template: shared.template,
    async release() {
      if (released) return;
      released = true;
      shared.users -= 1;
      if (shared.users === 0) {
        delete holder[KEY];
        await shared.stop();
      }
    },
  };
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const database = await acquireTestDatabase();
  project.provide('adminDatabaseUrl', database.adminUrl);
  project.provide('templateDatabase', database.template);
  return () => database.release();
}
