import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client.js';
import { pgErrorCode, PG } from '../../src/db/errors.js';
import { departments } from '../../src/db/schema.js';
import { createTestApp, expectProblem, type TestApp } from '../helpers/app.js';
import { createTestDatabase } from '../helpers/database.js';

/**
 * DATABASE_STATEMENT_TIMEOUT (docs/behaviour.md, Costly operations): a statement running longer
 * is cancelled, the request answers 503 and nothing is written in part.
 */

const TIMEOUT_MS = 200;

describe('statement timeout', () => {
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    const database = await createTestDatabase({ statementTimeoutMs: TIMEOUT_MS });
    t = await createTestApp({ database });
    token = await t.adminToken();
  });
  // The app does not own a database it was given: dispose of it here.
  afterAll(async () => {
    await t?.close();
    await t?.database.dispose();
  });

  const departmentCount = async () => (await queryRows<{ count: number }>(t.database.handle.db, sql`select count(*)::int as count from departments`))[0]!.count;

  describe('on PostgreSQL', () => {
    it('cancels a transaction whose statement runs longer: it writes nothing', async () => {
      const before = await departmentCount();
      const error = await t.database.handle.db
        .transaction(async (tx) => {
          await tx.insert(departments).values({ location: 'Never', building: 'Written', floor: 1 });
          await tx.execute(sql`select pg_sleep(5)`);
        })
        .catch((caught: unknown) => caught);
      expect(pgErrorCode(error)).toBe(PG.QUERY_CANCELED);
      expect(await departmentCount()).toBe(before);
    });

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
});
