import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { NoContent, problemResponses } from '../../shared/schemas.js';
import { ForgotAnswer, ForgotBody, ResetBody } from './password.schemas.js';
import type { PasswordService } from './password.service.js';

const FORGOT_ANSWER = { message: 'If an account with that address exists, a link to reset its password has been sent.' };

export const passwordRoutes: FastifyPluginAsyncTypebox<{ passwords: PasswordService }> = async (app, { passwords }) => {
  app.post(
    '/api/password/forgot',
    {
      config: { public: true },
      schema: {
        tags: ['Password'],
        summary: 'Ask for a password-reset link by e-mail',
        description:
          'Always the same 200 answer, whether or not the address belongs to an account. A local, enabled user gets a mail with a single-use link ' +
          '(PUBLIC_URL/reset-password?token=…, valid PASSWORD_RESET_TTL, default 1 h); a newer link makes older ones invalid. Directory users get no mail. ' +
          'At most one such mail per account per PASSWORD_MAIL_COOLDOWN (default 5 min): a request within it mails nothing and the link already mailed keeps working. ' +
          'Limited per client address like sign-in (429).',
        security: [],
        body: ForgotBody,
        response: { 200: ForgotAnswer, ...problemResponses(429) },
      },
    },
    async (request) => {
      await passwords.forgot(request.body.email, request.ip);
      return FORGOT_ANSWER;
    },
  );

  app.post(
    '/api/password/reset',
    {
      config: { public: true },
      schema: {
        tags: ['Password'],
        summary: 'Set a new password with the token from the mail',
        description:
          'Consumes the token and signs the user out everywhere. An unknown, used or expired token: 400 INVALID_RESET_TOKEN. ' +
          'A refused password (8–256 characters) leaves the token usable. Limited per client address like sign-in (429).',
        security: [],
        body: ResetBody,
        response: { 204: NoContent, ...problemResponses(429) },
      },
    },
    async (request, reply) => {
      await passwords.reset(request.body.token, request.body.password, request.ip);
      return reply.code(204).send();
    },
  );
};
