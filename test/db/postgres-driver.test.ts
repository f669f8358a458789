import { describe, expect, it } from 'vitest';
import { postgres } from '../../src/db/postgres-driver.js';
import { adminUrl } from '../helpers/database.js';

/** The postgres.js the service connects with, on its own queue (postgres-queue.test.ts), against the test PostgreSQL. */
describe('the postgres.js driver of the service', () => {
  it('queues statements on a pool of one and answers them all, in order', async () => {
    const sql = postgres(adminUrl(), { max: 1, onnotice: () => {} });
    try {
      const answers = await Promise.all(Array.from({ length: 200 }, (_, i) => sql`select ${i}::int as n`.then((rows) => rows[0]!.n as number)));
      expect(answers).toEqual(Array.from({ length: 200 }, (_, i) => i));
    } finally {
      await sql.end();
    }
  });
});
