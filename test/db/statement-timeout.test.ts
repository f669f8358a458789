import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client.js';
import { pgErrorCode, PG } from '../../src/db/errors.js';
import { departments } from '../../src/db/schema.js';
import { createTestApp, expectProblem, type TestApp } from '../helpers/app.js';
import { createTestDatabase, onPostgres } from '../helpers/database.js';

/**
 * DATABASE_STATEMENT_TIMEOUT (docs/behaviour.md, Costly operations). On PostgreSQL a statement
 * running longer is cancelled. The embedded PGlite cannot interrupt a statement (it runs on the
 * Node thread); it refuses to start work that waited longer than the timeout for its turn.
 * Either way the request answers 503 and nothing is written in part.
 */

const TIMEOUT_MS = 200;

interface RawClient {
  query(text: string): Promise<unknown>;
  transaction<T>(work: (tx: { query(text: string): Promise<unknown> }) => Promise<T>): Promise<T>;
}

describe('statement timeout', () => {
  let t: TestApp;
  let token: string;
  /** The driver under drizzle: PGlite (through its queue) or postgres.js. */
  let client: RawClient;

  beforeAll(async () => {
    const database = await createTestDatabase({ statementTimeoutMs: TIMEOUT_MS });
    t = await createTestApp({ database });
    token = await t.adminToken();
    client = (t.database.handle.db as unknown as { $client: RawClient }).$client;
  });
  // The app does not own a database it was given: dispose of it here.
  afterAll(async () => {
    await t?.close();
    await t?.database.dispose();
  });

  const departmentCount = async () => (await queryRows<{ count: number }>(t.database.handle.db, sql`select count(*)::int as count from departments`))[0]!.count;

  describe.runIf(onPostgres)('on PostgreSQL', () => {
    it('cancels a statement that runs longer', async () => {
      const started = performance.now();
      const error = await t.database.handle.db.execute(sql`select pg_sleep(5)`).catch((caught: unknown) => caught);
      expect(pgErrorCode(error)).toBe(PG.QUERY_CANCELED);
      expect(performance.now() - started).toBeLessThan(4000);
    });

    it('answers 503 to a request whose statement is cancelled', async () => {
      // The session lookup of every request waits for this lock until it is cancelled.
      let release!: () => void;
      let locked!: () => void;
      const lockTaken = new Promise<void>((resolve) => (locked = resolve));
      const holder = t.database.handle.db.transaction(async (tx) => {
        await tx.execute(sql`lock table sessions in access exclusive mode`);
        locked();
        await new Promise<void>((resolve) => (release = resolve));
      });
      await lockTaken;
      const response = await t.request({ method: 'GET', url: '/api/self', token });
      release();
      await holder;
      expectProblem(response, 503, 'SERVICE_UNAVAILABLE');
      expect((await t.request({ method: 'GET', url: '/api/self', token })).statusCode).toBe(200);
    });
  });

  describe.runIf(!onPostgres)('on the embedded database (PGlite)', () => {
    it('takes the setting but cannot interrupt a running statement: it runs to its end', async () => {
      expect(await queryRows(t.database.handle.db, sql`show statement_timeout`)).toEqual([{ statement_timeout: `${TIMEOUT_MS}ms` }]);
      const started = performance.now();
      await client.query('select pg_sleep(0.5)');
      expect(performance.now() - started).toBeGreaterThanOrEqual(490);
    });

    /** Holds the database's one queue with a transaction until `open()` is called, without blocking the thread. */
    function holdTheQueue(): { open(): void; done: Promise<void> } {
      let open!: () => void;
      const gate = new Promise<void>((resolve) => (open = resolve));
      const done = client.transaction(async (tx) => {
        await tx.query('select 1');
        await gate;
      });
      return { open, done };
    }

    it('does not start work that waited longer than the timeout: it fails as cancelled, a transaction writes nothing', async () => {
      const before = await departmentCount();
      const held = holdTheQueue();
      const statement = t.database.handle.db.execute(sql`select 1`).catch((error: unknown) => error);
      const transaction = t.database.handle.db
        .transaction(async (tx) => {
          await tx.insert(departments).values({ location: 'Never', building: 'Written', floor: 1 });
        })
        .catch((error: unknown) => error);
      await sleep(TIMEOUT_MS + 100);
      held.open();
      await held.done;
      expect(pgErrorCode(await statement)).toBe(PG.QUERY_CANCELED);
      expect(pgErrorCode(await transaction)).toBe(PG.QUERY_CANCELED);
      expect(await departmentCount()).toBe(before);
    });

    it('runs work that waited less, and answers 503 to a request that waited too long', async () => {
      const briefly = holdTheQueue();
      const quick = t.request({ method: 'GET', url: '/api/self', token });
      await sleep(TIMEOUT_MS / 4);
      briefly.open();
      expect((await quick).statusCode).toBe(200);

      const long = holdTheQueue();
      const late = t.request({ method: 'GET', url: '/api/self', token });
      await sleep(TIMEOUT_MS + 100);
      long.open();
      expectProblem(await late, 503, 'SERVICE_UNAVAILABLE');
      expect((await t.request({ method: 'GET', url: '/api/self', token })).statusCode).toBe(200);
    });
  });
});
