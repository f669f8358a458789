import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { NoContent, problemResponses } from '../../shared/schemas.js';
import { OutboxCounts, OutboxIdParams, OutboxListQuery, OutboxPage } from './outbox.schemas.js';
import type { OutboxService } from './outbox.service.js';

export const outboxRoutes: FastifyPluginAsyncTypebox<{ outbox: OutboxService }> = async (app, { outbox }) => {
  app.get(
    '/api/admin/outbox',
    {
      config: { role: 'ADMIN' },
      schema: {
        tags: ['Outbox'],
        summary: 'List the messages of the outbox',
        description:
          'Admins only (403 otherwise). The mails the service sends or sent: kind, recipient, status, tries, the last error and times; never what a mail carries. ' +
          '`status=dead` lists the ones given up after their tries. Paged; sortable by id, kind, status, attempts, createdAt, deadAt; default order createdAt descending (newest first), then id descending.',
        querystring: OutboxListQuery,
        response: { 200: OutboxPage, ...problemResponses(403) },
      },
    },
    async (request) => outbox.list(request.query),
  );

  app.get(
    '/api/admin/outbox/counts',
    {
      config: { role: 'ADMIN' },
      schema: {
        tags: ['Outbox'],
        summary: 'Count the messages of the outbox by status',
        description:
          "Admins only (403 otherwise). How many messages are pending, being sent, sent and dead now (what the web app's outbox page shows on its tabs).",
        response: { 200: OutboxCounts, ...problemResponses(403) },
      },
    },
    async () => outbox.counts(),
  );

  app.post(
    '/api/admin/outbox/:id/retry',
    {
      config: { role: 'ADMIN' },
      schema: {
        tags: ['Outbox'],
        summary: 'Send a dead message again',
        description:
          'Admins only (403 otherwise). The message is pending again at once, its tries counted from 0 (a password link gets a fresh token when it is sent). ' +
          'An unknown id: 404. A message that is not dead (pending, being sent or sent): 409 OUTBOX_NOT_DEAD.',
        params: OutboxIdParams,
        response: { 204: NoContent, ...problemResponses(404, 409) },
      },
    },
    async (request, reply) => {
      await outbox.retry(request.params.id);
      return reply.code(204).send();
    },
  );
};
