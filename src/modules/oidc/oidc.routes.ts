import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { headerText } from '../../plugins/encoding.js';
import { AppError } from '../../shared/errors.js';
import { IdParams, NoContent, problemResponses } from '../../shared/schemas.js';
import { TokenPairSchema, WebSessionSchema } from '../auth/auth.schemas.js';
import { requireCsrfHeader, sendWebSession, WEB_SESSION_NOTE } from '../auth/web-session.js';
import type { TokenPair } from '../../identity/sessions.js';
import { CallbackQuery, ExchangeBody, LinkBody, OidcIdentity, OidcStatus } from './oidc.schemas.js';
import { CODE_TTL_MS, FLOW_TTL_MS, type OidcService } from './oidc.service.js';

export const OIDC_COOKIE = 'deskbook_oidc';
const COOKIE_PATH = '/api/auth/oidc';
/** The web app's page that finishes a single sign-on (web/src/features/auth/SsoReturnPage.tsx). */
export const RETURN_PATH = '/sign-in/sso';

const redirect = { type: 'null', description: 'See Other: the Location header says where the browser goes next.' } as const;

function cookieOf(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie;
  if (typeof header !== 'string') return undefined;
  for (const part of header.split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === OIDC_COOKIE) return value.join('=') || undefined;
  }
  return undefined;
}

/** A browser navigating (Accept: text/html) is sent to the web app with the error code; API clients get problem+json. */
const wantsPage = (request: FastifyRequest) => /\btext\/html\b/.test(String(request.headers.accept ?? ''));

interface OidcRouteOptions {
  oidc?: OidcService;
  publicUrl: string;
  /** Turns a fresh token pair into the browser's session (auth's refresh in cookie mode, docs/sessions.md). */
  webSession: (refreshToken: string) => Promise<TokenPair>;
}

