import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { NoContent, problemResponses } from '../../shared/schemas.js';
import { ChangeOwnPasswordBody, UpdateSelfBody, User } from './users.schemas.js';
import { OPEN_BEFORE_PASSWORD_CHANGE } from '../../identity/caller.js';
import { toUserDto } from './users.mappers.js';
import type { UsersService } from './users.service.js';

export const selfRoutes: FastifyPluginAsyncTypebox<{ users: UsersService }> = async (app, { users }) => {
  app.get(
    '/api/self',
    {
      config: { allowedBeforePasswordChange: true },
      schema: {
        tags: ['Self'],
        summary: 'The caller',
        description: `The caller's own User, with \`enabled\`, \`ldap\` and \`role\`. ${OPEN_BEFORE_PASSWORD_CHANGE}`,
        response: { 200: User, ...problemResponses() },
      },
    },
    async (request) => toUserDto(request.caller.user, true),
  );

  app.put(
    '/api/self',
    {
      schema: {
        tags: ['Self'],
        summary: "Change the caller's name",
        description: 'Only firstName and lastName; any other member (role, email, …) is refused with 400.',
        body: UpdateSelfBody,
        response: { 200: User, ...problemResponses() },
      },
    },
    async (request) => users.updateSelf(request.caller, request.body),
  );

  app.put(
    '/api/self/password',
    {
      config: { allowedBeforePasswordChange: true },
      schema: {
        tags: ['Password'],
        summary: "Change the caller's password",
        description:
          "Needs the current password (wrong: 400 INVALID_CURRENT_PASSWORD; wrong attempts count toward the account's sign-in limits). The caller's other sessions are revoked. Directory users: 409. " +
          `An account created with a generated password must do this first: until then every other operation but a few answers 403 PASSWORD_CHANGE_REQUIRED. ${OPEN_BEFORE_PASSWORD_CHANGE}`,
        body: ChangeOwnPasswordBody,
        response: { 204: NoContent, ...problemResponses(409, 429) },
      },
    },
    async (request, reply) => {
      await users.changeOwnPassword(request.caller, request.body.currentPassword, request.body.newPassword, request.ip);
      return reply.code(204).send();
    },
  );
};
