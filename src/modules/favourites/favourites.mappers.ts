import type { DefaultsRow, FavouriteRow, NearDeskRow } from './favourites.repository.js';
import type { BookingDefaultsDto, FavouriteDeskDto } from './favourites.schemas.js';

export const toFavouriteDto = (row: FavouriteRow): FavouriteDeskDto => ({
  deskId: row.deskId,
  deskName: row.deskName,
  roomId: row.roomId,
  roomName: row.roomName,
  departmentId: row.departmentId,
  createdAt: row.createdAt.toISOString(),
});

/** "09:30" → 570; "24:00" → 1440. */
export const minutesOf = (time: string): number => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/** 570 → "09:30". */
export const wallClockOf = (minutes: number): string => `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

export const toBookingDefaultsDto = (row: DefaultsRow): BookingDefaultsDto => ({
  homeDepartmentId: row.homeDepartmentId,
  window: row.windowKind,
  startTime: row.windowStartMinute === null ? null : wallClockOf(row.windowStartMinute),
  endTime: row.windowEndMinute === null ? null : wallClockOf(row.windowEndMinute),
  timeZone: row.homeDepartmentId === null ? 'UTC' : row.timeZone,
});

/**
 * Why a desk is near the caller's teams, in counts and never names (docs/favourites.md#book-near-my-team):
 * "3 of Sales are in Atlas". `team` is the caller's one team's name; with several, "your teams".
 */
export function nearReason(row: NearDeskRow, team: string | undefined): string {
  const who = team ?? 'your teams';
  const are = row.teammates === 1 ? 'is' : 'are';
  switch (row.nearness) {
    case 'ROOM':
      return `${row.teammates} of ${who} ${are} in ${row.place}`;
    case 'AREA': {
      const area = `In ${team ? `${team}’s` : 'your teams’'} area ${row.place}`;
      return row.teammates === 0 ? area : `${area}; ${row.teammates} of ${who} ${are} there`;
    }
    case 'DEPARTMENT':
      return `${row.teammates} of ${who} ${are} in ${row.place}, floor ${row.floor}`;
  }
}
