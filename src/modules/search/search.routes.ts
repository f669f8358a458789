import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { problemResponses } from '../../shared/schemas.js';
import { DepartmentPage, ReportPage, ReportSearchCriteria, RoomPage, SearchCriteria, SearchPageQuery } from './search.schemas.js';
import type { SearchService } from './search.service.js';

const CRITERIA_RULES =
  'Any signed-in user may search. Every criterion is optional; an empty body `{}`, or none, means no criteria. Criteria combine with AND. ' +
  'Text (department location and building, room name, desk name, equipment name) matches as a substring in any case, with `%`, `_` and `\\` taken literally (an empty string matches everything); ' +
  'ids, floor, `available` and the types match exactly. `equipment`: the desk has all of the listed items. ' +
  '`reservation.free {start, end}`: the desk has no reservation overlapping [start, end) (back-to-back reservations at either edge do not count). ' +
  'With `partlyReserved: true` a desk reserved for part of the window matches too if one continuous free stretch inside the window is at least `partlyBetween` long ' +
  '(any free stretch without `partlyBetween`); `partlyBetween` without `partlyReserved: true` has no effect but must still be valid. ' +
  '`reservation.full {start, end}`: reservations of the desk (one, or several back to back) cover the whole [start, end). ' +
  'Both windows look at reservations only: `room.available` and `desk.type` filter bookability only when given. ' +
  '400 (`VALIDATION_FAILED`, naming the field) for an unknown member, a malformed id or date-time, `start` not before `end` (field `reservation.free.end` or `reservation.full.end`), ' +
  'or a `partlyBetween` that is negative or not a duration.';

export const searchRoutes: FastifyPluginAsyncTypebox<{ search: SearchService }> = async (app, { search }) => {
  // No body at all means no criteria, like `{}` (this plugin is encapsulated: search routes only).
  app.addHook('preValidation', async (request) => {
    if (request.body === undefined) request.body = {};
  });

  app.post(
    '/api/search/rooms',
    {
      config: { expensive: true, readOnly: true },
      schema: {
        tags: ['Search'],
        summary: 'Search rooms',
        description:
          'A room matches when its own criteria (room and department members) match and, if any desk, equipment or reservation criteria are given, at least one of its desks matches them; ' +
          'its `desks` then lists exactly the matching desks. Without such criteria it lists all its desks (possibly none). Desks are ordered by name, id. ' +
          `${CRITERIA_RULES} Paged; sortable: id, name, available; default order name, id.`,
        querystring: SearchPageQuery,
        body: SearchCriteria,
        response: { 200: RoomPage, ...problemResponses() },
      },
    },
    async (request) => search.rooms(request.caller, request.body, request.query),
  );

  app.post(
    '/api/search/departments',
    {
      config: { expensive: true, readOnly: true },
      schema: {
        tags: ['Search'],
        summary: 'Search departments',
        description:
          'A department matches when its own criteria (the `department` member) match and, if any room, desk, equipment or reservation criteria are given, at least one of its rooms matches them ' +
          '(as in room search). Items carry no `rooms`. ' +
          `${CRITERIA_RULES} Paged; sortable: id, location, building, floor; default order location, building, floor, id.`,
        querystring: SearchPageQuery,
        body: SearchCriteria,
        response: { 200: DepartmentPage, ...problemResponses() },
      },
    },
    async (request) => search.departments(request.caller, request.body, request.query),
  );

  app.post(
    '/api/search/reports',
    {
      config: { expensive: true, readOnly: true },
      schema: {
        tags: ['Search'],
        summary: 'Search reports',
        description:
          'Any signed-in user may search. Every member is optional (no body: every report); they combine with AND. `title` and `description` match as substrings in any case ' +
          '(`%`, `_` and `\\` taken literally); `reportedBy`, `department`, `room`, `desk` and `equipment` are ids matched exactly. ' +
          'An unknown member or a malformed id is a 400. Paged; sortable: id, title, createdAt, reportedBy; default order createdAt descending (newest first), then id.',
        querystring: SearchPageQuery,
        body: ReportSearchCriteria,
        response: { 200: ReportPage, ...problemResponses() },
      },
    },
    async (request) => search.reports(request.caller, request.body, request.query),
  );
};
