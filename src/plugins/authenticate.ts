import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../shared/errors.js';
import { problemResponses } from '../shared/schemas.js';
import type { Authenticator, Caller } from '../identity/caller.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Reachable without a token (sign-in, refresh, health, docs). */
    public?: boolean;
    /** Only callers of this role; everyone else gets 403. */
    role?: 'ADMIN';
    /** Open to a caller who must still replace a generated password (everything else: 403 PASSWORD_CHANGE_REQUIRED). */
    allowedBeforePasswordChange?: boolean;
  }
  interface FastifyRequest {
    caller: Caller;
  }
}

const BEARER = /^Bearer\s+([A-Za-z0-9\-_.~+/]+=*)\s*$/i;

/**
 * Every route needs a valid access token unless it is marked `config.public`; the check runs in
 * onRequest, before the body is even validated, so unauthenticated callers learn nothing. A caller
 * whose account still has a generated password reaches only the routes marked
 * `allowedBeforePasswordChange` (read from the row authentication loads anyway: no extra query).
 */
export default fp(
  async function authenticatePlugin(app: FastifyInstance, options: { auth: Authenticator }) {
    app.decorateRequest('caller', null as unknown as Caller);
    // Every route the gate applies to documents its 403, and an admin-only route (config.role) says
    // so in its summary: routes state "admin" once, in their config (routes registered after this plugin).
    const forbidden = problemResponses(403)[403];
    app.addHook('onRoute', (route) => {
      const response = route.schema?.response as Record<string, unknown> | undefined;
      if (route.config?.role === 'ADMIN' && route.schema?.summary !== undefined) route.schema = { ...route.schema, summary: `${route.schema.summary} (admin)` };
      if (route.config?.public || route.config?.allowedBeforePasswordChange || !response || response[403]) return;
      route.schema = { ...route.schema, response: { ...response, 403: forbidden } };
    });
    app.addHook('onRequest', async (request: FastifyRequest) => {
      const config = request.routeOptions.config;
      // Unknown routes (404 handler) and public routes pass.
      if (request.routeOptions.url === undefined || config.public) return;
      const header = request.headers.authorization;
      if (!header) throw new AppError('UNAUTHENTICATED', 'Send an Authorization: Bearer <access token> header');
      const match = BEARER.exec(header);
      if (!match) throw new AppError('INVALID_TOKEN', 'The Authorization header must be Bearer <access token>');
      const caller = await options.auth.authenticate(match[1]!);
      request.caller = caller;
      if (caller.user.mustChangePassword && !config.allowedBeforePasswordChange) {
        throw new AppError('PASSWORD_CHANGE_REQUIRED', 'This account still has a generated password: choose your own with PUT /api/self/password first');
      }
      if (config.role && request.caller.user.role !== config.role) {
        throw new AppError('FORBIDDEN', `This operation needs the ${config.role} role`);
      }
    });
  },
  { name: 'authenticate' },
);
