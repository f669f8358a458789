import { Type, type Static } from '@sinclair/typebox';
import { Timestamp, Uuid } from '../../shared/schemas.js';

export const RESERVATION_TYPES = ['shared', 'fixed'] as const;

export const ReservationType = Type.Union(
  RESERVATION_TYPES.map((value) => Type.Literal(value)),
  { description: 'shared: an ordinary booking (the default). fixed: an admin assigns a desk to a person (admins only).' },
);

export const Reservation = Type.Object(
  {
    id: Uuid(),
    userId: Uuid(),
    deskId: Uuid(),
    roomId: Uuid('The room of the desk (follows the desk if it moves).'),
    departmentId: Uuid('The department of the desk (follows the desk if it moves).'),
    startTime: Timestamp('Start, inclusive (ISO 8601, UTC).'),
    endTime: Timestamp('End, exclusive: a reservation may start when another ends (ISO 8601, UTC).'),
    type: ReservationType,
  },
  { title: 'Reservation' },
);
export type ReservationDto = Static<typeof Reservation>;
