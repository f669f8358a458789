import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { headerText } from '../../plugins/encoding.js';
import { problemResponses } from '../../shared/schemas.js';
import { OPEN_BEFORE_PASSWORD_CHANGE } from '../../identity/caller.js';
import { toTokenPairDto } from './auth.mappers.js';
import type { AuthService } from './auth.service.js';
import { LoginBody, RefreshBody, TokenPairSchema } from './auth.schemas.js';

export const authRoutes: FastifyPluginAsyncTypebox<{ auth: AuthService }> = async (app, { auth }) => {
  app.post(
    '/api/auth/login',
    {
      config: { public: true },
      schema: {
        tags: ['Authentication'],
        summary: 'Sign in',
        description:
          'Creates a session and answers an access and a refresh token. Unknown e-mail, wrong password and a disabled account give the same 401. ' +
          'Failed attempts are limited per account and all attempts per client address (429 with Retry-After). Directory (LDAP) users sign in with their directory password. ' +
          'An account created with a generated password signs in as usual, but must then choose its own (PUT /api/self/password) before anything else: other operations answer 403 PASSWORD_CHANGE_REQUIRED.',
        security: [],
        body: LoginBody,
        response: { 200: TokenPairSchema, ...problemResponses(429) },
      },
    },
    async (request) =>
      toTokenPairDto(
        await auth.login({
          email: request.body.email,
          password: request.body.password,
          userAgent: headerText(request, 'user-agent'),
          clientAddress: request.ip,
        }),
      ),
  );

  app.post(
    '/api/auth/refresh',
    {
      config: { public: true },
      schema: {
        tags: ['Authentication'],
        summary: 'Trade a refresh token for a new token pair',
        description:
          'Rotation: the refresh token presented stops working. Presenting a token that was already traded revokes the whole session (theft detection), ' +
          'so a client must not refresh twice in parallel with one token.',
        security: [],
        body: RefreshBody,
        response: { 200: TokenPairSchema, ...problemResponses() },
      },
    },
    async (request) => toTokenPairDto(await auth.refresh(request.body.refreshToken)),
  );

  app.post(
    '/api/auth/logout',
    {
      config: { allowedBeforePasswordChange: true },
      schema: {
        tags: ['Authentication'],
        summary: 'Sign out',
        description: `Revokes the caller's session: its access and refresh tokens are refused from then on. ${OPEN_BEFORE_PASSWORD_CHANGE}`,
        response: { 204: { type: 'null', description: 'Signed out.' }, ...problemResponses() },
      },
    },
    async (request, reply) => {
      await auth.logout(request.caller.sessionId);
      return reply.code(204).send();
    },
  );
};
