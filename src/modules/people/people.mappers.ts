import type { BookingRow, StarredRow } from './people.repository.js';
import type { DeskOccupantsDto, PersonInDto, StarredPersonDto } from './people.schemas.js';

export const toStarredDto = (row: StarredRow): StarredPersonDto => ({ ...row, createdAt: row.createdAt.toISOString() });

/** A booking as a who's-in entry; `desk`: whether to say where they sit, `checkIn`: whether to say if they checked in. */
export function toPersonInDto(row: BookingRow, desk: boolean, checkIn: boolean): PersonInDto {
  return {
    userId: row.userId,
    firstName: row.firstName,
    lastName: row.lastName,
    deskId: desk ? row.deskId : null,
    deskName: desk ? row.deskName : null,
    roomId: desk ? row.roomId : null,
    roomName: desk ? row.roomName : null,
    startTime: row.startTime,
    endTime: row.endTime,
    checkedIn: checkIn ? checkedIn(row.status) : null,
  };
}

/** true: checked in; false: required and not (yet) done, or released; null: not required (or no attendance). */
export function checkedIn(status: BookingRow['status']): boolean | null {
  if (status === 'CHECKED_IN') return true;
  if (status === 'PENDING' || status === 'NO_SHOW') return false;
  return null;
}

/** Groups bookings by desk; `named` says whose names to show. */
export function occupantsOf(rows: BookingRow[], named: (row: BookingRow) => boolean): DeskOccupantsDto['desks'] {
  const desks = new Map<string, DeskOccupantsDto['desks'][number]>();
  for (const row of rows) {
    let desk = desks.get(row.deskId);
    if (!desk) desks.set(row.deskId, (desk = { deskId: row.deskId, occupants: [] }));
    const shown = named(row);
    desk.occupants.push({
      userId: shown ? row.userId : null,
      name: shown ? `${row.firstName} ${row.lastName}` : null,
      startTime: row.startTime,
      endTime: row.endTime,
    });
  }
  return [...desks.values()];
}
