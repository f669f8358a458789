import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import type { Sql } from 'postgres';
import { postgres } from './postgres-driver.js';
import { PG } from './errors.js';
import * as schema from './schema.js';

/** The one database type repositories see: PGlite and postgres.js share the PostgreSQL dialect. */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface DatabaseHandle {
  db: Database;
  kind: 'pglite' | 'postgres';
  /** False once closing began: errors then mean 'unavailable' (PGlite throws plain Errors when closed). */
  isOpen(): boolean;
  close(): Promise<void>;
  /**
   * PostgreSQL only: one `select 1` over a connection of its own, opened for it and closed after,
   * so that it answers even when every pooled connection is busy or stuck (db/availability.ts).
   */
  probe?: () => Promise<void>;
}

/** Told the SQL text and parameters of every statement drizzle sends (tests count and explain statements with it). */
export type QueryListener = (sql: string, params: unknown[]) => void;

export type DatabaseOptions =
  | {
      kind: 'postgres';
      url: string;
      poolSize?: number;
      connectTimeoutMs?: number;
      statementTimeoutMs?: number;
      onQuery?: QueryListener;
      /** 'transaction': reached through a pooler in transaction mode, see sessionFree. */
      pooler?: 'none' | 'transaction';
    }
  /** dataDir undefined: in memory (tests). statementTimeoutMs: see waitingNoLongerThan. */
  | {
      kind: 'pglite';
      dataDir?: string;
      statementTimeoutMs?: number;
      onQuery?: QueryListener;
      /** Only in memory: start from this dump of a data directory (PGlite's dumpDataDir) instead of an empty one; tests start from a migrated template. */
      initial?: Blob;
    };

/** The extensions the migrations create; PGlite has to be given them at start. */
export const PGLITE_EXTENSIONS = { btree_gist, pg_trgm };

const queryLogger = (onQuery: QueryListener | undefined) => (onQuery ? { logQuery: (query: string, params: unknown[]) => onQuery(query, params) } : undefined);

/**
 * Drizzle sends its queries unnamed (parsed and planned anew each time) unless a query is built
 * with `.prepare()`. postgres.js prepares a statement once per connection and reuses it when
 * asked, which on this kind of machine doubles PostgreSQL's throughput for short reads, so every
 * query outside a transaction is sent that way. Statement texts come from the repositories'
 * query shapes (list filters add one text per list length), so each connection's cache stays small.
 */
function alwaysPrepared(client: Sql): Sql {
  return new Proxy(client, {
    get(target, property, receiver) {
      if (property === 'unsafe') {
        return (query: string, parameters?: unknown[], options?: object) => target.unsafe(query, parameters as never, { ...options, prepare: true });
      }
      return Reflect.get(target, property, receiver);
    },
  });
}

/**
 * Behind a pooler in transaction mode: a connection sends a statement outside a transaction only
 * once the previous one was answered. postgres.js otherwise pipelines a statement behind one
 * without parameters (sent as a simple query); when the one behind has parameters and is sent
 * unnamed, its first half (Parse, Describe, Flush) waits for the second, and PgBouncer 1.18 gives
 * the server connection to another client at the first one's ReadyForQuery: the statement's
 * caller then waited forever (seen with 45 bookings at once through three processes).
 * `onexecute` answering false takes the connection out of the queue until its statement is done.
 * Inside a transaction (postgres.js's own `begin`, not this wrapper) PgBouncer keeps the server
 * connection, so pipelining stays.
 */
function oneAtATime(client: Sql): Sql {
  return new Proxy(client, {
    get(target, property, receiver) {
      if (property === 'unsafe') {
        return (query: string, parameters?: unknown[], options?: object) =>
          target.unsafe(query, parameters as never, { ...options, onexecute: () => false } as never);
      }
      return Reflect.get(target, property, receiver);
    },
  });
}

const RECONNECT_BACKOFF_S = 0.2;

/**
 * Behind a pooler in transaction mode (PgBouncer 1.18) consecutive statements of one caller may
 * run on different server connections, so nothing may live on a connection between transactions
 * (docs/deployment.md#through-pgbouncer-in-transaction-mode): statements are sent unnamed (parsed
 * each time; `prepare: false` overrides drizzle's per-query request), and the start-up packet
 * carries only the parameters PgBouncer tracks per client (application_name, TimeZone), and
 * statements outside transactions are not pipelined (oneAtATime). The
 * statement timeout and jit cannot travel there: they belong to the database role
 * (ALTER ROLE … SET statement_timeout) or PgBouncer's connect_query. The service itself takes
 * only transaction-scoped advisory locks and never LISTENs, in either mode.
 */
