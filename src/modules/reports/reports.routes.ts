import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { IdParams, NoContent, problemResponses } from '../../shared/schemas.js';
import {
  CreateReportBody,
  PutReportStatusBody,
  Report,
  ReportListQuery,
  ReportPage,
  ReportStatus,
  ReportStatusListQuery,
  ReportWithStatusPage,
  RoomReportsParams,
  RoomReportsQuery,
} from './reports.schemas.js';
import type { ReportsService } from './reports.service.js';

const ORDER_NOTE = 'Paged; sortable by id, title, createdAt, reportedBy; default order createdAt descending (newest first), then id.';

export const reportsRoutes: FastifyPluginAsyncTypebox<{ reports: ReportsService }> = async (app, { reports }) => {
  app.get(
    '/api/report',
    {
      schema: {
        tags: ['Report'],
        summary: 'List reports',
        description: `Every signed-in user sees every report. ${ORDER_NOTE} Optional filter \`reportedBy\`: only the reports filed by that user.`,
        querystring: ReportListQuery,
        response: { 200: ReportPage, ...problemResponses() },
      },
    },
    async (request) => reports.list(request.query),
  );

  app.post(
    '/api/report',
    {
      schema: {
        tags: ['Report'],
        summary: 'File a defect report',
        description:
          "A user files in their own name only: `reportedBy` must be the caller's id (403 otherwise); an admin may file for any user (an unknown `reportedBy` is a 400 naming it). " +
          'The place is optional and may be given at any level. Every id given must exist (400 naming the member otherwise) and the ids must agree with each other: ' +
          'the equipment on the given desk, the desk in the given room, the room in the given department; a mismatch is a 400 naming the more specific member (e.g. `deskId` when the desk is not in the given room). ' +
          "The parents left out are filled in from the most specific place given (a report naming only a desk gets that desk's roomId and departmentId), " +
          'so the reports of a room include those about its desks and equipment. The place is recorded as it is when the report is filed. ' +
          '`title` is trimmed; `createdAt` is the time of filing.',
        body: CreateReportBody,
        response: { 200: Report, ...problemResponses(403) },
      },
    },
    async (request) => reports.create(request.caller, request.body),
  );

  app.get(
    '/api/report/:id',
    {
      schema: {
        tags: ['Report'],
        summary: 'Get a report',
        description: 'Any signed-in user.',
        params: IdParams,
        response: { 200: Report, ...problemResponses(404) },
      },
    },
    async (request) => reports.get(request.params.id),
  );

  app.delete(
    '/api/report/:id',
    {
      config: { role: 'ADMIN' },
      schema: {
        tags: ['Report'],
        summary: 'Delete a report',
        description: 'Users get 403.',
        params: IdParams,
        response: { 204: NoContent, ...problemResponses(404) },
      },
    },
    async (request, reply) => {
      await reports.delete(request.params.id);
      return reply.code(204).send();
    },
  );

  // ---- status (docs/behaviour.md#report-status): its own resource, as Report may not grow members

  app.get(
    '/api/report/:id/status',
    {
      schema: {
        tags: ['Report'],
        summary: "A report's status",
        description: 'OPEN, IN_PROGRESS or RESOLVED, with the note the admins left for the reporter. The reporter and admins only (403 for others).',
        params: IdParams,
        response: { 200: ReportStatus, ...problemResponses(403, 404) },
      },
    },
    async (request) => reports.getStatus(request.caller, request.params.id),
  );

  app.put(
    '/api/report/:id/status',
    {
      config: { role: 'ADMIN' },
      schema: {
        tags: ['Report'],
        summary: "Set a report's status",
        description:
          'Admins only. Sets the status and the note to the reporter (left out or blank: no note; trimmed), recording when and by whom. ' +
          'Setting what is stored already changes nothing (changedAt and changedBy stay). The reporter sees the new status with their reports.',
        params: IdParams,
        body: PutReportStatusBody,
        response: { 200: ReportStatus, ...problemResponses(404) },
      },
    },
    async (request) => reports.setStatus(request.caller, request.params.id, request.body),
  );

  app.get(
    '/api/report-statuses',
    {
      schema: {
        tags: ['Report'],
        summary: 'Reports with their status',
        description:
          'Each report with its status. Admins list every report, optionally narrowed by `status`, `reportedBy`, `departmentId` and substrings of `title` and `description` (any case); ' +
          `a USER lists their own only and must give \`reportedBy\` = their id (403 otherwise). ${ORDER_NOTE}`,
        querystring: ReportStatusListQuery,
        response: { 200: ReportWithStatusPage, ...problemResponses(403) },
      },
    },
    async (request) => reports.listWithStatus(request.caller, request.query),
  );

  app.get(
    '/api/departments/:departmentId/rooms/:roomId/reports',
    {
      schema: {
        tags: ['Report'],
        summary: 'Reports of a room',
        description:
          `The reports whose roomId is this room: those about the room itself and about its desks and equipment. ${ORDER_NOTE} ` +
          '404 when the department or the room does not exist, or the room is not in that department.',
        params: RoomReportsParams,
        querystring: RoomReportsQuery,
        response: { 200: ReportPage, ...problemResponses(404) },
      },
    },
    async (request) => reports.listOfRoom(request.params.departmentId, request.params.roomId, request.query),
  );
};
