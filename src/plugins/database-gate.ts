import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { databaseUnavailable, type DatabaseBreaker } from '../infrastructure/database-gate/breaker.js';
import { sendProblem } from './problem.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Answers without the database (liveness, readiness, docs, the web app's files): not refused during an outage. */
    offline?: boolean;
  }
}

/** Requests have waited this long with none finishing: the database is probed (DatabaseBreaker.suspect). */
const STALL_MS = 700;
const WATCH_INTERVAL_MS = 100;

/**
 * While the breaker is open (infrastructure/database-gate/breaker.ts) a request that needs the database answers 503
 * before anything else runs, the token check included. Register before `authenticate`. The
 * answer is sent here, not thrown: an outage must not write one error log line per request.
 */
export default fp(
  async function databaseGatePlugin(app: FastifyInstance, options: { breaker: DatabaseBreaker }) {
    const { breaker } = options;
    // The stall watch: requests that need the database in flight, and when one last finished.
    let inFlight = 0;
    let progressAt = 0;
    const counted = new WeakSet<FastifyRequest>();
    app.addHook('onRequest', async (request, reply) => {
      if (request.routeOptions.url === undefined || request.routeOptions.config.offline) return;
      if (!breaker.available) return sendProblem(request, reply, databaseUnavailable());
      if (!breaker.canProbe) return;
      if (inFlight === 0) progressAt = performance.now();
      inFlight += 1;
      counted.add(request);
    });
    const done = async (request: FastifyRequest) => {
      if (!counted.delete(request)) return;
      inFlight -= 1;
      progressAt = performance.now();
    };
    app.addHook('onResponse', done);
    app.addHook('onRequestAbort', done);
    if (breaker.canProbe) {
      const watch = setInterval(() => {
        if (inFlight > 0 && performance.now() - progressAt > STALL_MS) {
          // One probe per stall: the next is due only after another quiet STALL_MS.
          progressAt = performance.now();
          breaker.suspect();
        }
      }, WATCH_INTERVAL_MS);
      watch.unref();
      app.addHook('onClose', async () => clearInterval(watch));
    }
  },
  { name: 'database-gate' },
);
