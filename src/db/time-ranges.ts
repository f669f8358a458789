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

/**
 * A timestamptz as PostgreSQL writes it in the service's session time zone, UTC
 * ("2025-03-03 09:00:00.5+00"), in the API's form ("2025-03-03T09:00:00.500Z"), sliced instead of
 * parsed into a Date and written out again (docs/benchmarks.md#lists). Anything else (another
 * offset, BC) goes through a Date.
 */
export function isoFromTimestamptz(text: string): string {
  if (text.length < 22 || text[10] !== ' ' || !text.endsWith('+00')) return new Date(text).toISOString();
  // Fractions of a second: none, or a dot and 1–6 digits; the API shows milliseconds.
  const milliseconds = text.length === 22 ? '000' : `${text.slice(20, -3)}000`.slice(0, 3);
  return `${text.slice(0, 10)}T${text.slice(11, 19)}.${milliseconds}Z`;
}
