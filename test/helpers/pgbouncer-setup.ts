import type { TestProject } from 'vitest/node';
import { startPgBouncer } from './pgbouncer.js';

/**
 * Global setup of the `pgbouncer` project: one PgBouncer in transaction mode in front of the test
 * PostgreSQL, with a pool per database (3 server connections) smaller than each test app's pool (10).
 */
export const PGBOUNCER_POOL_SIZE = 3;

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is not set');
  const bouncer = await startPgBouncer(url, { poolSize: PGBOUNCER_POOL_SIZE });
  project.provide('pgbouncerPort', bouncer.port);
  return () => bouncer.stop();
}
