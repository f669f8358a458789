import type { AffectedRow, ClosureRow } from './closures.repository.js';
import type { AffectedReservationDto, ClosureDetailDto, ClosureDto } from './closures.schemas.js';

export const toClosureDto = (row: ClosureRow): ClosureDto => ({
  id: row.id,
  scope: row.scope,
  departmentId: row.departmentId,
  location: row.location,
  building: row.building,
  reason: row.reason,
  dates: row.dates,
  rrule: row.rrule,
  startDate: row.startDate,
  lastDate: row.lastDate,
  dayCount: row.dayCount,
  createdAt: row.createdAt.toISOString(),
});

export const toClosureDetailDto = (row: ClosureRow & { days: string[] }): ClosureDetailDto => ({ ...toClosureDto(row), days: row.days });

export const toAffectedDto = (row: AffectedRow, now: Date): AffectedReservationDto => ({
  id: row.id,
  userId: row.userId,
  userName: `${row.firstName} ${row.lastName}`,
  deskId: row.deskId,
  deskName: row.deskName,
  roomName: row.roomName,
  departmentId: row.departmentId,
  place: row.place,
  timeZone: row.timeZone,
  date: row.date,
  startTime: row.startTime.toISOString(),
  endTime: row.endTime.toISOString(),
  started: row.startTime <= now,
});
