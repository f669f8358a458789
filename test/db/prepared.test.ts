import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { byShape, PREPARED_PER_DATABASE, prepareRaw, preparedShapes } from '../../src/db/prepared.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

/** Statements prepared once per query shape (docs/benchmarks.md#prepared-queries). */

describe('prepared by shape', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('builds each shape once and reuses it with other values', async () => {
    const db = t.database.handle.db;
    let built = 0;
    const query = () =>
      byShape(db, 'test:add', () => {
        built += 1;
        return prepareRaw(db, sql`select (${sql.placeholder('a')}::int + ${sql.placeholder('b')}::int) as "sum"`);
      });
    expect(await query().rows<{ sum: number }>({ a: 1, b: 2 })).toEqual([{ sum: 3 }]);
    expect(await query().rows<{ sum: number }>({ a: 40, b: 2 })).toEqual([{ sum: 42 }]);
    expect(built).toBe(1);
  });

  it(`keeps at most ${PREPARED_PER_DATABASE} shapes per database, dropping the least recently used`, () => {
    const db = t.database.handle.db;
    const made: string[] = [];
    const use = (shape: string) => byShape(db, shape, () => (made.push(shape), shape));
    for (let index = 0; index < PREPARED_PER_DATABASE; index++) use(`lru:${index}`);
    expect(preparedShapes(db)).toBe(PREPARED_PER_DATABASE);
    made.length = 0;
    use('lru:0'); // now the most recently used
    use('lru:new'); // drops lru:1, the least recently used
    expect(preparedShapes(db)).toBe(PREPARED_PER_DATABASE);
    use('lru:0');
    expect(made).toEqual(['lru:new']);
    use('lru:1');
    expect(made).toEqual(['lru:new', 'lru:1']);
  });

  it('serves the hot lists from one prepared statement per shape, whatever the values', async () => {
    const token = await t.adminToken();
    const post = async (url: string, payload: object) => (await t.request({ method: 'POST', url, token, payload })).json<{ id: string }>().id;
    const departmentId = await post('/api/departments', { location: 'Hamburg', building: 'B', floor: 2 });
    const roomA = await post(`/api/departments/${departmentId}/rooms`, { name: 'A' });
    const roomB = await post(`/api/departments/${departmentId}/rooms`, { name: 'B' });
    await post(`/api/departments/${departmentId}/rooms/${roomA}/desks`, { name: 'A1', type: 'FIXED' });
    await post(`/api/departments/${departmentId}/rooms/${roomB}/desks`, { name: 'B1' });
    await post(`/api/departments/${departmentId}/rooms/${roomB}/desks`, { name: 'B2', type: 'FIXED' });
    const names = async (roomId: string, query: Record<string, string> = {}) =>
      (await t.request({ method: 'GET', url: `/api/departments/${departmentId}/rooms/${roomId}/desks`, token, query }))
        .json<{ content: { name: string }[] }>()
        .content.map((desk) => desk.name);
    expect(await names(roomA)).toEqual(['A1']);
    expect(await names(roomB)).toEqual(['B1', 'B2']);
    expect(await names(roomB, { type: 'FIXED' })).toEqual(['B2']);
    expect(await names(roomB, { sort: 'name,desc' })).toEqual(['B2', 'B1']);
    expect(await names(roomB, { size: '1', page: '1' })).toEqual(['B2']);
  });

  // src/db/client.ts (alwaysPrepared): in a transaction too, a statement with parameters is a named
  // statement of the connection, so statements sent together are pipelined (docs/benchmarks.md#booking-policies);
  // one with more than PREPARED_MAX_PARAMETERS parameters stays unnamed. Not behind PgBouncer, where
  // nothing may live on a connection (docs/deployment.md#through-pgbouncer-in-transaction-mode).
  it.skipIf(process.env.TEST_POOLER === 'transaction')('prepares statements in transactions and savepoints, up to 32 parameters', async () => {
    const db = t.database.handle.db;
    const named = (marker: string) =>
      sql`select count(*)::int as n from pg_prepared_statements where statement like ${`%${marker}%`} and statement not like '%pg_prepared_statements%'`;
    const found = await db.transaction(async (tx) => {
      await tx.execute(sql`select ${1}::int as "tx_marker_short"`);
      await tx.execute(
        sql`select ${sql.join(
          Array.from({ length: 33 }, (_, i) => sql`${i}::int`),
          sql`, `,
        )}, 'tx_marker_long' as m`,
      );
      const nested = await tx.transaction(async (inner) => {
        await inner.execute(sql`select ${2}::int as "tx_marker_savepoint"`);
        return (await inner.execute(named('tx_marker_savepoint'))) as unknown as { n: number }[];
      });
      const short = (await tx.execute(named('tx_marker_short'))) as unknown as { n: number }[];
      const long = (await tx.execute(named('tx_marker_long'))) as unknown as { n: number }[];
      return { short: short[0]!.n, long: long[0]!.n, savepoint: nested[0]!.n };
    });
    expect(found).toEqual({ short: 1, long: 0, savepoint: 1 });
  });
});
