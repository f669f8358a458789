import { createHash } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { notFound } from '../../shared/errors.js';
import { etagMatches } from '../../shared/etag.js';
import type { Language } from '../../shared/languages.js';
import { IdParams, problemResponses, Uuid } from '../../shared/schemas.js';
import { deskUrl, LABEL_SHEET_CSS, LABEL_SHEET_CSS_PATH, qrCodes, qrEtag } from './attendance.qr.js';
import {
  Attendance,
  AttendanceListQuery,
  AttendancePage,
  DepartmentSettings,
  DeskDay,
  DeskDayQuery,
  NoShowQuery,
  NoShowStats,
  PutDepartmentSettingsBody,
  WalkInResult,
} from './attendance.schemas.js';
import type { AttendanceService } from './attendance.service.js';

const DepartmentParams = Type.Object({ departmentId: Uuid() });
const DeskParams = Type.Object({ deskId: Uuid() });
const RoomParams = Type.Object({ roomId: Uuid() });

const SETTINGS_NOTE =
  'null (or, with PUT, left out) inherits the global CHECK_IN_REQUIRED / CHECK_IN_OPENS_BEFORE / CHECK_IN_GRACE. A change applies to the reservations of the department that have not started yet (those checked in or released keep their attendance). ' +
  'timeZone is an IANA name (400 otherwise), default UTC: walk-in ends at WALK_IN_UNTIL in it, and the desk page and no-show rates count its days. Deleted with the department.';

