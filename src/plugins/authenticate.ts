import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../shared/errors.js';
import type { AuthService } from '../modules/auth/auth.service.js';
import type { Caller } from '../modules/users/users.service.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Reachable without a token (sign-in, refresh, health, docs). */
    public?: boolean;
    /** Only callers of this role; everyone else gets 403. */
    role?: 'ADMIN';
    /** Read the statistics change count with the session (GET /api/stats: one statement instead of two). */
    statsChanges?: boolean;
  }
  interface FastifyRequest {
    caller: Caller;
    /** With config.statsChanges: the statistics change count, read after the request began. */
    statsChanges?: bigint;
  }
}

const BEARER = /^Bearer\s+([A-Za-z0-9\-_.~+/]+=*)\s*$/i;

/**
 * Every route needs a valid access token unless it is marked `config.public`; the check runs in
 * onRequest, before the body is even validated, so unauthenticated callers learn nothing.
 */
export default fp(
  async function authenticatePlugin(app: FastifyInstance, options: { auth: AuthService }) {
    app.decorateRequest('caller', null as unknown as Caller);
    app.decorateRequest('statsChanges', undefined);
    app.addHook('onRequest', async (request: FastifyRequest) => {
      const config = request.routeOptions.config;
      // Unknown routes (404 handler) and public routes pass.
      if (request.routeOptions.url === undefined || config.public) return;
      const header = request.headers.authorization;
      if (!header) throw new AppError('UNAUTHENTICATED', 'Send an Authorization: Bearer <access token> header');
      const match = BEARER.exec(header);
      if (!match) throw new AppError('INVALID_TOKEN', 'The Authorization header must be Bearer <access token>');
      const { caller, statsChanges } = await options.auth.authenticate(match[1]!, config.statsChanges === true);
      request.caller = caller;
      request.statsChanges = statsChanges;
      if (config.role && request.caller.user.role !== config.role) {
        throw new AppError('FORBIDDEN', `This operation needs the ${config.role} role`);
      }
    });
  },
  { name: 'authenticate' },
);
