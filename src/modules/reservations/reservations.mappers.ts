import { isoFromTimestamptz } from '../../db/time-ranges.js';
import type { ReservationView } from './reservations.repository.js';
import type { ReservationDto } from './reservations.schemas.js';

export const toReservationDto = (row: ReservationView): ReservationDto => ({
  id: row.id,
  userId: row.userId,
  deskId: row.deskId,
  roomId: row.roomId,
  departmentId: row.departmentId,
  startTime: row.startTime.toISOString(),
  endTime: row.endTime.toISOString(),
  type: row.type,
});

/** A reservation read raw (src/db/prepared.ts#prepareRaw): the instants as PostgreSQL writes timestamptz. */
export type RawReservation = Omit<ReservationView, 'startTime' | 'endTime'> & { startTime: string; endTime: string };

export const toReservationDtoFromRaw = (row: RawReservation): ReservationDto => ({
  id: row.id,
  userId: row.userId,
  deskId: row.deskId,
  roomId: row.roomId,
  departmentId: row.departmentId,
  startTime: isoFromTimestamptz(row.startTime),
  endTime: isoFromTimestamptz(row.endTime),
  type: row.type,
});
