import type { paths } from '../../api/schema.js';

/** Recurring reservations in the web app (docs/behaviour.md#recurring-reservations). */

type Json<T> = T extends { content: { 'application/json': infer Body } } ? Body : never;
export type SeriesBody = NonNullable<paths['/api/reservation/series']['post']['requestBody']>['content']['application/json'];
export type SeriesSummary = Json<paths['/api/reservation/series']['get']['responses'][200]>['content'][number];
export type SeriesPreview = Json<paths['/api/reservation/series/preview']['post']['responses'][200]>;
export type Weekday = 'MO' | 'TU' | 'WE' | 'TH' | 'FR' | 'SA' | 'SU';

export const WEEKDAYS: { code: Weekday; short: string; long: string }[] = [
  { code: 'MO', short: 'Mon', long: 'Monday' },
  { code: 'TU', short: 'Tue', long: 'Tuesday' },
  { code: 'WE', short: 'Wed', long: 'Wednesday' },
  { code: 'TH', short: 'Thu', long: 'Thursday' },
  { code: 'FR', short: 'Fri', long: 'Friday' },
  { code: 'SA', short: 'Sat', long: 'Saturday' },
  { code: 'SU', short: 'Sun', long: 'Sunday' },
];

/** The weekday code of a moment in local time. */
export const weekdayOf = (moment: Date): Weekday => WEEKDAYS[(moment.getDay() + 6) % 7]!.code;

/** The browser's IANA time zone: occurrences keep the local times the person chose. */
export const browserTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

export const conflictLabel = (reason: string | null | undefined): string =>
  reason === 'DESK_RESERVED' ? 'desk taken' : reason === 'USER_OVERLAP' ? 'you have another booking then' : 'free';

/** "Every week on Tuesday and Thursday, 10 times" / "Every 2 weeks on Monday, until 30 Jun 2030". */
export function describeRule(rule: SeriesSummary['rule']): string {
  const unit = rule.frequency === 'DAILY' ? 'day' : 'week';
  const every = rule.interval === 1 ? `Every ${unit}` : `Every ${rule.interval} ${unit}s`;
  const names = rule.weekdays.map((code) => WEEKDAYS.find((day) => day.code === code)?.long ?? code);
  const on = names.length > 0 ? ` on ${names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}` : names[0]}` : '';
  const end =
    rule.count !== null
      ? `, ${rule.count} times`
      : rule.until
        ? `, until ${new Date(`${rule.until}T12:00:00`).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric' })}`
        : '';
  return `${every}${on}${end}`;
}
