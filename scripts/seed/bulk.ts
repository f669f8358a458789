import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Sql, TransactionSql } from 'postgres';
import type { DatabaseHandle } from '../../src/db/client.js';

/** A value of one COPY column; Dates are written as ISO instants, null as SQL NULL. */
export type CopyValue = string | number | boolean | Date | null;

/**
 * One transaction of the seed: plain statements, and COPY … FROM STDIN for the bulk rows (the
 * fastest way into PostgreSQL).
 */
export interface BulkSession {
  query<T>(text: string, params?: unknown[]): Promise<T[]>;
  /** Streams the rows into `table` and answers how many were written. */
  copy(table: string, columns: readonly string[], rows: Iterable<readonly CopyValue[]>): Promise<number>;
}

/** Rows per COPY chunk: large enough to keep round trips rare, small enough to bound memory. */
const CHUNK_ROWS = 20_000;

// COPY text format: backslash, tab, newline and carriage return are escaped.
const escapeText = (value: string) =>
  /[\\\t\n\r]/.test(value) ? value.replace(/[\\\t\n\r]/g, (c) => ({ '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' })[c]!) : value;

function field(value: CopyValue): string {
  if (value === null) return '\\N';
  if (typeof value === 'string') return escapeText(value);
  if (typeof value === 'boolean') return value ? 't' : 'f';
  if (value instanceof Date) return value.toISOString();
  return String(value);
}

/** The rows as COPY text, CHUNK_ROWS lines per string, counting them into `counter`. */
function* copyText(rows: Iterable<readonly CopyValue[]>, counter: { rows: number }, rowsPerChunk = CHUNK_ROWS): Generator<string> {
  let lines: string[] = [];
  for (const row of rows) {
    lines.push(row.map(field).join('\t'));
    counter.rows++;
    if (lines.length === rowsPerChunk) {
      yield lines.join('\n') + '\n';
      lines = [];
    }
  }
  if (lines.length > 0) yield lines.join('\n') + '\n';
}

const copyStatement = (table: string, columns: readonly string[], source: string) =>
  `copy ${table} (${columns.map((column) => `"${column}"`).join(', ')}) from ${source}`;

function postgresSession(tx: TransactionSql): BulkSession {
  return {
    query: async <T>(text: string, params: unknown[] = []) => [...(await tx.unsafe(text, params as never[]))] as T[],
    async copy(table, columns, rows) {
      const counter = { rows: 0 };
      const stream = await tx.unsafe(copyStatement(table, columns, 'stdin')).writable();
      await pipeline(Readable.from(copyText(rows, counter)), stream);
      return counter.rows;
    },
  };
}

/**
 * Runs `work` in one transaction on the handle's own driver: all of the seed is written, or
 * none of it. Statement timeouts of the pool are lifted for this transaction only.
 */
export async function inTransaction<T>(handle: DatabaseHandle, work: (session: BulkSession) => Promise<T>): Promise<T> {
  const client = (handle.db as unknown as { $client: unknown }).$client;
  const sql = client as Sql;
  return (await sql.begin(async (tx) => {
    await tx.unsafe('set local statement_timeout = 0');
    return work(postgresSession(tx));
  })) as T;
}

/** A statement outside any transaction (VACUUM cannot run inside one). */
export async function execute(handle: DatabaseHandle, text: string): Promise<void> {
  const client = (handle.db as unknown as { $client: unknown }).$client;
  await (client as Sql).unsafe(text);
}
