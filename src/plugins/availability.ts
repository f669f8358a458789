import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { databaseUnavailable, type DatabaseAvailability } from '../db/availability.js';
import { sendProblem } from './problem.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Answers without the database (liveness, readiness, docs, the web app's files): not refused during an outage. */
    offline?: boolean;
  }
}

/**
 * While the breaker is open (db/availability.ts) a request that needs the database answers 503
 * before anything else runs, the token check included. Register before `authenticate`. The
 * answer is sent here, not thrown: an outage must not write one error log line per request.
 */
export default fp(
  async function availabilityPlugin(app: FastifyInstance, options: { availability: DatabaseAvailability }) {
    app.addHook('onRequest', async (request, reply) => {
      if (options.availability.available || request.routeOptions.url === undefined || request.routeOptions.config.offline) return;
      return sendProblem(request, reply, databaseUnavailable());
    });
  },
  { name: 'availability' },
);
