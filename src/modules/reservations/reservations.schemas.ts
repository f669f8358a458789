import { Type, type Static } from '@sinclair/typebox';
import { Page, pageQueryProperties } from '../../shared/paging.js';
import { InstantInput, StringEnum, Timestamp, Uuid } from '../../shared/schemas.js';

export const RESERVATION_TYPES = ['shared', 'fixed'] as const;

export const ReservationType = StringEnum(RESERVATION_TYPES, {
  description: 'shared: an ordinary booking (the default). fixed: an admin assigns a desk to a person (admins only).',
});

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

export const CreateReservationBody = Type.Object(
  {
    deskId: Uuid(),
    startTime: InstantInput('Start, inclusive.'),
    endTime: InstantInput('End, exclusive.'),
    type: Type.Optional({ ...ReservationType, description: 'Default shared; fixed is for admins only (403).' }),
    userId: Type.Optional(Uuid('Whom the reservation is for: default the caller; another user for admins only (403).')),
  },
  { additionalProperties: false },
);
export type CreateReservationBody = Static<typeof CreateReservationBody>;

export const UpdateReservationBody = Type.Partial(Type.Pick(CreateReservationBody, ['deskId', 'startTime', 'endTime', 'type']), {
  additionalProperties: false,
});
export type UpdateReservationBody = Static<typeof UpdateReservationBody>;

export const ReservationListQuery = Type.Object({
  ...pageQueryProperties,
  deskId: Type.Optional(Uuid('Only reservations of this desk.')),
  roomId: Type.Optional(Uuid('Only reservations of desks in this room.')),
  departmentId: Type.Optional(Uuid('Only reservations of desks in this department.')),
  userId: Type.Optional(Uuid("Only this user's reservations (a USER may give only their own id; 403 otherwise).")),
  type: Type.Optional(ReservationType),
  from: Type.Optional(InstantInput('Only reservations ending after this instant.')),
  to: Type.Optional(InstantInput('Only reservations starting before this instant.')),
});
export type ReservationListQuery = Static<typeof ReservationListQuery>;

export const ReservationPage = Page(Reservation, 'PageOfReservation');
