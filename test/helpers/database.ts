import { randomBytes } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import postgres from 'postgres';
import { inject } from 'vitest';
import { openDatabase, type DatabaseHandle, type QueryListener } from '../../src/db/client.js';
import { throughLocalPort, withDatabase } from './database-url.js';

/**
 * Every test database is a PostgreSQL database of its own on the run's test PostgreSQL: the
 * embedded one the global setup started, or TEST_DATABASE_URL's server
 * (test/helpers/database-setup.ts, docs/testing.md#the-test-database).
 */

/**
 * The `pgbouncer` vitest project (vitest.config.ts) runs a named subset of the suite with every
 * test app's pool going through PgBouncer in transaction mode (DATABASE_POOLER=transaction,
 * docs/deployment.md#through-pgbouncer-in-transaction-mode); its global setup starts PgBouncer.
 */
export const throughPgBouncer = process.env.TEST_POOLER === 'transaction';

/** `url` of a test database rewritten to reach it through the project's PgBouncer. */
function pooledUrl(url: string): string {
  return throughLocalPort(url, inject('pgbouncerPort'));
}

/**
 * The environment that points a server process (test/helpers/server-process.ts) at a test
 * database: straight at PostgreSQL, or in the `pgbouncer` project through its PgBouncer with
 * DATABASE_POOLER=transaction, as the test apps' pools.
 */
export function serverDatabaseEnv(url: string): { DATABASE_URL: string; DATABASE_POOLER?: string } {
  return throughPgBouncer ? { DATABASE_URL: pooledUrl(url), DATABASE_POOLER: 'transaction' } : { DATABASE_URL: url };
}

/** A superuser connection URL to the test PostgreSQL's `postgres` database (from the project's global setup). */
export function adminUrl(): string {
  return inject('adminDatabaseUrl');
}

/**
 * A new PostgreSQL database on the test server, a copy of the run's migrated template
 * (test/helpers/database-setup.ts) or, with `empty`, without a table; drop() removes it.
 */
export async function createPostgresDatabase(options: { empty?: boolean } = {}): Promise<{ url: string; name: string; drop(): Promise<void> }> {
  const name = `deskbook_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = postgres(adminUrl(), { max: 1, onnotice: () => {} });
  const template = options.empty ? '' : ` template "${inject('templateDatabase')}"`;
  try {
    await admin.unsafe(`create database "${name}"${template}`);
  } finally {
    await admin.end();
  }
  return {
    url: withDatabase(adminUrl(), name),
    name,
    async drop() {
      const again = postgres(adminUrl(), { max: 1, onnotice: () => {} });
      try {
        await again.unsafe(`drop database if exists "${name}" with (force)`);
      } finally {
        await again.end();
      }
    },
  };
}

export interface TestDatabase {
  handle: DatabaseHandle;
  /** The URL of this fresh database (for a second pool or a server process; direct, never through PgBouncer). */
  url: string;
  dispose(): Promise<void>;
}

/**
 * A fresh PostgreSQL database of its own, opened with a pool (through the project's PgBouncer in
 * the `pgbouncer` project); it starts with every migration applied unless `empty` is set.
 */
export async function createTestDatabase(
  options: { poolSize?: number; statementTimeoutMs?: number; onQuery?: QueryListener; empty?: boolean } = {},
): Promise<TestDatabase> {
  const created = await createPostgresDatabase({ empty: options.empty });
  const handle = await openDatabase({
    kind: 'postgres',
    url: throughPgBouncer ? pooledUrl(created.url) : created.url,
    pooler: throughPgBouncer ? 'transaction' : 'none',
    poolSize: options.poolSize ?? 10,
    statementTimeoutMs: options.statementTimeoutMs,
    onQuery: options.onQuery,
  });
  return {
    handle,
    url: created.url,
    async dispose() {
      await handle.close();
      await created.drop();
    },
  };
}

export interface SentStatement {
  sql: string;
  params: unknown[];
}

/** Counts (and keeps) the statements a database is sent while an action runs; pass `onQuery` to createTestDatabase. */
export class StatementCounter {
  private recording = false;
  private sent: SentStatement[] = [];
  readonly onQuery = (text: string, params: unknown[]): void => {
    if (this.recording) this.sent.push({ sql: text, params });
  };

  async count<T>(action: () => Promise<T>): Promise<{ result: T; statements: number }> {
    const { result, sent } = await this.record(action);
    return { result, statements: sent.length };
  }

  async record<T>(action: () => Promise<T>): Promise<{ result: T; sent: SentStatement[] }> {
    this.sent = [];
    this.recording = true;
    try {
      return { result: await action(), sent: this.sent };
    } finally {
      this.recording = false;
    }
  }
}

/** A sent statement rebuilt as drizzle SQL with the same parameters (to run EXPLAIN on it). */
export function rebuilt(statement: SentStatement): SQL {
  const pieces = statement.sql.split(/\$(\d+)/);
  return sql.join(pieces.map((piece, index) => (index % 2 === 0 ? sql.raw(piece) : sql`${statement.params[Number(piece) - 1]}`)));
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** Port of the PgBouncer the `pgbouncer` project's global setup started. */
    pgbouncerPort: number;
    /** Superuser URL of the run's test PostgreSQL (database-setup.ts). */
    adminDatabaseUrl: string;
    /** The migrated database every test database is a copy of (database-setup.ts). */
    templateDatabase: string;
  }
}
