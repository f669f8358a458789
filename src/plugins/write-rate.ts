import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { isAdmin } from '../identity/caller.js';
import { AppError } from '../shared/errors.js';
import { document429, withHook } from './route-hooks.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Writes a person's reservations (each also queues an invitation mail and a feed change): limited per user, see plugins/write-rate.ts. */
    writesReservations?: boolean;
  }
}

const WINDOW_MS = 60_000;

/**
 * At most `perMinute` reservation writes of one USER per minute in this process (a fixed window
 * per user, starting with their first write); more answer 429 TOO_MANY_WRITES with Retry-After
 * until the window ends (docs/behaviour.md#costly-operations). Admins are not limited: they book
 * for others and import. Applies to the routes marked `config: { writesReservations: true }` (register
 * this plugin before the routes and the OpenAPI plugin); checked in preHandler, after
 * authentication and validation.
 */
export default fp(
  async function writeRatePlugin(app: FastifyInstance, options: { perMinute: number }) {
    const windows = new Map<string, { start: number; writes: number }>();
    let swept = Date.now();

    const check = async (request: FastifyRequest) => {
      const caller = request.caller;
      if (isAdmin(caller)) return;
      const at = Date.now();
      if (at - swept > WINDOW_MS) {
        for (const [userId, window] of windows) if (at - window.start >= WINDOW_MS) windows.delete(userId);
        swept = at;
      }
      let window = windows.get(caller.user.id);
      if (window === undefined || at - window.start >= WINDOW_MS) {
        window = { start: at, writes: 0 };
        windows.set(caller.user.id, window);
      }
      if (window.writes >= options.perMinute) {
        const retryAfter = Math.max(1, Math.ceil((window.start + WINDOW_MS - at) / 1000));
        throw new AppError('TOO_MANY_WRITES', `At most ${options.perMinute} reservation changes a minute; retry in ${retryAfter} s`, { retryAfter });
      }
      window.writes++;
    };

    app.addHook('onRoute', (route) => {
      if (!route.config?.writesReservations) return;
      route.preHandler = withHook(route.preHandler, check) as typeof route.preHandler;
      document429(route);
    });
  },
  { name: 'write-rate', dependencies: ['authenticate'] },
);