export const attendanceRoutes: FastifyPluginAsyncTypebox<{ attendance: AttendanceService; publicUrl: string; defaultLanguage?: Language }> = async (
  app,
  { attendance, publicUrl, defaultLanguage },
) => {
  app.get(
    '/api/departments/:departmentId/settings',
    {
      schema: {
        tags: ['Attendance'],
        summary: "An office's check-in settings and time zone",
        description: `Everyone may read them. ${SETTINGS_NOTE}`,
        params: DepartmentParams,
        response: { 200: DepartmentSettings, ...problemResponses(404) },
      },
    },
    async (request) => attendance.getSettings(request.params.departmentId),
  );

  for (const method of ['PUT', 'PATCH'] as const) {
    app.route({
      method,
      url: '/api/departments/:departmentId/settings',
      config: { role: 'ADMIN' },
      schema: {
        tags: ['Attendance'],
        summary: method === 'PUT' ? "Replace an office's check-in settings" : "Change some of an office's check-in settings",
        description: `${method === 'PUT' ? 'Members left out inherit (timeZone: UTC).' : 'Members left out keep their value.'} ${SETTINGS_NOTE}`,
        params: DepartmentParams,
        body: PutDepartmentSettingsBody,
        response: { 200: DepartmentSettings, ...problemResponses(403, 404) },
      },
      handler: async (request) => attendance.saveSettings(request.params.departmentId, request.body, method === 'PATCH'),
    });
  }

  app.post(
    '/api/reservation/:id/check-in',
    {
      config: { writesReservations: true },
      schema: {
        tags: ['Attendance'],
        summary: 'Check in to a reservation',
        description:
          "By its owner (admins for anyone; another user's reservation is 404 to a USER). Accepted from `checkInOpensAt` (CHECK_IN_OPENS_BEFORE before the start) until the reservation ends and, while check-in is required, before `releaseAt` (start + CHECK_IN_GRACE); " +
          'outside that window, or once released, 409 CHECK_IN_NOT_OPEN. Idempotent: checking in again answers the same attendance. A check-in and the release racing at the deadline lock the same row: exactly one wins.',
        params: IdParams,
        response: { 200: Attendance, ...problemResponses(404, 409) },
      },
    },
    async (request) => attendance.checkIn(request.caller, request.params.id),
  );

  app.get(
    '/api/reservation/:id/attendance',
    {
      schema: {
        tags: ['Attendance'],
        summary: "A reservation's attendance",
        description: "The owner's own, or any for admins (404 otherwise).",
        params: IdParams,
        response: { 200: Attendance, ...problemResponses(404) },
      },
    },
    async (request) => attendance.get(request.caller, request.params.id),
  );

  app.get(
    '/api/attendance',
    {
      schema: {
        tags: ['Attendance'],
        summary: 'List attendance',
        description:
          "A USER sees their own only; admins everyone's, with filters (combined with AND; `from`/`to` select reservations overlapping [from, to)). Paged; default order startTime, reservationId. " +
          'Sortable: reservationId, userId, deskId, roomId, departmentId, startTime, endTime, status, releaseAt.',
        querystring: AttendanceListQuery,
        response: { 200: AttendancePage, ...problemResponses(403) },
      },
    },
    async (request) => attendance.list(request.caller, request.query),
  );

  app.get(
    '/api/stats/no-shows',
    {
      config: { role: 'ADMIN', expensive: true },
      schema: {
        tags: ['Attendance'],
        summary: 'Daily no-show rates',
        description:
          'Per day from `from` to `to` (inclusive, at most 366 days), the reservations starting that day by attendance status and the no-show rate noShows / (checkedIn + noShows), computed by the database. ' +
          "Days are those of the department's time zone with `departmentId`, otherwise UTC days.",
        querystring: NoShowQuery,
        response: { 200: NoShowStats, ...problemResponses(403) },
      },
    },
    async (request) => attendance.noShows(request.query),
  );

  app.get(
    '/api/desks/:deskId/day',
    {
      schema: {
        tags: ['Attendance'],
        summary: 'A desk and its day (the desk page)',
        description:
          "The desk, its room and office, and its reservations overlapping the local day (the office's time zone; default today). Other people's reservations show only their times. " +
          '`walkInUntil` says where a walk-in booked now would end (null when none is possible now).',
        params: DeskParams,
        querystring: DeskDayQuery,
        response: { 200: DeskDay, ...problemResponses(404) },
      },
    },
    async (request) => attendance.deskDay(request.caller, request.params.deskId, request.query.date),
  );

  app.post(
    '/api/desks/:deskId/walk-in',
    {
      config: { writesReservations: true },
      schema: {
        tags: ['Attendance'],
        summary: 'Book a desk on the spot (walk-in)',
        description:
          "Books the desk for the caller from now until its next reservation or WALK_IN_UNTIL (default 18:00) local time in the office's time zone, whichever comes first (for USERs also at most RESERVATION_MAX_LENGTH), " +
          'and checks in at once. The booking rules apply: FIXED desks and unavailable rooms 409 DESK_NOT_BOOKABLE; a desk taken now, or a caller who already has a reservation then, 409 RESERVATION_CONFLICT; ' +
          'after the end of the working day, or less than a minute before the next reservation, 409 WALK_IN_NOT_POSSIBLE.',
        params: DeskParams,
        response: { 200: WalkInResult, ...problemResponses(404, 409) },
      },
    },
    async (request) => attendance.walkIn(request.caller, request.params.deskId),
  );

  for (const format of ['svg', 'png'] as const) {
    app.get(
      `/api/desks/:deskId/qr.${format}`,
      {
        // Drawing an image costs CPU: limited per user like other costly requests.
        config: { expensive: true },
        schema: {
          tags: ['Attendance'],
          summary: `A desk's QR code (${format.toUpperCase()})`,
          description:
            "Encodes PUBLIC_URL/d/{deskId}, the web app's desk page (check in, or book on the spot). A desk's code never changes: it carries an ETag " +
            '(If-None-Match answers 304) and may be cached for a day.',
          params: DeskParams,
          response: {
            200: {
              description: 'The QR code.',
              content: { [format === 'svg' ? 'image/svg+xml' : 'image/png']: { schema: { type: 'string', format: 'binary' } } },
            },
            304: { type: 'null', description: 'Not modified (If-None-Match named the ETag).' },
            ...problemResponses(404),
          },
        },
      },
      async (request, reply) => {
        if (!(await attendance.deskExists(request.params.deskId))) throw notFound('Desk', request.params.deskId);
        // The id is checked as sent (either case); the code encodes it as it is stored.
        const url = deskUrl(publicUrl, request.params.deskId.toLowerCase());
        // A desk's code never changes (docs/behaviour.md#desk-qr-codes): a browser keeps it a day and then
        // revalidates; a drawn code is kept in memory (qrCodes).
        const etag = qrEtag(format, url);
        reply.header('cache-control', 'private, max-age=86400').header('etag', etag);
        if (etagMatches(request.headers['if-none-match'], etag)) return reply.code(304).send();
        if (format === 'svg') return reply.type('image/svg+xml').send(await qrCodes.svg(url));
        return reply.type('image/png').send(await qrCodes.png(url));
      },
    );
  }

  app.get(
    '/api/rooms/:roomId/qr-labels',
    {
      config: { role: 'ADMIN', expensive: true },
      schema: {
        tags: ['Attendance'],
        summary: "A room's printable sheet of desk QR labels",
        description:
          'A self-contained HTML page sized for A4 (12 labels a page, 3 × 4): per desk its name, room, office and QR code. Print it from the browser.',
        params: RoomParams,
        response: { 200: { description: 'The label sheet.', content: { 'text/html': { schema: { type: 'string' } } } }, ...problemResponses(403, 404) },
      },
    },
    async (request, reply) => {
      const html = await attendance.labelSheet(request.caller, request.params.roomId, publicUrl, defaultLanguage);
      // Opened directly, the sheet may load its own stylesheet and nothing else.
      reply.header('content-security-policy', "default-src 'none'; style-src 'self'; img-src data:");
      return reply.type('text/html; charset=utf-8').send(html);
    },
  );

  // The label sheet's stylesheet (docs/behaviour.md#desk-qr-codes): the same for everyone, so public.
  const cssEtag = `"${createHash('sha256').update(LABEL_SHEET_CSS).digest('base64url').slice(0, 27)}"`;
  app.get(
    LABEL_SHEET_CSS_PATH,
    {
      config: { public: true, offline: true },
      schema: {
        tags: ['Attendance'],
        summary: 'The stylesheet of the QR label sheets',
        description:
          'The styles GET /api/rooms/{roomId}/qr-labels links to (A4, 3 × 4 labels). No authentication: it is the same for everyone. ' +
          'A stylesheet of its own, so that a copy of the sheet opened under a policy that forbids inline styles still prints as designed.',
        security: [],
        response: {
          200: { description: 'The stylesheet.', content: { 'text/css': { schema: { type: 'string' } } } },
          304: { type: 'null', description: 'Not modified.' },
          ...problemResponses(),
        },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'public, max-age=3600').header('etag', cssEtag);
      if (etagMatches(request.headers['if-none-match'], cssEtag)) return reply.code(304).send();
      return reply.type('text/css; charset=utf-8').send(LABEL_SHEET_CSS);
    },
  );
};
