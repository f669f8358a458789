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