function sessionFree(options: { statementTimeoutMs?: number }, pooled: boolean) {
  if (pooled) return { prepare: false, connection: { application_name: 'deskbook', TimeZone: 'UTC' } };
  return {
    prepare: true,
    connection: {
      application_name: 'deskbook',
      statement_timeout: options.statementTimeoutMs ?? 30_000,
      TimeZone: 'UTC',
      // Compiling a plan costs milliseconds that none of these short queries wins back.
      jit: 'off',
    },
  };
}

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if (options.kind === 'postgres') {
    const pooled = options.pooler === 'transaction';
    const session = sessionFree(options, pooled);
    const client = postgres(options.url, {
      prepare: session.prepare,
      max: options.poolSize ?? 10,
      connect_timeout: (options.connectTimeoutMs ?? 5000) / 1000,
      idle_timeout: 60,
      // The driver's default backoff between reconnection attempts grows to 20 s, and queued
      // queries wait through it: after an outage the service would stay away that long.
      backoff: () => RECONNECT_BACKOFF_S,
      onnotice: () => {},
      connection: session.connection,
    });
    const probe = async () => {
      const single = postgres(options.url, {
        prepare: false,
        max: 1,
        connect_timeout: 2,
        idle_timeout: 1,
        onnotice: () => {},
        connection: { application_name: 'deskbook-probe' },
      });
      try {
        await single.unsafe('select 1');
      } finally {
        // A probe that got no answer is abandoned by the caller's timeout; its socket goes at once.
        void single.end({ timeout: 0 });
      }
    };
    return {
      ...handle(drizzlePostgres(pooled ? oneAtATime(client) : alwaysPrepared(client), { schema, logger: queryLogger(options.onQuery) }), 'postgres', () =>
        client.end({ timeout: 5 }),
      ),
      probe,
    };
  }
  let location: string | undefined;
  if (options.dataDir !== undefined) {
    location = path.resolve(options.dataDir, 'pgdata');
    mkdirSync(location, { recursive: true });
  }
  // PGlite reads a missing first argument as the options object: name the in-memory store.
  const client = new PGlite(location ?? 'memory://', {
    extensions: PGLITE_EXTENSIONS,
    ...(options.initial && location === undefined ? { loadDataDir: options.initial } : {}),
  });
  await client.waitReady;
  await client.exec(`SET TIME ZONE 'UTC'`);
  if (options.statementTimeoutMs !== undefined) await client.exec(`SET statement_timeout = ${Math.trunc(options.statementTimeoutMs)}`);
  const queued = options.statementTimeoutMs === undefined ? client : waitingNoLongerThan(client, options.statementTimeoutMs);
  return handle(drizzlePglite(queued, { schema, logger: queryLogger(options.onQuery) }), 'pglite', () => client.close());
}

/**
 * PGlite runs one statement at a time, on this thread, and cannot interrupt one: it accepts
 * statement_timeout but the timer never fires inside WebAssembly (a 1 s pg_sleep with a 200 ms
 * timeout runs its second, and no timer or request of the process runs meanwhile). What it can
 * bound is the wait: statements and transactions take turns in one queue here, and one whose turn
 * comes after it waited longer than `timeoutMs` is not started and fails like a cancelled
 * statement (its request answers 503). A transaction is one turn, so it is refused before its
 * BEGIN or runs to its end, never in part. So the backlog behind a slow statement is dropped
 * instead of growing, and a request waits at most about that long plus the statement ahead of it.
 */
function waitingNoLongerThan(client: PGlite, timeoutMs: number): PGlite {
  let queue: Promise<unknown> = Promise.resolve();
  const inTurn =
    <A extends unknown[], R>(work: (...args: A) => Promise<R>) =>
    (...args: A): Promise<R> => {
      const queuedAt = performance.now();
      const turn = queue.then(() => {
        if (performance.now() - queuedAt > timeoutMs) throw new StatementWaitedTooLong(timeoutMs);
        return work(...args);
      });
      queue = turn.catch(() => undefined);
      return turn;
    };
  const turns: Partial<Record<keyof PGlite, unknown>> = {
    query: inTurn(client.query.bind(client)),
    exec: inTurn(client.exec.bind(client)),
    transaction: inTurn(client.transaction.bind(client)),
  };
  return new Proxy(client, {
    get(target, property) {
      if (Object.hasOwn(turns, property)) return turns[property as keyof PGlite];
      // PGlite keeps its state in private fields: its methods must run on the instance itself.
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** Carries PostgreSQL's code for a cancelled statement, so it is handled like one (503). */
class StatementWaitedTooLong extends Error {
  override name = 'StatementWaitedTooLong';
  readonly code = PG.QUERY_CANCELED;
  constructor(timeoutMs: number) {
    super(`the statement waited longer than ${timeoutMs} ms for the embedded database and was not started`);
  }
}

function handle(db: unknown, kind: DatabaseHandle['kind'], closeClient: () => Promise<void>): DatabaseHandle {
  let open = true;
  return {
    db: db as Database,
    kind,
    isOpen: () => open,
    close: () => {
      open = false;
      return closeClient();
    },
  };
}

/** Rows of a raw statement; postgres.js answers an array, PGlite an object holding `rows`. */
export async function queryRows<T>(db: Database, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as T[] | { rows: T[] };
  return Array.isArray(result) ? result : result.rows;
}
