import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../shared/errors.js';
import { document429, withHook } from './route-hooks.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Costly for the service (searches, statistics, image decoding): limited per user, see plugins/expensive.ts. */
    expensive?: boolean;
  }
}

/** What a refused caller is told to wait: a slot frees up as soon as one of their requests ends. */
const RETRY_AFTER_SECONDS = 1;

/**
 * At most `perUser` requests of one user to routes marked `config: { expensive: true }` run at
 * once in this process; more answer 429 TOO_MANY_CONCURRENT_REQUESTS with Retry-After. So one
 * user cannot make the service spend more than that many searches', statistics' or image
 * decodings' worth of work at a time (docs/behaviour.md, Costly operations).
 *
 * The slot is taken in preParsing (after authentication, before an upload body is read) and given
 * back in onSend, when the handler or the error handler has produced the answer, or at the latest in
 * onResponse. A client that goes away does not free it early: the work it started still runs, and
 * the answer Fastify then tries to send passes through onSend all the same.
 */

export default fp(
  async function expensivePlugin(app: FastifyInstance, options: { perUser: number }) {
    const running = new Map<string, number>();
    const holders = new WeakMap<FastifyRequest, string>();

    const take = async (request: FastifyRequest) => {
      const userId = request.caller.user.id;
      const count = running.get(userId) ?? 0;
      if (count >= options.perUser) {
        throw new AppError(
          'TOO_MANY_CONCURRENT_REQUESTS',
          `At most ${options.perUser} searches, statistics or image uploads of one user run at once; retry when one has finished`,
          {
            retryAfter: RETRY_AFTER_SECONDS,
          },
        );
      }
      running.set(userId, count + 1);
      holders.set(request, userId);
    };
    const release = async (request: FastifyRequest) => {
      const userId = holders.get(request);
      if (userId === undefined) return;
      holders.delete(request);
      const count = (running.get(userId) ?? 1) - 1;
      if (count > 0) running.set(userId, count);
      else running.delete(userId);
    };
    const releaseOnSend = async (request: FastifyRequest, _reply: unknown, payload: unknown) => {
      await release(request);
      return payload;
    };

    // Only marked routes get the hooks (and document their 429); register this plugin before the
    // routes and the OpenAPI plugin. Route hooks run after the application's own (authentication).
    app.addHook('onRoute', (route) => {
      if (!route.config?.expensive) return;
      route.preParsing = withHook(route.preParsing, take) as typeof route.preParsing;
      route.onSend = withHook(route.onSend, releaseOnSend) as typeof route.onSend;
      route.onResponse = withHook(route.onResponse, release) as typeof route.onResponse;
      document429(route);
    });
  },
  { name: 'expensive', dependencies: ['authenticate'] },
);
