import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { isAdmin } from '../identity/caller.js';
import { AppError } from '../shared/errors.js';
import { problemResponses } from '../shared/schemas.js';

/** The operations that write a person's reservations (each also queues an invitation mail and a feed change). */
export const RESERVATION_WRITE_ROUTES = new Set([
  'POST /api/reservation',
  'PUT /api/reservation/:id',
  'DELETE /api/reservation/:id',
  'POST /api/reservation/series',
  'DELETE /api/reservation/series/:id',
  'POST /api/reservation/:id/check-in',
  'POST /api/desks/:deskId/walk-in',
]);

const WINDOW_MS = 60_000;

/**
 * At most `perMinute` reservation writes of one USER per minute in this process (a fixed window
 * per user, starting with their first write); more answer 429 TOO_MANY_WRITES with Retry-After
 * until the window ends (docs/behaviour.md#costly-operations). Admins are not limited: they book
 * for others and import. Checked in preHandler, after authentication and validation.
 */
export default fp(
  async function writeRatePlugin(app: FastifyInstance, options: { perMinute: number; now?: () => number }) {
    const now = options.now ?? Date.now;
    const windows = new Map<string, { start: number; writes: number }>();
    let swept = now();

    const check = async (request: FastifyRequest) => {
      const caller = request.caller;
      if (isAdmin(caller)) return;
      const at = now();
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
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      if (!methods.some((method) => RESERVATION_WRITE_ROUTES.has(`${method} ${route.url}`))) return;
      const existing = route.preHandler;
      route.preHandler = [...(existing === undefined ? [] : Array.isArray(existing) ? existing : [existing]), check] as typeof route.preHandler;
      const response = route.schema?.response as Record<string, unknown> | undefined;
      if (response && !(429 in response)) response[429] = problemResponses(429)[429];
    });
  },
  { name: 'write-rate', dependencies: ['authenticate'] },
);
