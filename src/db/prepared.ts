import type { SQL } from 'drizzle-orm';
import type { PgDialect, PgSession } from 'drizzle-orm/pg-core';
import type { Database } from './client.js';

/**
 * Statements of the hot reads, built once per query shape and kept prepared
 * (docs/benchmarks.md#prepared-queries). A shape names what changes the SQL text (which optional
 * filters are set, the requested orders); the values travel as placeholders. Assembling the same
 * SQL with drizzle on every request cost about a seventh of a list's CPU. Each database (and each
 * transaction) keeps at most PREPARED_PER_DATABASE shapes, the least recently used dropped first,
 * so no caller can grow the cache without bound. On postgres.js the statements are also prepared
 * by the server (src/db/client.ts).
 */

export const PREPARED_PER_DATABASE = 256;

const caches = new WeakMap<Database, Map<string, unknown>>();

/** What `prepare` made for this shape on this database, made once (least recently used dropped). */
export function byShape<T>(db: Database, shape: string, prepare: () => T): T {
  let cache = caches.get(db);
  if (cache === undefined) caches.set(db, (cache = new Map()));
  const found = cache.get(shape);
  if (found !== undefined) {
    // Map order is insertion order: moving the entry to the end keeps the oldest first.
    cache.delete(shape);
    cache.set(shape, found);
    return found as T;
  }
  const made = prepare();
  cache.set(shape, made);
  if (cache.size > PREPARED_PER_DATABASE) cache.delete(cache.keys().next().value as string);
  return made;
}

/** How many shapes this database keeps now (tests). */
export const preparedShapes = (db: Database): number => caches.get(db)?.size ?? 0;

export interface RawPrepared {
  /** Runs the statement with these placeholder values and answers its rows. */
  rows<T>(values: Record<string, unknown>): Promise<T[]>;
}

/**
 * A raw SQL statement (with sql.placeholder values) turned into SQL text once: the same path
 * db.execute takes, without rebuilding the text. The query listener still sees every run.
 */
export function prepareRaw(db: Database, query: SQL): RawPrepared {
  const internals = db as unknown as { dialect: PgDialect; session: PgSession };
  const prepared = internals.session.prepareQuery(internals.dialect.sqlToQuery(query), undefined, undefined, false);
  return {
    async rows<T>(values: Record<string, unknown>) {
      const result = (await prepared.execute(values)) as T[] | { rows: T[] };
      return Array.isArray(result) ? result : result.rows;
    },
  };
}