export const oidcRoutes: FastifyPluginAsyncTypebox<OidcRouteOptions> = async (app, { oidc, publicUrl, webSession }) => {
  const base = publicUrl.replace(/\/+$/, '');
  const secure = base.startsWith('https:');
  const cookie = (value: string, maxAgeSeconds: number) =>
    `${OIDC_COOKIE}=${value}; Path=${COOKIE_PATH}; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
  const configured = (): OidcService => {
    if (!oidc) throw new AppError('OIDC_DISABLED');
    return oidc;
  };
  const toWebApp = (reply: FastifyReply, fragment: Record<string, string>) =>
    reply
      .code(303)
      .header('location', `${base}${RETURN_PATH}#${new URLSearchParams(fragment).toString()}`)
      .send();
  const orErrorPage = async (request: FastifyRequest, reply: FastifyReply, work: () => Promise<FastifyReply>) => {
    try {
      return await work();
    } catch (error) {
      if (error instanceof AppError && wantsPage(request)) {
        request.log.info({ code: error.code }, 'single sign-on failed');
        return toWebApp(reply, { error: error.code, ...(error.extras.subject !== undefined ? { subject: error.extras.subject } : {}) });
      }
      throw error;
    }
  };

  app.get(
    '/api/auth/oidc',
    {
      config: { public: true },
      schema: {
        tags: ['Authentication'],
        summary: 'Whether single sign-on is on',
        description: 'Public: the web app shows "Sign in with …" when enabled.',
        security: [],
        response: { 200: OidcStatus, ...problemResponses() },
      },
    },
    async () => ({ enabled: oidc !== undefined, displayName: oidc?.displayName ?? null, startUrl: oidc ? `${COOKIE_PATH}/start` : null }),
  );

  app.get(
    '/api/auth/oidc/start',
    {
      config: { public: true },
      schema: {
        tags: ['Authentication'],
        summary: 'Start single sign-on (browser navigation)',
        description:
          'Redirects the browser to the identity provider (authorization code flow with PKCE, state and nonce, kept for 10 minutes in an encrypted HttpOnly cookie of this browser; nothing is stored). ' +
          'Counts as a sign-in attempt of the client address (429). A provider that does not answer within OIDC_TIMEOUT: 503. ' +
          'A browser (Accept: text/html) is sent to the web app with the error code instead of problem+json.',
        security: [],
        response: { 303: redirect, ...problemResponses(404, 429, 503) },
      },
    },
    async (request, reply) =>
      orErrorPage(request, reply, async () => {
        const { location, cookie: flow } = await configured().start(request.ip);
        return reply
          .code(303)
          .header('set-cookie', cookie(flow, FLOW_TTL_MS / 1000))
          .header('cache-control', 'no-store')
          .header('location', location.href)
          .send();
      }),
  );

  app.get(
    '/api/auth/oidc/callback',
    {
      config: { public: true },
      schema: {
        tags: ['Authentication'],
        summary: 'Return from the identity provider (browser navigation)',
        description:
          'The redirect URL to register at the provider (PUBLIC_URL + /api/auth/oidc/callback). Checks state (once, from the browser that started), redeems the code with the PKCE verifier, ' +
          'verifies the ID token (signature from the provider keys, issuer, audience, expiry, nonce), finds or links the user, and redirects to the web app ' +
          `(${RETURN_PATH}#code=…) with a one-time code to POST to /api/auth/oidc/exchange: tokens never travel in a URL. ` +
          'Errors: a browser is sent to the web app with #error=<code>; other clients get problem+json.',
        security: [],
        querystring: CallbackQuery,
        response: { 303: redirect, ...problemResponses(400, 401, 403, 404, 503) },
      },
    },
    async (request, reply) =>
      orErrorPage(request, reply, async () => {
        const service = configured();
        const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
        const { code, binding } = await service.callback(new URL(`${base}${COOKIE_PATH}/callback${query}`), cookieOf(request));
        return toWebApp(reply.header('cache-control', 'no-store').header('set-cookie', cookie(binding, CODE_TTL_MS / 1000)), { code });
      }),
  );

  app.post(
    '/api/auth/oidc/exchange',
    {
      config: { public: true },
      schema: {
        tags: ['Authentication'],
        summary: 'Trade the one-time code of single sign-on for a token pair',
        description:
          'Once, within 60 s, from the browser that signed in (its cookie): the same token pair and session as a password sign-in. A disabled account: 403 OIDC_ACCOUNT_DISABLED.',
        security: [],
        body: ExchangeBody,
        response: { 200: TokenPairSchema, ...problemResponses(400, 403, 404) },
      },
    },
    async (request, reply) => {
      const pair = await configured().exchange(request.body.code, cookieOf(request), headerText(request, 'user-agent'));
      reply.header('set-cookie', cookie('', 0));
      return { ...pair, expiresAt: pair.expiresAt.toISOString(), refreshExpiresAt: pair.refreshExpiresAt.toISOString() };
    },
  );

  app.post(
    '/api/auth/oidc/web-session',
    {
      config: { public: true },
      schema: {
        tags: ['Authentication'],
        summary: 'Trade the one-time code of single sign-on for the browser session',
        description:
          'Like POST /api/auth/oidc/exchange, but signs the browser in as POST /api/auth/web-session does: the refresh token is set as the session cookie, never answered. ' +
          WEB_SESSION_NOTE,
        security: [],
        body: ExchangeBody,
        response: { 200: WebSessionSchema, ...problemResponses(400, 403, 404) },
      },
    },
    async (request, reply) => {
      requireCsrfHeader(request);
      const pair = await configured().exchange(request.body.code, cookieOf(request), headerText(request, 'user-agent'));
      // The fresh pair is rotated at once in cookie mode: its token never leaves the server, and the session gets the browser's lifetime.
      const session = await webSession(pair.refreshToken);
      reply.header('set-cookie', cookie('', 0));
      return sendWebSession(reply, session, secure);
    },
  );

  const identityView = (view: Awaited<ReturnType<OidcService['identityOf']>>) => ({ ...view, linkedAt: view.linkedAt?.toISOString() ?? null });

  app.get(
    '/api/users/:id/oidc-identity',
    {
      schema: {
        tags: ['User'],
        summary: 'Single sign-on link of a user',
        description: 'Whether the user is linked to an identity at the configured provider. The user themself or an ADMIN.',
        params: IdParams,
        response: { 200: OidcIdentity, ...problemResponses(403, 404) },
      },
    },
    async (request) => identityView(await configured().identityOf(request.caller, request.params.id)),
  );

  app.put(
    '/api/users/:id/oidc-identity',
    {
      config: { role: 'ADMIN' },
      schema: {
        tags: ['User'],
        summary: 'Link a user to a provider identity',
        description:
          "Links the user to the provider's `sub`, also an account that signs in by password or directory (which then may use either). 409 OIDC_ALREADY_LINKED when the identity or the user is linked already.",
        params: IdParams,
        body: LinkBody,
        response: { 200: OidcIdentity, ...problemResponses(403, 404, 409) },
      },
    },
    async (request) => identityView(await configured().link(request.params.id, request.body.subject)),
  );

  app.delete(
    '/api/users/:id/oidc-identity',
    {
      config: { role: 'ADMIN' },
      schema: {
        tags: ['User'],
        summary: 'Unlink a user from the provider',
        description: 'The identity no longer signs in as this user; its next sign-in is linked again only by the rules of a first sign-in. Sessions are kept.',
        params: IdParams,
        response: { 204: NoContent, ...problemResponses(403, 404) },
      },
    },
    async (request, reply) => {
      await configured().unlink(request.params.id);
      return reply.code(204).send();
    },
  );
};
