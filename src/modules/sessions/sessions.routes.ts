import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { IdParams, NoContent, problemResponses } from '../../shared/schemas.js';
import { SessionListQuery, SessionPage, UserSessionsQuery } from './sessions.schemas.js';
import type { SessionsService } from './sessions.service.js';
import { OPEN_BEFORE_PASSWORD_CHANGE } from '../../identity/caller.js';

const ORDER_NOTE = `Paged; default order createdAt descending (newest first), then id. Only sessions that have not ended are listed. ${OPEN_BEFORE_PASSWORD_CHANGE}`;

export const sessionsRoutes: FastifyPluginAsyncTypebox<{ sessions: SessionsService }> = async (app, { sessions }) => {
  app.get(
    '/api/sessions',
    {
      config: { allowedBeforePasswordChange: true },
      schema: {
        tags: ['Session'],
        summary: 'List sessions',
        description: `Admins see every session; other users their own. ${ORDER_NOTE}`,
        querystring: SessionListQuery,
        response: { 200: SessionPage, ...problemResponses(403) },
      },
    },
    async (request) => sessions.list(request.caller, request.query),
  );

  app.get(
    '/api/users/:id/sessions',
    {
      config: { allowedBeforePasswordChange: true },
      schema: {
        tags: ['Session'],
        summary: 'Sessions of one user',
        description: `Users may ask for their own id only (403 otherwise). ${ORDER_NOTE}`,
        params: IdParams,
        querystring: UserSessionsQuery,
        response: { 200: SessionPage, ...problemResponses(403, 404) },
      },
    },
    async (request) => sessions.listOfUser(request.caller, request.params.id, request.query),
  );

  app.delete(
    '/api/sessions/:id',
    {
      config: { allowedBeforePasswordChange: true },
      schema: {
        tags: ['Session'],
        summary: 'Revoke a session',
        description: `Its owner or an admin (403 for anyone else). The session's tokens are refused from then on. ${OPEN_BEFORE_PASSWORD_CHANGE}`,
        params: IdParams,
        response: { 204: NoContent, ...problemResponses(403, 404) },
      },
    },
    async (request, reply) => {
      await sessions.revoke(request.caller, request.params.id);
      return reply.code(204).send();
    },
  );
};
