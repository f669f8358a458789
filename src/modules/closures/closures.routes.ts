import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { IdParams, NoContent, problemResponses } from '../../shared/schemas.js';
import {
  ClosedDays,
  ClosedDaysQuery,
  ClosureDetail,
  ClosureInput,
  ClosureListQuery,
  ClosurePage,
  ClosurePreview,
  CreateClosureBody,
  CreatedClosure,
  HolidayCatalogue,
  HolidayImportBody,
  HolidayImportInput,
  HolidayImportResult,
  HolidayPreview,
  PreviewQuery,
} from './closures.schemas.js';
import { HOLIDAY_ATTRIBUTION } from './closures.holidays.js';
import { etagMatches } from '../../shared/etag.js';
import type { ClosuresService } from './closures.service.js';

/** Closures and holidays (docs/policies.md#closures-and-holidays). */
export const closuresRoutes: FastifyPluginAsyncTypebox<{ closures: ClosuresService }> = async (app, { closures }) => {
  app.get(
    '/api/closures',
    {
      config: { role: 'ADMIN' },
      schema: {
        tags: ['Closures'],
        summary: 'List closures',
        description: 'Admins only (403 otherwise). Paged; sortable by startDate, createdAt, reason, scope; default startDate, then id.',
        querystring: ClosureListQuery,
        response: { 200: ClosurePage, ...problemResponses(403) },
      },
    },
    async (request) => closures.list(request.query),
  );

  app.get(
    '/api/closures/days',
    {
      schema: {
        tags: ['Closures'],
        summary: 'Closed days of a date range',
        description:
          'Any signed-in user. Each closed day from `from` to `to` (at most 92 days apart: 400 otherwise) with its closure, reason and scope, so a client can say why a day cannot be booked. With departmentId, only the closures that hold there.',
        querystring: ClosedDaysQuery,
        response: { 200: ClosedDays, ...problemResponses(400) },
      },
    },
    async (request) => closures.closedDays(request.query),
  );

  app.get(
    '/api/closures/:id',
    {
      config: { role: 'ADMIN' },
      schema: {
        tags: ['Closures'],
        summary: 'Read a closure with every closed day',
        description: 'Admins only (403 otherwise). Unknown id: 404.',
        params: IdParams,
        response: { 200: ClosureDetail, ...problemResponses(403, 404) },
      },
    },
    async (request) => closures.get(request.params.id),
  );

  app.post(
    '/api/closures/preview',
    {
      config: { role: 'ADMIN' },
      schema: {
        tags: ['Closures'],
        summary: 'Preview a closure: its days and the reservations on them',
        description:
          'Admins only (403 otherwise). Checks the closure as creating it would (400 naming the field: a day in the past, an RRULE without COUNT or UNTIL, …) and answers its days and a page of the reservations not yet ended that touch them (in each office’s time zone), in start order. Writes nothing.',
        body: ClosureInput,
        querystring: PreviewQuery,
        response: { 200: ClosurePreview, ...problemResponses(400, 403) },
      },
    },
    async (request) => closures.preview(request.body, request.query),
  );

  app.post(
    '/api/closures',
    {
      config: { role: 'ADMIN' },
      schema: {
        tags: ['Closures'],
        summary: 'Create a closure',
        description:
          'Admins only (403 otherwise). Closes whole local days, everywhere, in a department or in a building, as one-off dates or a recurrence. In one transaction: the closure is written and, with onExisting cancel, the reservations on its days that have not started are cancelled (each owner gets one mail with the reason and, through their calendar, the cancellation). From then on a booking that touches a closed day answers 409 CLOSED_DAY. Bad input: 400 naming the field, nothing written.',
        body: CreateClosureBody,
        response: { 200: CreatedClosure, ...problemResponses(400, 403) },
      },
    },
    async (request) => closures.create(request.caller!, request.body),
  );

  // Public holidays (docs/policies.md#public-holidays).
  app.get(
    '/api/closures/holidays/regions',
    {
      config: { role: 'ADMIN' },
      schema: {
        tags: ['Closures'],
        summary: 'Countries, states and regions with public holidays',
        description: `Admins only (403 otherwise). Every country the holiday data knows, with its languages, states and regions (English names). The answer changes only with the service's version: a browser may keep it a day, then revalidate with its ETag (If-None-Match: 304). ${HOLIDAY_ATTRIBUTION}.`,
        response: { 200: HolidayCatalogue, 304: { type: 'null', description: 'Not modified (If-None-Match named the ETag).' }, ...problemResponses(403) },
      },
    },
    async (request, reply) => {
      // Made once per process; a browser keeps it a day, then revalidates (304 while unchanged).
      const { json, etag } = closures.holidayCatalogueJson();
      reply.header('cache-control', 'private, max-age=86400').header('etag', etag);
      if (etagMatches(request.headers['if-none-match'], etag)) return reply.code(304).send();
      return reply.type('application/json; charset=utf-8').send(json);
    },
  );

  app.post(
    '/api/closures/holidays/preview',
    {
      config: { role: 'ADMIN' },
      schema: {
        tags: ['Closures'],
        summary: 'Preview a public-holiday import',
        description: `Admins only (403 otherwise). The public holidays of a country (state, region) in one or two years, each NEW (the import would close it), CLOSED (a closure already closes it throughout the scope) or PAST (before today in the scope's offices), and a page of the reservations not yet ended on the NEW days. 400 naming the field for an unknown country, state, region or language, or years out of bounds. Writes nothing. ${HOLIDAY_ATTRIBUTION}.`,
        body: HolidayImportInput,
        querystring: PreviewQuery,
        response: { 200: HolidayPreview, ...problemResponses(400, 403) },
      },
    },
    async (request) => closures.previewHolidays(request.body, request.query),
  );

  app.post(
    '/api/closures/holidays',
    {
      config: { role: 'ADMIN' },
      schema: {
        tags: ['Closures'],
        summary: 'Import public holidays as closures',
        description: `Admins only (403 otherwise). Creates one-off closures of the scope from the public holidays of one or two years, one per holiday name (its reason), with the dates not already closed throughout the scope and not past: importing again adds nothing. Reservations on the new days are cancelled or kept as onExisting says, as when creating a closure. Answers the closures made (possibly none) and each holiday's status. ${HOLIDAY_ATTRIBUTION}.`,
        body: HolidayImportBody,
        response: { 200: HolidayImportResult, ...problemResponses(400, 403) },
      },
    },
    async (request) => closures.importHolidays(request.caller!, request.body),
  );

  app.delete(
    '/api/closures/:id',
    {
      config: { role: 'ADMIN' },
      schema: {
        tags: ['Closures'],
        summary: 'Delete a closure',
        description: 'Admins only (403 otherwise). Its days can be booked again; reservations it cancelled stay cancelled. Unknown id: 404.',
        params: IdParams,
        response: { 204: NoContent, ...problemResponses(403, 404) },
      },
    },
    async (request, reply) => {
      await closures.delete(request.params.id);
      return reply.code(204).send();
    },
  );
};
