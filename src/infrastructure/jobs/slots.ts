import { sql } from 'drizzle-orm';
import { queryRows, type Database } from '../../db/client.js';
import type { Clock } from '../../shared/clock.js';
import type { SlotClaim } from './runner.js';

/**
 * The run slots of jobs that run in one process per interval (docs/architecture.md#background-jobs):
 * one statement moves a job's `next_run_at` (nine tenths of) one interval on, only when it is due, so of several
 * processes exactly one gets each slot. A process that dies during its run loses that run; the
 * next slot comes one interval later.
 */
export function databaseSlots(db: Database, clock: Clock): SlotClaim {
  return async (name, intervalMs) => {
    const now = clock.now();
    // A tenth early, so that a process whose timer fires a little early still finds the next slot due.
    const next = new Date(now.getTime() + Math.round(intervalMs * 0.9)).toISOString();
    const rows = await queryRows<{ name: string }>(
      db,
      sql`insert into job_slots (name, next_run_at) values (${name}, ${next}::timestamptz)
          on conflict (name) do update set next_run_at = excluded.next_run_at where job_slots.next_run_at <= ${now.toISOString()}::timestamptz
          returning name`,
    );
    return rows.length > 0;
  };
}
