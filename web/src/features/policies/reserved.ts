import type { Allowance } from '../../api/types.js';

/** Why a desk is not bookable for the caller (docs/policies.md#why-a-desk-is-not-bookable): plain functions, no requests. */

/** The weekday codes of the API with their words, Monday first. */
export const WEEKDAYS = [
  ['MO', 'Mondays'],
  ['TU', 'Tuesdays'],
  ['WE', 'Wednesdays'],
  ['TH', 'Thursdays'],
  ['FR', 'Fridays'],
  ['SA', 'Saturdays'],
  ['SU', 'Sundays'],
] as const;

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

/** "Sales floor: reserved for Sales on Tuesdays": why an area keeps the caller out. */
export const reservedText = (area: ClosedArea) =>
  `${area.name}: reserved for ${area.teams.join(', ') || 'other teams'}${
    area.weekdays.length > 0
      ? ` on ${WEEKDAYS.filter(([code]) => area.weekdays.includes(code))
          .map(([, word]) => word)
          .join(', ')}`
      : ''
  }`;

/** Why the desk is not bookable for the caller in the window, from the allowance's closed areas; undefined when it is. */
export function reservedReason(closed: readonly ClosedArea[], desk: DeskPlace, weekdays: Set<string>): string | undefined {
  const area = closed.find((candidate) => holds(candidate, desk) && (candidate.weekdays.length === 0 || candidate.weekdays.some((day) => weekdays.has(day))));
  return area && reservedText(area);
}
