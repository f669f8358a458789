import { dateLocale } from './locale.js';
import { translate } from './translate.js';

/**
 * Times are entered and shown in the browser's local time zone and travel as UTC ISO strings.
 * Form fields hold local calendar values: a date 'YYYY-MM-DD' and times 'HH:MM'.
 */

export interface LocalWindow {
  date: string;
  start: string;
  end: string;
}

const pad = (value: number) => String(value).padStart(2, '0');

/** 'YYYY-MM-DD' of a moment in local time. */
export function localDate(moment: Date): string {
  return `${moment.getFullYear()}-${pad(moment.getMonth() + 1)}-${pad(moment.getDate())}`;
}

/** 'HH:MM' of a moment in local time. */
export function localTime(moment: Date): string {
  return `${pad(moment.getHours())}:${pad(moment.getMinutes())}`;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^(\d{2}):(\d{2})$/;

/** The moment a local date and time name, or undefined when either is not a valid value. */
export function localMoment(date: string, time: string): Date | undefined {
  const d = DATE.exec(date);
  const t = TIME.exec(time);
  if (!d || !t) return undefined;
  const [year, month, day, hours, minutes] = [Number(d[1]), Number(d[2]), Number(d[3]), Number(t[1]), Number(t[2])];
  if (month < 1 || month > 12 || day < 1 || day > 31 || hours > 23 || minutes > 59) return undefined;
  const moment = new Date(year, month - 1, day, hours, minutes);
  // Rejects 31 February and the like, which Date would roll over into the next month.
  if (moment.getMonth() !== month - 1 || moment.getDate() !== day) return undefined;
  return moment;
}

/** The UTC ISO string (ending in Z) of a local date and time; undefined when they are not valid. */
export function localToIso(date: string, time: string): string | undefined {
  return localMoment(date, time)?.toISOString();
}

/** The local form values of a stored [start, end) range. */
export function isoToLocalWindow(startIso: string, endIso: string): LocalWindow {
  const start = new Date(startIso);
  const end = new Date(endIso);
  return { date: localDate(start), start: localTime(start), end: localTime(end) };
}

/** The default search window: tomorrow, 09:00–17:00 local time. */
export function tomorrowWindow(now: Date): LocalWindow {
  const tomorrow = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1);
  return { date: localDate(tomorrow), start: '09:00', end: '17:00' };
}

/** The UTC instants of a local window; undefined when it is incomplete or invalid. */
export function windowToIso(window: LocalWindow): { start: string; end: string } | undefined {
  const start = localToIso(window.date, window.start);
  const end = localToIso(window.date, window.end);
  return start && end ? { start, end } : undefined;
}

const dateFormat = (locale = dateLocale()) => new Intl.DateTimeFormat(locale, { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' });
const timeFormat = (locale = dateLocale()) => new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit' });

/** "Wed, 15 May 2030, 09:00–12:00" in local time; both dates when the range spans days. */
export function formatRange(startIso: string, endIso: string, locale = dateLocale()): string {
  const start = new Date(startIso);
  const end = new Date(endIso);
  const startDay = dateFormat(locale).format(start);
  if (localDate(start) === localDate(end)) return `${startDay}, ${timeFormat(locale).format(start)}–${timeFormat(locale).format(end)}`;
  return `${startDay}, ${timeFormat(locale).format(start)} – ${dateFormat(locale).format(end)}, ${timeFormat(locale).format(end)}`;
}

/** "15 May 2030, 14:05" in local time. */
export function formatDateTime(iso: string, locale = dateLocale()): string {
  return new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' }).format(new Date(iso));
}

/** A UTC calendar day (statistics count per UTC day) as "15 May". */
export function formatUtcDay(iso: string, locale = dateLocale()): string {
  return new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', timeZone: 'UTC' }).format(new Date(iso));
}

/** A Retry-After wait (seconds) in words: "42 seconds", "15 minutes" (in the language in use). */
export function formatWait(seconds: number): string {
  if (seconds < 60) return translate('problems:wait.seconds', { count: Math.max(1, Math.ceil(seconds)) });
  return translate('problems:wait.minutes', { count: Math.ceil(seconds / 60) });
}

/** A calendar date (YYYY-MM-DD) as "Tue, 4 Jun 2030", whatever the browser's zone. */
export function formatDay(date: string, locale = dateLocale()): string {
  const moment = new Date(`${date}T12:00:00Z`);
  if (Number.isNaN(moment.getTime())) return date;
  return new Intl.DateTimeFormat(locale, { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }).format(moment);
}

/** "09:00" in an IANA zone (an office's: docs/behaviour.md#office-time-zone). */
export function formatTimeIn(iso: string, timeZone: string, locale = dateLocale()): string {
  return new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit', timeZone }).format(new Date(iso));
}

/** formatRange in an IANA zone rather than the browser's: "Wed, 15 May 2030, 09:00–12:00". */
export function formatRangeIn(startIso: string, endIso: string, timeZone: string, locale = dateLocale()): string {
  const day = new Intl.DateTimeFormat(locale, { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', timeZone });
  const [start, end] = [new Date(startIso), new Date(endIso)];
  const sameDay = day.format(start) === day.format(end);
  const time = (moment: Date) => formatTimeIn(moment.toISOString(), timeZone, locale);
  return sameDay ? `${day.format(start)}, ${time(start)}–${time(end)}` : `${day.format(start)}, ${time(start)} – ${day.format(end)}, ${time(end)}`;
}

/** The browser's IANA time zone (what a new office is proposed, and what times are shown in). */
export const browserZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
