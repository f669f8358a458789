import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, queryRows, type DatabaseHandle } from '../../src/db/client.js';
import { adminUrl, createPostgresDatabase } from '../helpers/database.js';
import { pgbouncerInstalled, startPgBouncer, type PgBouncer } from '../helpers/pgbouncer.js';

/**
 * DATABASE_POOLER=transaction through a real PgBouncer 1.18 in transaction mode
 * (docs/deployment.md#through-pgbouncer-in-transaction-mode): three pools of 2 connections share
 * 2 server connections; statements with and without parameters interleave (before the fix, a
 * statement pipelined behind a parameterless one waited forever), and no statement is left
 * prepared on the server.
 */
describe.runIf(pgbouncerInstalled())('through PgBouncer in transaction mode', () => {
  let bouncer: PgBouncer;
  let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
  const handles: DatabaseHandle[] = [];

  beforeAll(async () => {
    database = await createPostgresDatabase();
    bouncer = await startPgBouncer(adminUrl(), { poolSize: 2 });
    for (let i = 0; i < 3; i++) handles.push(await openDatabase({ kind: 'postgres', url: bouncer.through(database.url), pooler: 'transaction', poolSize: 2 }));
  });

  afterAll(async () => {
    await Promise.all(handles.map((handle) => handle.close()));
    await bouncer?.stop();
    await database?.drop();
  });

  it('answers statements with and without parameters interleaved, from several pools at once', async () => {
    const work = handles.flatMap((handle) =>
      Array.from({ length: 200 }, (_, i) =>
        i % 2
          ? queryRows<{ one: number }>(handle.db, sql`select 1 as one`).then((rows) => rows[0]!.one)
          : queryRows<{ x: number }>(handle.db, sql`select ${i}::int as x`).then((rows) => rows[0]!.x),
      ),
    );
    const timeout = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), 15_000).unref());
    const answers = await Promise.race([Promise.all(work), timeout]);
    expect(answers).not.toBe('timeout');
    const expected = handles.flatMap(() => Array.from({ length: 200 }, (_, i) => (i % 2 ? 1 : i)));
    expect(answers).toEqual(expected);
  });

  it('runs transactions with transaction-scoped advisory locks and leaves nothing prepared', async () => {
    const results = await Promise.all(
      handles.map((handle, index) =>
        handle.db.transaction(async (tx) => {
          await tx.execute(sql`select pg_advisory_xact_lock(42)`);
          return queryRows<{ n: number }>(tx, sql`select ${index}::int as n`);
        }),
      ),
    );
    expect(results.map((rows) => rows[0]!.n)).toEqual([0, 1, 2]);
    const [prepared] = await queryRows<{ count: number }>(handles[0]!.db, sql`select count(*)::int as count from pg_prepared_statements`);
    expect(prepared!.count).toBe(0);
    const [zone] = await queryRows<{ zone: string }>(handles[0]!.db, sql`select current_setting('TimeZone') as zone`);
    expect(zone!.zone).toBe('UTC');
  });
});
