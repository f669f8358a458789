import { Temporal } from 'temporal-polyfill';

/**
 * The span of a FIXED desk assignment (docs/policies.md#booking-for-someone-else): whole local days
 * of the desk's office, from midnight starting `first` to midnight ending `last`, in the office's
 * IANA zone (docs/behaviour.md#office-time-zone), whatever zone the admin's browser is in. A day
 * with a summer-time change is 23 or 25 hours long, as it is in the office.
 */
export function assignmentSpan(first: string, last: string, timeZone: string): { startTime: string; endTime: string } {
  const start = Temporal.PlainDate.from(first).toZonedDateTime({ timeZone });
  const end = Temporal.PlainDate.from(last).add({ days: 1 }).toZonedDateTime({ timeZone });
  return { startTime: start.toInstant().toString(), endTime: end.toInstant().toString() };
}

/** Today in the office's zone (YYYY-MM-DD), the dialog's first suggestion. */
export const todayIn = (timeZone: string, now: Temporal.Instant = Temporal.Now.instant()): string => now.toZonedDateTimeISO(timeZone).toPlainDate().toString();
