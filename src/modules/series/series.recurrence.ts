import { Temporal } from 'temporal-polyfill';
import { invalid } from '../../shared/errors.js';

/**
 * The occurrences of a recurring rule (docs/behaviour.md#recurring-reservations), computed on the
 * wall clock of an IANA time zone with Temporal: 09:00–17:00 in Europe/Berlin stays 09:00–17:00
 * local on both sides of a daylight-saving change, so its UTC instants move by an hour.
 */

export const MAX_OCCURRENCES = 260;
export const WEEKDAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'] as const;
export type Weekday = (typeof WEEKDAYS)[number];
export type Frequency = 'DAILY' | 'WEEKLY';

export interface Rule {
  frequency: Frequency;
  /** Every `interval` days (DAILY) or weeks (WEEKLY). */
  interval: number;
  /** ISO weekdays 1 (Monday) … 7 (Sunday), for WEEKLY; empty for DAILY. */
  weekdays: number[];
  /** Last local date (inclusive), or undefined when `count` ends the series. */
  until?: string;
  count?: number;
}

export interface Occurrence {
  /** Local date in the series' zone, YYYY-MM-DD. */
  date: string;
  startTime: Date;
  endTime: Date;
}

/** Only region names (Europe/Berlin, America/New_York) and UTC: a fixed offset would not follow daylight saving. */
export function checkTimeZone(timeZone: string): string {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(timeZone)) throw invalid('timeZone', 'must be an IANA time zone name such as Europe/Berlin');
  try {
    return Temporal.Now.zonedDateTimeISO(timeZone).timeZoneId;
  } catch {
    throw invalid('timeZone', 'is not a known IANA time zone');
  }
}

export const weekdayNumber = (day: Weekday): number => WEEKDAYS.indexOf(day) + 1;
export const weekdayName = (day: number): Weekday => WEEKDAYS[day - 1]!;

const zoned = (instant: Date, timeZone: string) => Temporal.Instant.fromEpochMilliseconds(instant.getTime()).toZonedDateTimeISO(timeZone);

/** The ISO weekday (1 = Monday) of an instant in a zone. */
export const localWeekday = (instant: Date, timeZone: string): number => zoned(instant, timeZone).dayOfWeek;

/** The local date of an instant in a zone (YYYY-MM-DD). */
export const localDate = (instant: Date, timeZone: string): string => zoned(instant, timeZone).toPlainDate().toString();

/**
 * Every occurrence of the rule, the first on the local date of `firstStart` (if the rule selects
 * that date) and none before it; each keeps the local start and end times of the first (an end
 * on a later day keeps that many days). A local time that does not exist on a day (the hour
 * skipped in spring) moves forward by the length of the gap, as RFC 5545 says. 400 when the rule
 * gives no occurrence or more than MAX_OCCURRENCES.
 */
export function occurrencesOf(rule: Rule, firstStart: Date, firstEnd: Date, timeZone: string): Occurrence[] {
  const start = zoned(firstStart, timeZone).toPlainDateTime();
  const end = zoned(firstEnd, timeZone).toPlainDateTime();
  const firstDate = start.toPlainDate();
  const endDays = firstDate.until(end.toPlainDate(), { largestUnit: 'days' }).days;
  const startTime = start.toPlainTime();
  const endTime = end.toPlainTime();
  const until = rule.until === undefined ? undefined : parseDate(rule.until);
  if (until && Temporal.PlainDate.compare(until, firstDate) < 0) throw invalid('until', 'lies before the first occurrence');
  const limit = rule.count ?? MAX_OCCURRENCES + 1;

  const occurrences: Occurrence[] = [];
  const add = (date: Temporal.PlainDate): boolean => {
    if (until && Temporal.PlainDate.compare(date, until) > 0) return false;
    const startAt = date.toZonedDateTime({ timeZone, plainTime: startTime });
    const endAt = date.add({ days: endDays }).toZonedDateTime({ timeZone, plainTime: endTime });
    occurrences.push({ date: date.toString(), startTime: new Date(startAt.epochMilliseconds), endTime: new Date(endAt.epochMilliseconds) });
    return occurrences.length < limit;
  };

  if (rule.frequency === 'DAILY') {
    for (let date = firstDate; add(date); date = date.add({ days: rule.interval }));
  } else {
    const days = [...new Set(rule.weekdays)].sort((a, b) => a - b);
    if (days.length === 0) throw invalid('weekdays', 'name at least one weekday for a WEEKLY rule');
    const firstMonday = firstDate.subtract({ days: firstDate.dayOfWeek - 1 });
    weeks: for (let week = firstMonday; ; week = week.add({ weeks: rule.interval })) {
      for (const day of days) {
        const date = week.add({ days: day - 1 });
        if (Temporal.PlainDate.compare(date, firstDate) < 0) continue;
        if (!add(date)) break weeks;
      }
    }
  }

  if (occurrences.length === 0) throw invalid('until', 'the rule gives no occurrence before until');
  if (occurrences.length > MAX_OCCURRENCES) throw invalid(rule.count === undefined ? 'until' : 'count', `a series has at most ${MAX_OCCURRENCES} occurrences`);
  for (const [i, occurrence] of occurrences.entries()) {
    if (occurrence.startTime >= occurrence.endTime) throw invalid('endTime', `on ${occurrence.date} the local end is not after the start (daylight saving)`);
    const previous = occurrences[i - 1];
    if (previous && occurrence.startTime < previous.endTime)
      throw invalid('endTime', 'occurrences would overlap each other: the reservation is longer than the rule’s step');
  }
  return occurrences;
}

function parseDate(text: string): Temporal.PlainDate {
  try {
    return Temporal.PlainDate.from(text, { overflow: 'reject' });
  } catch {
    throw invalid('until', 'must be a date YYYY-MM-DD');
  }
}
