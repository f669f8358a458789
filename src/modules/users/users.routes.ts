import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { IdParams, NoContent, problemResponses } from '../../shared/schemas.js';
import { CreateUserBody, SetPasswordBody, UpdateUserBody, User, UserListQuery, UserPage } from './users.schemas.js';
import type { UsersService } from './users.service.js';

const ADMIN_FIELDS_NOTE = 'Non-admin callers receive users without `enabled`, `ldap` and `role`.';

export const usersRoutes: FastifyPluginAsyncTypebox<{ users: UsersService }> = async (app, { users }) => {
  app.get(
    '/api/users',
    {
      schema: {
        tags: ['User'],
        summary: 'List users',
        description: `Paged; default order lastName, firstName, id. ${ADMIN_FIELDS_NOTE} Sorting or filtering by role, enabled or ldap is for admins only.`,
        querystring: UserListQuery,
        response: { 200: UserPage, ...problemResponses(403) },
      },
    },
    async (request) => users.list(request.caller, request.query),
  );

  app.post(
    '/api/users',
    {
      config: { role: 'ADMIN' },
      schema: {
        tags: ['User'],
        summary: 'Create a user',
        description:
          'role defaults to USER, enabled to true, ldap to false. A local user signs in once an admin has set a password. E-mail addresses are unique regardless of case (409).',
        body: CreateUserBody,
        response: { 200: User, ...problemResponses(409) },
      },
    },
    async (request) => users.create(request.body),
  );

  app.get(
    '/api/users/:id',
    {
      schema: { tags: ['User'], summary: 'Get a user', description: ADMIN_FIELDS_NOTE, params: IdParams, response: { 200: User, ...problemResponses(404) } },
    },
    async (request) => users.get(request.caller, request.params.id),
  );

  app.put(
    '/api/users/:id',
    {
      config: { role: 'ADMIN' },
      schema: {
        tags: ['User'],
        summary: 'Change a user',
        description:
          'Members left out keep their value. Disabling a user, or switching them to the directory (ldap true, which drops their local password), revokes their sessions at once. ' +
          'A new e-mail address voids a pending password link; a live one is mailed anew, of the same kind, to the new address. ' +
          'The last enabled admin cannot be disabled, demoted or switched to the directory (409).',
        params: IdParams,
        body: UpdateUserBody,
        response: { 200: User, ...problemResponses(404, 409) },
      },
    },
    async (request) => users.update(request.params.id, request.body),
  );

  app.delete(
    '/api/users/:id',
    {
      config: { role: 'ADMIN' },
      schema: {
        tags: ['User'],
        summary: 'Delete a user',
        description: 'Their sessions end at once. The last enabled admin cannot be deleted (409).',
        params: IdParams,
        response: { 204: NoContent, ...problemResponses(404, 409) },
      },
    },
    async (request, reply) => {
      await users.delete(request.params.id);
      return reply.code(204).send();
    },
  );

  app.put(
    '/api/users/:id/password',
    {
      config: { role: 'ADMIN' },
      schema: {
        tags: ['Password'],
        summary: "Set a local user's password",
        description: "The user's sessions are revoked (an admin setting their own keeps the current one). Directory users: 409.",
        params: IdParams,
        body: SetPasswordBody,
        response: { 204: NoContent, ...problemResponses(404, 409) },
      },
    },
    async (request, reply) => {
      await users.setPassword(request.caller, request.params.id, request.body.password);
      return reply.code(204).send();
    },
  );
};
