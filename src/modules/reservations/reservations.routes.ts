import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { IdParams, NoContent, problemResponses } from '../../shared/schemas.js';
import { CreateReservationBody, Reservation, ReservationListQuery, ReservationPage, UpdateReservationBody } from './reservations.schemas.js';
import type { ReservationsService } from './reservations.service.js';

const RULES =
  'Times are half-open [startTime, endTime): a reservation may start exactly when another ends. Offsets are accepted (`+02:00`) and answered in UTC. ' +
  'A desk never holds two overlapping reservations, nor (RESERVATION_ONE_PER_USER, on by default) does a user: 409 RESERVATION_CONFLICT with `conflicts` listing the ranges that collided. ' +
  'Rules for USERs (admins are exempt): no start in the past (5 minutes of grace) and no end in the past, at most RESERVATION_MAX_LENGTH long (default 24 h), at least RESERVATION_MIN_LENGTH (default 15 min; leaving a started one early excepted) and starting at most RESERVATION_HORIZON ahead (default 90 days) — 400 RESERVATION_NOT_ALLOWED; ' +
  'at most RESERVATION_MAX_FUTURE (default 200) reservations not yet ended — 409 RESERVATION_LIMIT_REACHED with `limit`; ' +
  'FIXED desks and desks in unavailable rooms cannot be booked — 409 DESK_NOT_BOOKABLE. An unknown deskId or userId is 400.';

export const reservationsRoutes: FastifyPluginAsyncTypebox<{ reservations: ReservationsService }> = async (app, { reservations }) => {
  app.get(
    '/api/reservation',
    {
      schema: {
        tags: ['Reservation'],
        summary: 'List reservations',
        description:
          "A USER sees their own reservations only; an admin sees everyone's. Filters combine with AND; `from`/`to` select reservations overlapping [from, to). " +
          'Default order startTime, id. roomId and departmentId are those of the desk now.',
        querystring: ReservationListQuery,
        response: { 200: ReservationPage, ...problemResponses(403) },
      },
    },
    async (request) => reservations.list(request.caller, request.query),
  );

  app.post(
    '/api/reservation',
    {
      config: { writesReservations: true },
      schema: {
        tags: ['Reservation'],
        summary: 'Book a desk',
        description: `type defaults to shared; userId defaults to the caller (admins may book for anyone, USERs only for themselves: 403). roomId and departmentId come from the desk. ${RULES}`,
        body: CreateReservationBody,
        response: { 200: Reservation, ...problemResponses(403, 409) },
      },
    },
    async (request) => reservations.create(request.caller, request.body),
  );

  app.get(
    '/api/reservation/:id',
    {
      schema: {
        tags: ['Reservation'],
        summary: 'Get a reservation',
        description: "Another user's reservation answers 404 to a USER.",
        params: IdParams,
        response: { 200: Reservation, ...problemResponses(404) },
      },
    },
    async (request) => reservations.get(request.caller, request.params.id),
  );

  app.put(
    '/api/reservation/:id',
    {
      config: { writesReservations: true },
      schema: {
        tags: ['Reservation'],
        summary: 'Change a reservation (move it to another desk or time)',
        description: `Members left out keep their value. A USER may change only their own shared reservations that have not ended (409 CONFLICT once ended; 403 for fixed ones); the start-in-the-past rule applies only when startTime moves. ${RULES}`,
        params: IdParams,
        body: UpdateReservationBody,
        response: { 200: Reservation, ...problemResponses(403, 404, 409) },
      },
    },
    async (request) => reservations.update(request.caller, request.params.id, request.body),
  );

  app.delete(
    '/api/reservation/:id',
    {
      config: { writesReservations: true },
      schema: {
        tags: ['Reservation'],
        summary: 'Cancel a reservation',
        description:
          'A USER may cancel their own shared reservations that have not ended yet (409 CONFLICT once ended: they are history; 403 for fixed ones). Admins may delete any.',
        params: IdParams,
        response: { 204: NoContent, ...problemResponses(403, 404, 409) },
      },
    },
    async (request, reply) => {
      await reservations.delete(request.caller, request.params.id);
      return reply.code(204).send();
    },
  );
};
