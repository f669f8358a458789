import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { etagMatches } from '../../shared/etag.js';
import { IdParams, NoContent, problemResponses } from '../../shared/schemas.js';
import { CreateDisplayBody, CreatedDisplay, DepartmentParams, DISPLAYS_PER_OFFICE, DisplayBoard, Displays, TokenParams } from './displays.schemas.js';
import { TOKEN_LOOKUPS_PER_SECOND, type DisplaysService } from './displays.service.js';

const TAGS = ['People'];

/** Lobby displays: their tokens (admins) and the public board (docs/people.md#the-lobby-display). */
export const displaysRoutes: FastifyPluginAsyncTypebox<{ displays: DisplaysService }> = async (app, { displays }) => {
  app.get(
    '/api/departments/:departmentId/displays',
    {
      config: { role: 'ADMIN' },
      schema: {
        tags: TAGS,
        summary: "An office's lobby displays",
        description: 'Admins only. Their tokens are never shown again after creation. Unknown office: 404.',
        params: DepartmentParams,
        response: { 200: Displays, ...problemResponses(403, 404) },
      },
    },
    async (request) => displays.list(request.params.departmentId),
  );

  app.post(
    '/api/departments/:departmentId/displays',
    {
      config: { role: 'ADMIN' },
      schema: {
        tags: TAGS,
        summary: 'Create a lobby display',
        description: `Admins only. Answers the display, its token and the page to open (PUBLIC_URL/display/<token>), shown this once: the token is stored only as its SHA-256. At most ${DISPLAYS_PER_OFFICE} per office (409 TOO_MANY_DISPLAYS).`,
        params: DepartmentParams,
        body: CreateDisplayBody,
        response: { 200: CreatedDisplay, ...problemResponses(403, 404, 409) },
      },
    },
    async (request) => displays.create(request.caller, request.params.departmentId, request.body.name),
  );

  app.delete(
    '/api/displays/:id',
    {
      config: { role: 'ADMIN' },
      schema: {
        tags: TAGS,
        summary: 'Revoke a lobby display',
        description:
          'Admins only. Its page answers 404 from then on: at once in this process, within a minute in other server processes (they trust a token for a minute).',
        params: IdParams,
        response: { 204: NoContent, ...problemResponses(403, 404) },
      },
    },
    async (request, reply) => {
      await displays.revoke(request.params.id);
      return reply.code(204).send();
    },
  );

  app.get(
    '/api/display/:token',
    {
      config: { public: true },
      schema: {
        tags: TAGS,
        summary: "A lobby display's board",
        security: [],
        description:
          "No sign-in: the token is the credential (unknown or revoked: 404). The office's desks, free or booked now, with today's bookings; names only where the organisation shows names to everyone and the person neither hides their bookings nor books anonymously (docs/people.md#what-is-shown-to-whom). " +
          `Computed at most once per office and minute per server process, whatever the number of viewers; answered with an ETag (If-None-Match: 304). Tokens not known to the process are looked up at most ${TOKEN_LOOKUPS_PER_SECOND} times a second per process (429 with Retry-After beyond).`,
        params: TokenParams,
        response: { 200: DisplayBoard, 304: { type: 'null', description: 'Not modified.' }, ...problemResponses(404, 429) },
      },
    },
    async (request, reply) => {
      const { body, etag } = await displays.board(request.params.token);
      reply.header('etag', etag).header('cache-control', 'no-cache').header('referrer-policy', 'no-referrer');
      if (etagMatches(request.headers['if-none-match'], etag)) return reply.code(304).send();
      return body;
    },
  );
};
