import ICAL from 'ical.js';
import { Temporal } from 'temporal-polyfill';
import { invalid } from '../../shared/errors.js';

/**
 * The closed days of a closure (docs/policies.md#closures-and-holidays): one-off local dates, or an
 * RRULE (RFC 5545) expanded from its first day. The rule is parsed by ical.js (`ICAL.Recur`); the
 * expansion is ours and walks day by day up to a fixed horizon, so no rule, however odd (an
 * impossible BYMONTHDAY, a huge COUNT), can make it run longer than MAX_CLOSURE_SPAN_DAYS steps.
 * ical.js's own iterator has no such bound (some impossible rules never return).
 */

/** Closed days one closure may hold. */
export const MAX_CLOSURE_DAYS = 400;
/** Years after its first day that a closure's last day may lie. */
export const MAX_CLOSURE_YEARS = 5;
/** One-off dates one closure may list. */
export const MAX_CLOSURE_DATES = 100;

const WEEKDAY_CODES = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'] as const;
const FREQUENCIES = ['DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY'] as const;
type Frequency = (typeof FREQUENCIES)[number];
/** The rule parts the expansion understands; any other is refused rather than ignored. */
const SUPPORTED_PARTS = new Set(['BYDAY', 'BYMONTHDAY', 'BYMONTH']);

interface ByDay {
  /** ISO weekday 1 (Monday) … 7. */
  weekday: number;
  /** 1 = first of the month, -1 = last; undefined = every such weekday. */
  ordinal?: number;
}

export interface ClosureRule {
  frequency: Frequency;
  interval: number;
  count?: number;
  until?: Temporal.PlainDate;
  byDay: ByDay[];
  byMonthDay: number[];
  byMonth: number[];
}

export function parseLocalDate(field: string, text: string): Temporal.PlainDate {
  try {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) throw new Error('format');
    return Temporal.PlainDate.from(text, { overflow: 'reject' });
  } catch {
    throw invalid(field, 'must be a date YYYY-MM-DD');
  }
}

/** Parses an RRULE (with or without the `RRULE:` prefix); 400 naming `field` when it is malformed, unsupported or has no end. */
export function parseClosureRule(field: string, text: string): ClosureRule {
  const source = text.trim().replace(/^RRULE:/i, '');
  let recur: ICAL.Recur;
  try {
    recur = ICAL.Recur.fromString(source);
  } catch (error) {
    throw invalid(field, `is not a valid RRULE: ${error instanceof Error ? error.message : 'unreadable'}`);
  }
  const frequency = recur.freq as string | null;
  if (!frequency) throw invalid(field, 'needs FREQ (DAILY, WEEKLY, MONTHLY or YEARLY)');
  if (!(FREQUENCIES as readonly string[]).includes(frequency)) throw invalid(field, 'FREQ must be DAILY, WEEKLY, MONTHLY or YEARLY: a closure is whole days');
  // ical.js drops INTERVAL=0 silently; RFC 5545 wants a positive integer.
  const intervalText = /(?:^|;)INTERVAL=([^;]*)/i.exec(source)?.[1];
  if (intervalText !== undefined && !/^[1-9]\d{0,2}$/.test(intervalText)) throw invalid(field, 'INTERVAL must be 1 to 999');
  const interval = recur.interval;
  const count = recur.count ?? undefined;
  const until = recur.until ? Temporal.PlainDate.from({ year: recur.until.year, month: recur.until.month, day: recur.until.day }) : undefined;
  if (count === undefined && until === undefined) throw invalid(field, 'needs an end: COUNT or UNTIL');
  if (count !== undefined && until !== undefined) throw invalid(field, 'give COUNT or UNTIL, not both');
  if (count !== undefined && (count < 1 || count > MAX_CLOSURE_DAYS)) throw invalid(field, `COUNT must be 1 to ${MAX_CLOSURE_DAYS}`);
  const parts = recur.parts as Record<string, unknown[]>;
  for (const part of Object.keys(parts)) {
    if (!SUPPORTED_PARTS.has(part)) throw invalid(field, `${part} is not supported (only BYDAY, BYMONTHDAY and BYMONTH)`);
  }
  const byDay = (parts.BYDAY ?? []).map((value) => {
    const match = /^([+-]?\d{1,2})?(MO|TU|WE|TH|FR|SA|SU)$/.exec(String(value));
    if (!match) throw invalid(field, `BYDAY ${String(value)} is not a weekday`);
    const ordinal = match[1] === undefined ? undefined : Number(match[1]);
    if (ordinal !== undefined && (ordinal === 0 || Math.abs(ordinal) > 5)) throw invalid(field, 'a BYDAY ordinal must be 1 to 5 or -1 to -5');
    return { weekday: WEEKDAY_CODES.indexOf(match[2] as (typeof WEEKDAY_CODES)[number]) + 1, ordinal };
  });
  const numbers = (part: string, min: number, max: number, zeroAllowed: boolean) =>
    (parts[part] ?? []).map((value) => {
      const n = Number(value);
      if (!Number.isInteger(n) || Math.abs(n) > max || n < min || (!zeroAllowed && n === 0)) throw invalid(field, `${part} ${String(value)} is out of range`);
      return n;
    });
  const byMonthDay = numbers('BYMONTHDAY', -31, 31, false);
  const byMonth = numbers('BYMONTH', 1, 12, false);
  if (byDay.some((day) => day.ordinal !== undefined) && (frequency === 'DAILY' || frequency === 'WEEKLY')) {
    throw invalid(field, 'a BYDAY ordinal (1MO, -1FR) needs FREQ=MONTHLY or YEARLY');
  }
  if (frequency === 'YEARLY' && byDay.some((day) => day.ordinal !== undefined) && byMonth.length === 0) {
    throw invalid(field, 'a yearly BYDAY ordinal needs BYMONTH (the ordinal counts within the month)');
  }
  return { frequency: frequency as Frequency, interval, count, until, byDay, byMonthDay, byMonth };
}

