import type { Allowance } from '../../api/types.js';
import { dateLocale, firstDayOfWeek, weekdayNames } from '../../lib/locale.js';
import { translate } from '../../lib/translate.js';

/** Why a desk is not bookable for the caller (docs/policies.md#why-a-desk-is-not-bookable): plain functions, no requests. */

/** The weekday codes of the API, Monday first (ISO days 1 to 7): the order the service stores them in. */
export const WEEKDAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'] as const;
export type WeekdayCode = (typeof WEEKDAYS)[number];

/** The codes in the order of the language's week (its first day first), for the forms' checkboxes and the lists. */
export const weekdayOrder = (): WeekdayCode[] => {
  const first = firstDayOfWeek(dateLocale());
  return WEEKDAYS.map((_, index) => WEEKDAYS[(first - 1 + index) % 7]!);
};

/** A weekday's name from Intl in the language in use ("Tuesday", "Dienstag"), long or short ("Tue"). */
export function weekdayName(code: string, width: 'short' | 'long' = 'long'): string {
  const locale = dateLocale();
  const index = WEEKDAYS.indexOf(code as WeekdayCode);
  if (index < 0) return code;
  // weekdayNames starts at the locale's first day of the week.
  return weekdayNames(locale, width)[(index + 1 - firstDayOfWeek(locale) + 7) % 7] ?? code;
}

/** A weekday as a recurring day, in the language in use: "Tuesdays", "Dienstag", "mardi" (the message decides the form). */
export const weekdayWord = (code: string): string => translate('policies:weekday', { day: weekdayName(code) });

/** Recurring weekdays in the week's order, joined: "Mondays, Tuesdays". */
export const weekdayList = (codes: readonly string[]): string =>
  weekdayOrder()
    .filter((code) => codes.includes(code))
    .map(weekdayWord)
    .join(', ');

type ClosedArea = Allowance['closedAreas'][number];
export interface DeskPlace {
  id: string;
  roomId: string;
  departmentId: string;
}

const CODES = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'] as const;
const MAX_DAYS = 62;

/** The weekday codes of the local days a window touches (its end excluded), at most 62 days. */
export function weekdaysOf(start: string, end: string): Set<string> {
  const days = new Set<string>();
  const from = new Date(start);
  const to = new Date(end);
  if (Number.isNaN(from.getTime()) || Number.isNaN(to.getTime())) return days;
  const day = new Date(from.getFullYear(), from.getMonth(), from.getDate());
  for (let i = 0; i < MAX_DAYS && day < to; i++, day.setDate(day.getDate() + 1)) days.add(CODES[day.getDay()]!);
  return days;
}

const holds = (area: ClosedArea, desk: DeskPlace) =>
  area.kind === 'DEPARTMENT' ? area.departmentId === desk.departmentId : area.kind === 'ROOM' ? area.roomId === desk.roomId : area.deskIds.includes(desk.id);

/** "Sales floor: reserved for Sales on Tuesdays": why an area keeps the caller out (in the language in use). */
export const reservedText = (area: ClosedArea) =>
  translate('policies:reserved', {
    area: area.name,
    teams: area.teams.join(', ') || translate('policies:otherTeams'),
    hasDays: area.weekdays.length > 0 ? 'yes' : 'no',
    days: weekdayList(area.weekdays),
  });

/** Why the desk is not bookable for the caller in the window, from the allowance's closed areas; undefined when it is. */
export function reservedReason(closed: readonly ClosedArea[], desk: DeskPlace, weekdays: Set<string>): string | undefined {
  const area = closed.find((candidate) => holds(candidate, desk) && (candidate.weekdays.length === 0 || candidate.weekdays.some((day) => weekdays.has(day))));
  return area && reservedText(area);
}
