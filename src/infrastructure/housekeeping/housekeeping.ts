import type { Database } from '../../db/client.js';

/**
 * One kind of row that can no longer matter, and how to delete it: each module that keeps such
 * rows defines its own job (ended sessions, expired links, old tombstones…), and the service's
 * composition (src/app.ts, purgeJobs) lists them. This folder knows no module
 * (docs/architecture.md#background-jobs). A job must be safe to run from every process at once.
 */
export interface PurgeJob {
  name: string;
  purge(db: Database, now: Date): Promise<unknown>;
}

/** Runs every job once, side by side. */
export async function housekeep(db: Database, now: Date, jobs: readonly PurgeJob[]): Promise<void> {
  await Promise.all(jobs.map((job) => job.purge(db, now)));
}