/** Whether `date` is the `ordinal`-th (negative: from the end) of its weekday in its month. */
function isNthWeekdayOfMonth(date: Temporal.PlainDate, ordinal: number): boolean {
  return ordinal > 0 ? Math.ceil(date.day / 7) === ordinal : Math.ceil((date.daysInMonth - date.day + 1) / 7) === -ordinal;
}

const monthDayMatches = (date: Temporal.PlainDate, days: number[]) =>
  days.some((day) => (day > 0 ? date.day === day : date.daysInMonth + day + 1 === date.day));

const weekdayMatches = (date: Temporal.PlainDate, days: ByDay[], ordinals: boolean) =>
  days.some((day) => day.weekday === date.dayOfWeek && (!ordinals || day.ordinal === undefined || isNthWeekdayOfMonth(date, day.ordinal)));

/** Whether the rule selects `date`, a day on or after `start` (RFC 5545 semantics for the supported parts). */
function selects(rule: ClosureRule, start: Temporal.PlainDate, date: Temporal.PlainDate): boolean {
  if (rule.byMonth.length > 0 && !rule.byMonth.includes(date.month)) return false;
  switch (rule.frequency) {
    case 'DAILY': {
      if (start.until(date).days % rule.interval !== 0) return false;
      if (rule.byMonthDay.length > 0 && !monthDayMatches(date, rule.byMonthDay)) return false;
      return rule.byDay.length === 0 || weekdayMatches(date, rule.byDay, false);
    }
    case 'WEEKLY': {
      const startMonday = start.subtract({ days: start.dayOfWeek - 1 });
      const weeks = Math.floor(startMonday.until(date).days / 7);
      if (weeks % rule.interval !== 0) return false;
      if (rule.byMonthDay.length > 0 && !monthDayMatches(date, rule.byMonthDay)) return false;
      return rule.byDay.length === 0 ? date.dayOfWeek === start.dayOfWeek : weekdayMatches(date, rule.byDay, false);
    }
    case 'MONTHLY': {
      const months = (date.year - start.year) * 12 + date.month - start.month;
      if (months % rule.interval !== 0) return false;
      return dayInPeriodMatches(rule, start, date);
    }
    case 'YEARLY': {
      if ((date.year - start.year) % rule.interval !== 0) return false;
      // Without BYMONTH, BYMONTHDAY or BYDAY, the day and month of the first day.
      if (rule.byMonth.length === 0 && rule.byMonthDay.length === 0 && rule.byDay.length === 0) return date.month === start.month && date.day === start.day;
      return dayInPeriodMatches(rule, start, date);
    }
  }
}

/** MONTHLY and YEARLY: BYMONTHDAY and BYDAY (ordinals within the month) both hold when both are given; neither: the first day's day of the month. */
function dayInPeriodMatches(rule: ClosureRule, start: Temporal.PlainDate, date: Temporal.PlainDate): boolean {
  if (rule.byMonthDay.length === 0 && rule.byDay.length === 0) return date.day === start.day;
  if (rule.byMonthDay.length > 0 && !monthDayMatches(date, rule.byMonthDay)) return false;
  return rule.byDay.length === 0 || weekdayMatches(date, rule.byDay, true);
}

/**
 * The closed days of `rule` from `start` on (the first day counts only when the rule selects it),
 * in order. 400 naming `field` when it gives none, more than MAX_CLOSURE_DAYS, or a day later
 * than MAX_CLOSURE_YEARS after the first. Walks at most MAX_CLOSURE_YEARS of days.
 */
export function expandClosureRule(field: string, rule: ClosureRule, start: Temporal.PlainDate): string[] {
  const horizon = start.add({ years: MAX_CLOSURE_YEARS });
  if (rule.until && Temporal.PlainDate.compare(rule.until, horizon) > 0)
    throw invalid(field, `UNTIL must be within ${MAX_CLOSURE_YEARS} years of the first day`);
  if (rule.until && Temporal.PlainDate.compare(rule.until, start) < 0) throw invalid(field, 'UNTIL lies before the first day');
  const last = rule.until ?? horizon;
  const days: string[] = [];
  for (let date = start; Temporal.PlainDate.compare(date, last) <= 0; date = date.add({ days: 1 })) {
    if (!selects(rule, start, date)) continue;
    days.push(date.toString());
    if (rule.count !== undefined && days.length === rule.count) return days;
    if (days.length > MAX_CLOSURE_DAYS) throw invalid(field, `a closure holds at most ${MAX_CLOSURE_DAYS} days`);
  }
  if (days.length === 0) throw invalid(field, 'the rule gives no day');
  if (rule.count !== undefined) throw invalid(field, `COUNT is not reached within ${MAX_CLOSURE_YEARS} years of the first day`);
  return days;
}
