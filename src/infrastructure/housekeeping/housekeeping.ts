import type { Database } from '../../db/client.js';
import type { Clock } from '../../shared/clock.js';
import type { Job } from '../jobs/runner.js';

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

/**
 * Runs every job once, side by side. A job that fails stops no other: once all have run, one
 * error names each job that failed (the log line of the caller says which) and carries their errors.
 */
export async function housekeep(db: Database, now: Date, jobs: readonly PurgeJob[]): Promise<void> {
  const results = await Promise.allSettled(jobs.map((job) => job.purge(db, now)));
  const failed = jobs.flatMap((job, i) => {
    const result = results[i]!;
    return result.status === 'rejected' ? [{ name: job.name, error: result.reason as unknown }] : [];
  });
  if (failed.length === 0) return;
  throw new AggregateError(
    failed.map((failure) => failure.error),
    `housekeeping: ${failed.map((failure) => failure.name).join(', ')} failed`,
  );
}

/**
 * Housekeeping as a job of the runner (docs/architecture.md#background-jobs): every `intervalMs`,
 * in one process of all (a run slot claimed in the database), every purge job runs once.
 */
export function housekeepingJob(db: Database, clock: Clock, jobs: readonly PurgeJob[], intervalMs: number): Job<void> {
  return { name: 'housekeeping', intervalMs, oncePerInterval: true, run: () => housekeep(db, clock.now(), jobs) };
}
