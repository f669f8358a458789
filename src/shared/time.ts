import { invalid } from './errors.js';

// The schemas check the shape (format date-time: a date, a time and Z or an offset).
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:Z|([+-])(\d{2})(?::?(\d{2}))?)$/i;
// PostgreSQL's timestamptz takes no year 0 (and JavaScript writes years past 9999 with a sign it cannot read).
const EARLIEST = Date.parse('0001-01-01T00:00:00.000Z');
const LATEST = Date.parse('9999-12-31T23:59:59.999Z');

/**
 * An ISO 8601 date-time with any offset, as an instant (milliseconds; finer digits are dropped);
 * 400 naming `field` for a leap second or an instant outside the years 0001–9999 (UTC).
 */
export function parseInstant(field: string, text: string): Date {
  const match = DATE_TIME.exec(text);
  if (!match) throw invalid(field, 'must be an ISO 8601 date-time with Z or an offset, e.g. 2025-03-03T09:00:00+02:00');
  const [, year, month, day, hour, minute, second, fraction, sign, offsetHours, offsetMinutes] = match;
  if (Number(second) > 59) throw invalid(field, 'leap seconds are not supported');
  const local = new Date(0);
  local.setUTCFullYear(Number(year), Number(month) - 1, Number(day));
  local.setUTCHours(Number(hour), Number(minute), Number(second), Number((fraction ?? '').slice(0, 3).padEnd(3, '0')));
  const offsetMs = sign === undefined ? 0 : (sign === '-' ? -1 : 1) * (Number(offsetHours) * 60 + Number(offsetMinutes ?? 0)) * 60_000;
  const time = local.getTime() - offsetMs;
  if (time < EARLIEST || time > LATEST) throw invalid(field, 'must lie between the years 0001 and 9999 (UTC)');
  return new Date(time);
}
