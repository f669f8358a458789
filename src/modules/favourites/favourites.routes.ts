import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { NoContent, problemResponses } from '../../shared/schemas.js';
import {
  BookingDefaults,
  BookingDefaultsBody,
  DeskParams,
  FAVOURITES_MAX,
  FavouriteDesk,
  FavouriteDesks,
  NearTeam,
  NearTeamQuery,
  USUAL_MAX,
  UsualBody,
  UsualBooked,
  UsualPreview,
  UsualQuery,
} from './favourites.schemas.js';
import type { FavouritesService } from './favourites.service.js';
import type { UsualService } from './favourites.usual.js';

const TAGS = ['Favourites'];
const USUAL =
  `The caller's own shared reservations of the week before (Monday–Sunday in each desk's office zone; at most ${USUAL_MAX}; released no-shows left out) ` +
  'are proposed again seven days later at the same wall-clock times. See docs/favourites.md, "Book my usual".';

/** Favourite desks, home office and default window, "Book my usual", book near my team (docs/favourites.md). */
export const favouritesRoutes: FastifyPluginAsyncTypebox<{ favourites: FavouritesService; usual: UsualService }> = async (app, { favourites, usual }) => {
  app.get(
    '/api/self/favourite-desks',
    {
      schema: {
        tags: TAGS,
        summary: "The caller's favourite desks",
        description: `Every desk the caller starred, oldest star first (at most ${FAVOURITES_MAX}), with its room and office. Only the caller sees them.`,
        response: { 200: FavouriteDesks, ...problemResponses() },
      },
    },
    async (request) => favourites.list(request.caller),
  );

  app.put(
    '/api/self/favourite-desks/:deskId',
    {
      schema: {
        tags: TAGS,
        summary: 'Star a desk',
        description: `Adds the desk to the caller's favourites; starring it again changes nothing. An unknown desk is 404; a ${FAVOURITES_MAX + 1}th star is 409 TOO_MANY_FAVOURITES.`,
        params: DeskParams,
        response: { 200: FavouriteDesk, ...problemResponses(404, 409) },
      },
    },
    async (request) => favourites.add(request.caller, request.params.deskId),
  );

  app.delete(
    '/api/self/favourite-desks/:deskId',
    {
      schema: {
        tags: TAGS,
        summary: 'Unstar a desk',
        description: 'Removes the desk from the caller’s favourites; 404 when it was not one.',
        params: DeskParams,
        response: { 204: NoContent, ...problemResponses(404) },
      },
    },
    async (request, reply) => {
      await favourites.remove(request.caller, request.params.deskId);
      return reply.code(204).send();
    },
  );

  app.get(
    '/api/self/booking-defaults',
    {
      schema: {
        tags: TAGS,
        summary: "The caller's home office and default booking window",
        description:
          'What Find a desk opens on: the home office preselected and the window prefilled, on the wall clock of the home office’s time zone (`timeZone`). ' +
          'Nothing chosen: homeDepartmentId null and window NONE.',
        response: { 200: BookingDefaults, ...problemResponses() },
      },
    },
    async (request) => favourites.defaults(request.caller),
  );

  app.put(
    '/api/self/booking-defaults',
    {
      schema: {
        tags: TAGS,
        summary: "Set the caller's home office and default booking window",
        description:
          'Replaces both. An unknown department is 400 on homeDepartmentId; HOURS needs startTime before endTime (HH:MM, 24:00 as an end), ' +
          'NONE and WHOLE_DAY take null for both (400 naming the field otherwise). A deleted department stops being anyone’s home office.',
        body: BookingDefaultsBody,
        response: { 200: BookingDefaults, ...problemResponses() },
      },
    },
    async (request) => favourites.saveDefaults(request.caller, request.body),
  );

  app.get(
    '/api/self/usual',
    {
      config: { expensive: true, readOnly: true },
      schema: {
        tags: TAGS,
        summary: '"Book my usual": preview the coming week',
        description:
          `${USUAL} Books nothing; each day says whether it could be booked now and, if not, why (conflict, code, message), ` +
          'from the same checks a booking makes (booking rules, closed days, the desk or you already booked then, your booking policies).',
        querystring: UsualQuery,
        response: { 200: UsualPreview, ...problemResponses() },
      },
    },
    async (request) => usual.preview(request.caller, request.query.week),
  );

  app.post(
    '/api/self/usual',
    {
      config: { expensive: true, writesReservations: true },
      schema: {
        tags: TAGS,
        summary: '"Book my usual": book the coming week',
        description:
          `${USUAL} Each day is booked on its own as POST /api/reservation books it, under every rule (booking rules, policies, closures, approvals): ` +
          'the free ones are booked (`booked`, each saying whether it awaits approval), the others listed in `refused` with the reason and the problem code the booking answered. ' +
          'Nothing to repeat answers two empty lists.',
        body: UsualBody,
        response: { 200: UsualBooked, ...problemResponses() },
      },
    },
    async (request) => usual.book(request.caller, request.body.week),
  );

  app.get(
    '/api/self/near-my-team',
    {
      config: { expensive: true, readOnly: true },
      schema: {
        tags: TAGS,
        summary: 'Free desks near my team',
        description:
          "Free desks for the window (flexible, in an available room, not reserved, no closed day), ranked by nearness to the people of the caller's teams booked on the window's day: " +
          "the same room first, then an area of the caller's teams, then the same office (department, i.e. floor); more of them first. " +
          'Each says why in counts ("3 of Sales are in Atlas"), never who. Desks near nobody are left out; no team answers an empty list. The window is at most 24 hours.',
        querystring: NearTeamQuery,
        response: { 200: NearTeam, ...problemResponses() },
      },
    },
    async (request) => favourites.nearTeam(request.caller, request.query),
  );
};
