import type { SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import postgres, { type Sql } from 'postgres';
import { clientUrl } from './connection-url.js';
import * as schema from './schema.js';

/** The one database type repositories see. */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface DatabaseHandle {
  db: Database;
  /** False once closing began: errors then mean 'unavailable'. */
  isOpen(): boolean;
  close(): Promise<void>;
  /**
   * One `select 1` over a connection of its own, opened for it and closed after, so that it
   * answers even when every pooled connection is busy or stuck (infrastructure/database-gate/breaker.ts).
   */
  probe: () => Promise<void>;
}

/** Told the SQL text and parameters of every statement drizzle sends (tests count and explain statements with it). */
export type QueryListener = (sql: string, params: unknown[]) => void;

export type DatabaseOptions = {
  kind: 'postgres';
  url: string;
  poolSize?: number;
  connectTimeoutMs?: number;
  statementTimeoutMs?: number;
  onQuery?: QueryListener;
  /** 'transaction': reached through a pooler in transaction mode, see sessionFree. */
  pooler?: 'none' | 'transaction';
};

const queryLogger = (onQuery: QueryListener | undefined) => (onQuery ? { logQuery: (query: string, params: unknown[]) => onQuery(query, params) } : undefined);

/** Statements with more parameters than this (multi-row inserts, long id lists) stay unnamed: each length would be a statement of its own on every connection. */
const PREPARED_MAX_PARAMETERS = 32;

/**
 * Drizzle sends its queries unnamed (parsed and planned anew each time) unless a query is built
 * with `.prepare()`. postgres.js prepares a statement once per connection and reuses it when
 * asked, which on this kind of machine doubles PostgreSQL's throughput for short reads, so every
 * query is sent that way, in transactions too (`begin`, `savepoint`: their scope is wrapped the
 * same way), up to PREPARED_MAX_PARAMETERS parameters. An unnamed statement with parameters also
 * costs a round trip of its own (postgres.js asks the server for its parameter types first) and
 * holds back the statements behind it, so statements sent together in a transaction were not
 * pipelined (docs/benchmarks.md#booking-policies). Statement texts come from the repositories'
 * query shapes, so each connection's cache stays small.
 */
function alwaysPrepared(client: Sql): Sql {
  return new Proxy(client, {
    get(target, property, receiver) {
      if (property === 'unsafe') {
        return (query: string, parameters?: unknown[], options?: object) =>
          target.unsafe(query, parameters as never, { ...options, prepare: (parameters?.length ?? 0) <= PREPARED_MAX_PARAMETERS });
      }
      if (property === 'begin' || property === 'savepoint') {
        const open = Reflect.get(target, property, receiver) as (...args: unknown[]) => Promise<unknown>;
        return (...args: unknown[]) => {
          const work = args.pop() as (scope: Sql) => unknown;
          return open.call(target, ...args, (scope: Sql) => work(alwaysPrepared(scope)));
        };
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
  const pooled = options.pooler === 'transaction';
  const session = sessionFree(options, pooled);
  // A libpq-style `?host=/dir` names a Unix socket directory (the embedded PostgreSQL's).
  const target = clientUrl(options.url);
  const client = postgres(target.url, {
    ...target.options,
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
    const single = postgres(target.url, {
      ...target.options,
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
  let open = true;
  return {
    db: drizzlePostgres(pooled ? oneAtATime(client) : alwaysPrepared(client), { schema, logger: queryLogger(options.onQuery) }) as unknown as Database,
    isOpen: () => open,
    close: () => {
      open = false;
      return client.end({ timeout: 5 });
    },
    probe,
  };
}

/** Rows of a raw statement (postgres.js answers them as an array). */
export async function queryRows<T>(db: Database, query: SQL): Promise<T[]> {
  return (await db.execute(query)) as unknown as T[];
}
