import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { problemResponses } from '../../shared/schemas.js';
import { BOOKED_BY_OTHERS_LIMIT, PEOPLE_LIMIT, type OnBehalf } from './reservations.on-behalf.js';
import { BookablePeople, BookedByOthers, BookForQuery } from './reservations.on-behalf.schemas.js';

/** Booking for someone else (docs/policies.md#booking-for-someone-else): whom the caller may book for, and who booked for the caller. */
export const onBehalfRoutes: FastifyPluginAsyncTypebox<{ onBehalf: OnBehalf }> = async (app, { onBehalf }) => {
  app.get(
    '/api/self/book-for',
    {
      schema: {
        tags: ['Self'],
        summary: 'People the caller may book for',
        description:
          `Enabled people other than the caller whom the caller may book, change and cancel for: everyone for an admin; the members of the teams the caller manages and the people who named the caller their delegate for anyone else. ` +
          `By name, at most ${PEOPLE_LIMIT}; narrow with \`search\`. Book with POST /api/reservation and their id as userId.`,
        querystring: BookForQuery,
        response: { 200: BookablePeople, ...problemResponses() },
      },
    },
    async (request) => onBehalf.people(request.caller, request.query.search),
  );

  app.get(
    '/api/self/booked-by-others',
    {
      schema: {
        tags: ['Self'],
        summary: 'Reservations someone else booked for the caller',
        description: `The caller's reservations not yet ended that an admin, a team manager or a delegate booked for them, with who; soonest first, at most ${BOOKED_BY_OTHERS_LIMIT}.`,
        response: { 200: BookedByOthers, ...problemResponses() },
      },
    },
    async (request) => onBehalf.bookedByOthers(request.caller),
  );
};
