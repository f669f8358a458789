import { Type, type Static } from '@sinclair/typebox';
import { Uuid } from '../../shared/schemas.js';
import { BOOKED_BY_OTHERS_LIMIT, PEOPLE_LIMIT } from './reservations.on-behalf.js';

export const BookForQuery = Type.Object({
  search: Type.Optional(Type.String({ maxLength: 100, description: 'Part of the first name, last name or e-mail, any case.' })),
});
export type BookForQuery = Static<typeof BookForQuery>;

export const BookablePerson = Type.Object({ id: Uuid(), firstName: Type.String(), lastName: Type.String(), email: Type.String() }, { title: 'BookablePerson' });
export const BookablePeople = Type.Array(BookablePerson, { maxItems: PEOPLE_LIMIT });

export const BookedByOther = Type.Object(
  {
    reservationId: Uuid(),
    bookedBy: Type.Object({ id: Uuid(), firstName: Type.String(), lastName: Type.String() }, { description: 'Who booked it for the caller.' }),
  },
  { title: 'BookedByOther' },
);
export const BookedByOthers = Type.Array(BookedByOther, { maxItems: BOOKED_BY_OTHERS_LIMIT });
