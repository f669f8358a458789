import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { NoContent, problemResponses } from '../../shared/schemas.js';
import {
  DeskOccupants,
  DeskOccupantsQuery,
  PeopleIn,
  PeopleInQuery,
  PeopleWeek,
  PeopleWeekQuery,
  PersonPrivacy,
  PutPersonPrivacyBody,
  STARRED_PER_PERSON,
  StarredPeople,
  UserIdParams,
} from './people.schemas.js';
import type { PeopleService } from './people.service.js';

const RULES = "Names follow the organisation's nameVisibility and each person's switches; admins see every name (docs/people.md#what-is-shown-to-whom).";

/** Who's in, the week view, the desks' occupants, and a person's privacy switches and stars (docs/people.md). */
export const peopleRoutes: FastifyPluginAsyncTypebox<{ people: PeopleService }> = async (app, { people }) => {
  app.get(
    '/api/people/in',
    {
      schema: {
        tags: ['People'],
        summary: "Who's in",
        description:
          `Who booked a desk of the office (a department) on a local day, grouped by team, with desk and room ids to find them on the floor plan, and whether they checked in where check-in is required. ${RULES} ` +
          "People a caller may not see are counted in `anonymous`. In works-council mode nobody's check-in is shown but the caller's own; the counts stay (docs/people.md#works-council-mode). One statement, at most 2000 bookings. Unknown office: 404.",
        querystring: PeopleInQuery,
        response: { 200: PeopleIn, ...problemResponses(404) },
      },
    },
    async (request) => people.whoIsIn(request.caller, request.query),
  );

  app.get(
    '/api/people/week',
    {
      schema: {
        tags: ['People'],
        summary: 'The week of my teams and starred colleagues',
        description: `Seven local days from \`from\`: the caller, their team mates and the people they starred, each with their bookings (one per entry; the date is the local date in the booking's office). ${RULES} People not shown are counted per day in \`anonymous\`.`,
        querystring: PeopleWeekQuery,
        response: { 200: PeopleWeek, ...problemResponses() },
      },
    },
    async (request) => people.week(request.caller, request.query.from),
  );

  app.get(
    '/api/people/desks',
    {
      schema: {
        tags: ['People'],
        summary: "Whose desk is whose in an office's window",
        description: `The booked desks of the office in [from, to) (at most 24 hours), each with its bookings and, where the caller may see it, whose they are: for the floor plan beside its availability (docs/people.md#the-floor-plan). ${RULES} A person who books anonymously shows as booked (null name) to everyone but admins and themselves.`,
        querystring: DeskOccupantsQuery,
        response: { 200: DeskOccupants, ...problemResponses(404) },
      },
    },
    async (request) => people.occupants(request.caller, request.query),
  );

  app.get(
    '/api/self/privacy',
    {
      schema: {
        tags: ['Self'],
        summary: "The caller's privacy switches",
        description: 'Both off until the person switches them on (docs/people.md#a-persons-switches).',
        response: { 200: PersonPrivacy, ...problemResponses() },
      },
    },
    async (request) => people.privacy(request.caller),
  );

  app.put(
    '/api/self/privacy',
    {
      schema: {
        tags: ['Self'],
        summary: "Change the caller's privacy switches",
        description:
          'Members left out keep their value; they hold for every booking of the person, past and future, from the next request on (docs/people.md#a-persons-switches).',
        body: PutPersonPrivacyBody,
        response: { 200: PersonPrivacy, ...problemResponses() },
      },
    },
    async (request) => people.savePrivacy(request.caller, request.body),
  );

  app.get(
    '/api/self/starred-people',
    {
      schema: {
        tags: ['Self'],
        summary: 'The colleagues the caller starred',
        description: 'Their bookings appear in the week view as far as the rules let the caller see them (docs/people.md#the-week-view); ordered by name.',
        response: { 200: StarredPeople, ...problemResponses() },
      },
    },
    async (request) => people.starred(request.caller),
  );

  app.put(
    '/api/self/starred-people/:userId',
    {
      schema: {
        tags: ['Self'],
        summary: 'Star a colleague',
        description: `Answers the starred people now. Starring twice changes nothing; yourself or an unknown user is 400; at most ${STARRED_PER_PERSON} (409 TOO_MANY_STARRED). Starring someone shows nothing the rules hide.`,
        params: UserIdParams,
        response: { 200: StarredPeople, ...problemResponses(409) },
      },
    },
    async (request) => people.star(request.caller, request.params.userId),
  );

  app.delete(
    '/api/self/starred-people/:userId',
    {
      schema: {
        tags: ['Self'],
        summary: 'Unstar a colleague',
        description: '404 when the caller had not starred them.',
        params: UserIdParams,
        response: { 204: NoContent, ...problemResponses(404) },
      },
    },
    async (request, reply) => {
      await people.unstar(request.caller, request.params.userId);
      return reply.code(204).send();
    },
  );
};
