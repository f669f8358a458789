import type { TestProject } from 'vitest/node';
import { acquireTestDatabase } from './database-setup.js';
import { startPgBouncer } from './pgbouncer.js';

/**
 * Global setup of the `pgbouncer` project (after database-setup.ts): one PgBouncer in transaction
 * mode in front of the test PostgreSQL, with a pool per database (3 server connections) smaller
 * than each test app's pool (10).
 */
export const PGBOUNCER_POOL_SIZE = 3;

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const database = await acquireTestDatabase();
  try {
    const bouncer = await startPgBouncer(database.adminUrl, { poolSize: PGBOUNCER_POOL_SIZE });
    project.provide('pgbouncerPort', bouncer.port);
    return async () => {
      await bouncer.stop();
      await database.release();
    };
  } catch (error) {
    await database.release();
    throw error;
  }
}
