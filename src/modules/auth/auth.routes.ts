import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { headerText } from '../../plugins/encoding.js';
import { problemResponses } from '../../shared/schemas.js';
import { OPEN_BEFORE_PASSWORD_CHANGE } from '../../identity/caller.js';
import { toTokenPairDto } from './auth.mappers.js';
import type { AuthService } from './auth.service.js';
import { LoginBody, RefreshBody, TokenPairSchema, WebSessionSchema } from './auth.schemas.js';
import {
  clearWebSession,
  requireCsrfHeader,
  sendWebSession,
  WEB_REFRESH_GRACE_MS,
  WEB_SESSION_NOTE,
  WEB_SESSION_PATH,
  webSessionCookieOf,
} from './web-session.js';
import { AppError } from '../../shared/errors.js';

export const authRoutes: FastifyPluginAsyncTypebox<{ auth: AuthService; secureCookies: boolean }> = async (app, { auth, secureCookies }) => {
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

  app.post(
    WEB_SESSION_PATH,
    {
      config: { public: true },
      schema: {
        tags: ['Authentication'],
        summary: 'Sign in the browser',
        description:
          'Like POST /api/auth/login (same checks, limits and 401), but the refresh token is set as a cookie instead of answered, and the session ends WEB_SESSION_IDLE_TTL after its last refresh. ' +
          'Every tab of the browser shares this one session. ' +
          WEB_SESSION_NOTE,
        security: [],
        body: LoginBody,
        response: { 200: WebSessionSchema, ...problemResponses(403, 429) },
      },
    },
    async (request, reply) => {
      requireCsrfHeader(request);
      const pair = await auth.login(
        { email: request.body.email, password: request.body.password, userAgent: headerText(request, 'user-agent'), clientAddress: request.ip },
        auth.webMode(WEB_REFRESH_GRACE_MS),
      );
      return sendWebSession(reply, pair, secureCookies);
    },
  );

  app.post(
    `${WEB_SESSION_PATH}/refresh`,
    {
      config: { public: true },
      schema: {
        tags: ['Authentication'],
        summary: "Renew the browser's access token",
        description:
          'Reads the refresh token of the cookie, rotates it (the cookie is replaced) and answers a new access token. ' +
          'Tabs that refresh at the same moment do not end the session: a token rotated less than 10 s before still gets the current one; an older one revokes the session as on /api/auth/refresh. ' +
          'No cookie: 401. A cookie that is refused: 401 and the cookie is cleared. ' +
          WEB_SESSION_NOTE,
        security: [],
        response: { 200: WebSessionSchema, ...problemResponses(403) },
      },
    },
    async (request, reply) => {
      requireCsrfHeader(request);
      const token = webSessionCookieOf(request);
      try {
        if (token === undefined) throw new AppError('INVALID_REFRESH_TOKEN');
        return sendWebSession(reply, await auth.refresh(token, auth.webMode(WEB_REFRESH_GRACE_MS)), secureCookies);
      } catch (error) {
        // A cookie refused is cleared; none sent, none cleared (a sign-in racing this answer keeps its new one).
        if (token !== undefined && error instanceof AppError && error.status === 401) clearWebSession(reply, secureCookies);
        throw error;
      }
    },
  );

  app.delete(
    WEB_SESSION_PATH,
    {
      config: { public: true },
      schema: {
        tags: ['Authentication'],
        summary: 'Sign the browser out',
        description:
          'Ends the session of the cookie (every tab of the browser is signed out) and clears the cookie. Answers 204 also when there was no cookie or its session had already ended. ' +
          WEB_SESSION_NOTE,
        security: [],
        response: { 204: { type: 'null', description: 'Signed out; the cookie is cleared.' }, ...problemResponses(403) },
      },
    },
    async (request, reply) => {
      requireCsrfHeader(request);
      await auth.logoutWithRefreshToken(webSessionCookieOf(request));
      return clearWebSession(reply, secureCookies).code(204).send();
    },
  );
};
