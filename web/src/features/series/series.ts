import type { paths } from '../../api/schema.js';
import { dateLocale, firstDayOfWeek, weekdayNames } from '../../lib/locale.js';
import { translate } from '../../lib/translate.js';

/** Recurring reservations in the web app (docs/behaviour.md#recurring-reservations). */

type Json<T> = T extends { content: { 'application/json': infer Body } } ? Body : never;
export type SeriesBody = NonNullable<paths['/api/reservation/series']['post']['requestBody']>['content']['application/json'];
export type SeriesSummary = Json<paths['/api/reservation/series']['get']['responses'][200]>['content'][number];
export type SeriesPreview = Json<paths['/api/reservation/series/preview']['post']['responses'][200]>;
export type Weekday = 'MO' | 'TU' | 'WE' | 'TH' | 'FR' | 'SA' | 'SU';

/** The weekday codes, Monday first (ISO order). */
export const WEEKDAYS: Weekday[] = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'];

/** The weekdays from the locale's first day of the week, named in the language in use ("Monday", "Montag"): from Intl (lib/locale.ts). */
export function weekdaysInOrder(width: 'short' | 'long' = 'long'): { code: Weekday; name: string }[] {
  const first = firstDayOfWeek();
  return weekdayNames(dateLocale(), width).map((name, index) => ({ code: WEEKDAYS[(first - 1 + index) % 7]!, name }));
}

/** The weekday code of a moment in local time. */
export const weekdayOf = (moment: Date): Weekday => WEEKDAYS[(moment.getDay() + 6) % 7]!;

/** The browser's IANA time zone: occurrences keep the local times the person chose. */
export const browserTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

export const conflictLabel = (reason: string | null | undefined): string =>
  translate(reason === 'DESK_RESERVED' ? 'booking:repeat.deskTaken' : reason === 'USER_OVERLAP' ? 'booking:repeat.otherBooking' : 'booking:repeat.free');

/** "Every week on Tuesday and Thursday, 10 times" / "Every 2 weeks on Monday, until 30 Jun 2030", in the language in use. */
export function describeRule(rule: SeriesSummary['rule']): string {
  const every = translate(rule.frequency === 'DAILY' ? 'booking:series.everyDay' : 'booking:series.everyWeek', { count: rule.interval });
  const days = weekdaysInOrder();
  const names = rule.weekdays.map((code) => days.find((day) => day.code === code)?.name ?? code);
  const on =
    names.length > 0 ? translate('booking:series.on', { every, days: new Intl.ListFormat(dateLocale(), { type: 'conjunction' }).format(names) }) : every;
  if (rule.count !== null) return translate('booking:series.times', { rule: on, count: rule.count });
  if (!rule.until) return on;
  const until = new Date(`${rule.until}T12:00:00`).toLocaleDateString(dateLocale(), { day: 'numeric', month: 'short', year: 'numeric' });
  return translate('booking:series.until', { rule: on, date: until });
}
