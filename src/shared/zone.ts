import { Temporal } from 'temporal-polyfill';

/**
 * Calendar rules in an office's IANA time zone (docs/behaviour.md#office-time-zone), through the
 * Temporal polyfill: never a fixed offset, so daylight-saving changes are right.
 */

/** Whether `zone` is an IANA time zone name (or UTC) this runtime knows. */
export function isTimeZone(zone: string): boolean {
  if (zone.length === 0 || zone.length > 64) return false;
  try {
    Temporal.Instant.fromEpochMilliseconds(0).toZonedDateTimeISO(zone);
    return true;
  } catch {
    return false;
  }
}

/** The local calendar date (YYYY-MM-DD) of an instant in a zone. */
export function localDate(instant: Date, zone: string): string {
  return Temporal.Instant.fromEpochMilliseconds(instant.getTime()).toZonedDateTimeISO(zone).toPlainDate().toString();
}

/** The instant a local date begins in a zone (00:00, or the first instant of the day if a change skips it). */
export function startOfLocalDate(date: string, zone: string): Date {
  return new Date(Temporal.PlainDate.from(date).toZonedDateTime({ timeZone: zone }).epochMilliseconds);
}

/** The local date after `date`. */
export function nextDate(date: string): string {
  return Temporal.PlainDate.from(date).add({ days: 1 }).toString();
}

/** The instant of a local time of day (minutes after midnight) on a local date (an hour a change skips moves forward). */
export function atLocalTime(date: string, minutes: number, zone: string): Date {
  const time = Temporal.PlainTime.from({ hour: Math.floor(minutes / 60), minute: minutes % 60 });
  return new Date(Temporal.PlainDate.from(date).toZonedDateTime({ timeZone: zone, plainTime: time }).epochMilliseconds);
}

/** Formats an instant as local "YYYY-MM-DD HH:MM" in a zone (mail texts). */
export function formatLocal(instant: Date, zone: string): string {
  const zoned = Temporal.Instant.fromEpochMilliseconds(instant.getTime()).toZonedDateTimeISO(zone);
  return `${zoned.toPlainDate().toString()} ${String(zoned.hour).padStart(2, '0')}:${String(zoned.minute).padStart(2, '0')}`;
}

/** Days from `from` to `to` inclusive (YYYY-MM-DD), or NaN when either is not a date. */
export function daysBetween(from: string, to: string): number {
  return Temporal.PlainDate.from(from).until(Temporal.PlainDate.from(to), { largestUnit: 'days' }).days;
}
