import { sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';

/** SQL pieces for half-open time windows, shared by search and floor-plan availability. */

export interface TimeWindow {
  start: Date;
  end: Date;
}

export const timestampOf = (date: Date): SQL => sql`${date.toISOString()}::timestamptz`;

export const windowRange = (window: TimeWindow): SQL => sql`tstzrange(${timestampOf(window.start)}, ${timestampOf(window.end)}, '[)')`;

/**
 * A reservation's [start, end) range, written exactly as in the exclusion constraint, so that its
 * GiST index (desk_id, range) serves every probe.
 */
export const reservedRangeOf = (reservation: { startTime: PgColumn; endTime: PgColumn }): SQL =>
  sql`tstzrange(${reservation.startTime}, ${reservation.endTime}, '[)')`;
