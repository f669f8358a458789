import { activeLanguage, PSEUDO } from './translate.js';

/**
 * Dates and times follow the language in use (docs/i18n.md#dates-and-times): Intl decides the
 * order of day and month, the names of days and months, the first day of the week and the
 * 12- or 24-hour clock. English is written the British way (day before month, 24-hour clock),
 * as Deskbook always has. The pseudo-locale writes dates in Cyrillic (Russian), so that in its
 * test run a date formatted without the app's locale shows as Latin letters, and is found
 * (docs/i18n.md#the-pseudo-locale).
 */
const FORMAT_LOCALES: Record<string, string> = { en: 'en-GB', de: 'de-DE', fr: 'fr-FR', [PSEUDO]: 'ru-RU' };

/** The Intl locale of the language in use: what every date and time format of the app passes. */
export const dateLocale = (language = activeLanguage()): string => FORMAT_LOCALES[language] ?? language;

interface WeekInfo {
  firstDay: number;
}

/** The first day of the week, 1 (Monday) to 7 (Sunday) as ISO and Intl count; Monday where Intl cannot tell. */
export function firstDayOfWeek(locale = dateLocale()): number {
  const intl = new Intl.Locale(locale) as Intl.Locale & { getWeekInfo?: () => WeekInfo; weekInfo?: WeekInfo };
  return (intl.getWeekInfo?.() ?? intl.weekInfo)?.firstDay ?? 1;
}

/** Whether the locale's clock counts 12 hours (with am/pm) rather than 24. */
export function uses12HourClock(locale = dateLocale()): boolean {
  const cycle = new Intl.DateTimeFormat(locale, { hour: 'numeric' }).resolvedOptions().hourCycle;
  return cycle === 'h11' || cycle === 'h12';
}

/** The names of the days of the week, from the locale's first: ["Mon", "Tue", …] or ["Mo", "Di", …]. */
export function weekdayNames(locale = dateLocale(), width: 'short' | 'long' = 'short'): string[] {
  const format = new Intl.DateTimeFormat(locale, { weekday: width, timeZone: 'UTC' });
  const first = firstDayOfWeek(locale);
  // 2024-01-01 was a Monday (ISO day 1).
  return Array.from({ length: 7 }, (_, index) => format.format(new Date(Date.UTC(2024, 0, ((first - 1 + index) % 7) + 1))));
}
