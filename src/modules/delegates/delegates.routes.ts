import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { NoContent, problemResponses } from '../../shared/schemas.js';
import { AddDelegateBody, DELEGATES_PER_PERSON, DelegateParams, Delegates } from './delegates.schemas.js';
import type { DelegatesService } from './delegates.service.js';

const TAGS = ['Self'];

/** The caller's delegates (docs/policies.md#booking-for-someone-else). */
export const delegatesRoutes: FastifyPluginAsyncTypebox<{ delegates: DelegatesService }> = async (app, { delegates }) => {
  app.get(
    '/api/self/delegates',
    {
      schema: {
        tags: TAGS,
        summary: "The caller's delegates",
        description: 'The people the caller lets book, change and cancel reservations for them; ordered by name.',
        response: { 200: Delegates, ...problemResponses() },
      },
    },
    async (request) => delegates.list(request.caller),
  );

  app.post(
    '/api/self/delegates',
    {
      schema: {
        tags: TAGS,
        summary: 'Name a delegate',
        description: `Answers the delegates now. Naming someone twice changes nothing; yourself or an unknown user is 400; at most ${DELEGATES_PER_PERSON} (409 TOO_MANY_DELEGATES).`,
        body: AddDelegateBody,
        response: { 200: Delegates, ...problemResponses(409) },
      },
    },
    async (request) => delegates.add(request.caller, request.body.userId),
  );

  app.delete(
    '/api/self/delegates/:userId',
    {
      schema: {
        tags: TAGS,
        summary: 'Remove a delegate',
        description: 'They may no longer book for the caller; what they booked stays.',
        params: DelegateParams,
        response: { 204: NoContent, ...problemResponses(404) },
      },
    },
    async (request, reply) => {
      await delegates.remove(request.caller, request.params.userId);
      return reply.code(204).send();
    },
  );
};
