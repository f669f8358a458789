import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { NoContent, problemResponses } from '../../shared/schemas.js';
import { CalendarFeedCreated, CalendarFeedStatus, CalendarSettings, FeedParams } from './calendar.schemas.js';
import type { CalendarService } from './calendar.service.js';

/** Calendar apps poll; a cache may keep the feed this long, then revalidates with If-None-Match. */
export const FEED_CACHE_CONTROL = 'private, max-age=300';

export const calendarRoutes: FastifyPluginAsyncTypebox<{ calendar: CalendarService }> = async (app, { calendar }) => {
  app.get(
    '/api/calendar/:token.ics',
    {
      config: { public: true },
      schema: {
        tags: ['Calendar'],
        summary: 'A private calendar feed (iCalendar)',
        security: [],
        description:
          'No bearer token: the secret in the URL is the credential (calendar apps cannot send one). The owner’s reservations from 30 days back to RESERVATION_HORIZON ahead ' +
          '(at most 2000, earliest first), one VEVENT each with a stable UID, a SEQUENCE that grows on every change, DTSTAMP (the last change), LOCATION ' +
          '"location · building · Floor n · room · desk", URL to the reservation in the web app and UTC times; reservations cancelled in the last 30 days as STATUS:CANCELLED. ' +
          'ETag with If-None-Match (304) and Cache-Control for polling. An unknown, malformed or replaced token answers 404, as slowly as a known one.',
        params: FeedParams,
        response: {
          200: { description: 'The feed (text/calendar).', content: { 'text/calendar': { schema: { type: 'string' } } } },
          304: { type: 'null', description: 'Not modified (If-None-Match named the ETag).' },
          ...problemResponses(404),
        },
      },
    },
    async (request, reply) => {
      const feed = await calendar.feed(request.params.token, request.headers['if-none-match']);
      reply.header('etag', feed.etag).header('cache-control', FEED_CACHE_CONTROL).header('referrer-policy', 'no-referrer');
      if (feed.body === undefined) return reply.code(304).send();
      return reply.type('text/calendar; charset=utf-8').send(feed.body);
    },
  );

  app.get(
    '/api/self/calendar-feed',
    {
      schema: {
        tags: ['Calendar'],
        summary: 'Whether the caller has a calendar feed URL',
        description: 'The URL itself is not kept (only a hash of its token): it is shown once, when created. Replace it to see a new one.',
        response: { 200: CalendarFeedStatus, ...problemResponses() },
      },
    },
    async (request) => calendar.feedStatus(request.caller),
  );

  app.post(
    '/api/self/calendar-feed',
    {
      schema: {
        tags: ['Calendar'],
        summary: 'Create or replace the caller’s calendar feed URL',
        description:
          'A new URL with a random 256-bit token; the previous URL, if any, answers 404 from now on. The URL is in this answer only: copy it into the calendar app.',
        response: { 200: CalendarFeedCreated, ...problemResponses() },
      },
    },
    async (request) => calendar.replaceFeed(request.caller),
  );

  app.delete(
    '/api/self/calendar-feed',
    {
      schema: {
        tags: ['Calendar'],
        summary: 'Remove the caller’s calendar feed URL',
        description: 'The URL answers 404 from now on. 404 when there is none.',
        response: { 204: NoContent, ...problemResponses(404) },
      },
    },
    async (request, reply) => {
      await calendar.deleteFeed(request.caller);
      return reply.code(204).send();
    },
  );

  app.get(
    '/api/self/calendar-settings',
    {
      schema: {
        tags: ['Calendar'],
        summary: 'The caller’s calendar settings',
        response: { 200: CalendarSettings, ...problemResponses() },
      },
    },
    async (request) => calendar.getSettings(request.caller),
  );

  app.put(
    '/api/self/calendar-settings',
    {
      schema: {
        tags: ['Calendar'],
        summary: 'Change the caller’s calendar settings',
        description: 'invitationMails false: no invitation or cancellation mails for the caller’s reservations from now on (mails already queued are dropped).',
        body: CalendarSettings,
        response: { 200: CalendarSettings, ...problemResponses() },
      },
    },
    async (request) => calendar.saveSettings(request.caller, request.body),
  );
};
