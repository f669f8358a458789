import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { IdParams, problemResponses } from '../../shared/schemas.js';
import { CancelledSeries, CancelSeriesQuery, CreatedSeries, CreateSeriesBody, Series, SeriesListQuery, SeriesPage, SeriesPreview } from './series.schemas.js';
import type { SeriesService } from './series.service.js';

const RULES =
  'Occurrences are computed on the wall clock of `timeZone` (09:00–17:00 Europe/Berlin is 08:00Z in winter, 07:00Z in summer); the first is on the date of startTime if the rule selects it. ' +
  'At most 260 occurrences. Each occurrence is an ordinary Reservation under every booking rule: a USER gets 400 RESERVATION_NOT_ALLOWED naming the first occurrence that lies in the past, ' +
  'too far ahead (RESERVATION_HORIZON) or is too long, 409 DESK_NOT_BOOKABLE for FIXED desks and unavailable rooms. ' +
  'See docs/behaviour.md, "Recurring reservations".';

export const seriesRoutes: FastifyPluginAsyncTypebox<{ series: SeriesService }> = async (app, { series }) => {
  app.post(
    '/api/reservation/series',
    {
      config: { expensive: true, writesReservations: true },
      schema: {
        tags: ['Reservation Series'],
        summary: 'Book a recurring series of reservations',
        description:
          'All or nothing by default, in one transaction: if any occurrence collides with another reservation of the desk (or of the owner, RESERVATION_ONE_PER_USER), ' +
          'nothing is booked and 409 SERIES_CONFLICT lists every colliding occurrence in `occurrences` (date, startTime, endTime, reason). ' +
          'With skipConflicts the free ones are booked and the others listed in `skipped` (409 if none is free). ' +
          `userId and type as for POST /api/reservation. ${RULES}`,
        body: CreateSeriesBody,
        response: { 200: CreatedSeries, ...problemResponses(403, 409) },
      },
    },
    async (request) => series.create(request.caller, request.body),
  );

  app.post(
    '/api/reservation/series/preview',
    {
      config: { expensive: true, readOnly: true },
      schema: {
        tags: ['Reservation Series'],
        summary: 'Preview a series: its dates and which of them collide, without booking',
        description: `Takes the body of POST /api/reservation/series and books nothing. The same 400/403/409 answers for rule breaks; collisions are reported per occurrence instead of as 409. ${RULES}`,
        body: CreateSeriesBody,
        response: { 200: SeriesPreview, ...problemResponses(403, 409) },
      },
    },
    async (request) => series.preview(request.caller, request.body),
  );

  app.get(
    '/api/reservation/series',
    {
      schema: {
        tags: ['Reservation Series'],
        summary: 'List series',
        description:
          "A USER sees their own series; an admin everyone's (filter with userId). Newest first unless sorted (sortable: id, createdAt, startTime, deskId, userId). " +
          'Each item counts its occurrences that have not ended (`upcoming`) and names the next start.',
        querystring: SeriesListQuery,
        response: { 200: SeriesPage, ...problemResponses(403) },
      },
    },
    async (request) => series.list(request.caller, request.query),
  );

  app.get(
    '/api/reservation/series/:id',
    {
      schema: {
        tags: ['Reservation Series'],
        summary: 'Get a series with its occurrences',
        description: "The rule and every occurrence that still exists, with its reservation id. Another user's series answers 404 to a USER.",
        params: IdParams,
        response: { 200: Series, ...problemResponses(404) },
      },
    },
    async (request) => series.get(request.caller, request.params.id),
  );

  app.delete(
    '/api/reservation/series/:id',
    {
      config: { writesReservations: true },
      schema: {
        tags: ['Reservation Series'],
        summary: 'Cancel a series, or its occurrences from one on',
        description:
          'Cancels the occurrences starting at or after `from` (all without it) that have not ended; ended ones stay as history, as for single reservations. ' +
          'Answers the series as it now is. A single occurrence is cancelled with DELETE /api/reservation/{id} and leaves the others. A USER cannot cancel a fixed series (403). ' +
          'Cancelled by anyone but an admin, an occurrence that starts within the cancellation lead time in force (a CANCEL_LEAD rule) stays booked and is listed in `kept` with the rule; the others are cancelled (docs/policies.md#cancelling-a-series).',
        params: IdParams,
        querystring: CancelSeriesQuery,
        response: { 200: CancelledSeries, ...problemResponses(403, 404) },
      },
    },
    async (request) => series.cancel(request.caller, request.params.id, request.query),
  );
};
