import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { logPath } from '../logging.js';

/**
 * One log line per request, written when the response is sent (Fastify's default writes two,
 * which costs a large share of throughput), and the request id echoed in x-request-id.
 */
export default fp(
  async function requestLogPlugin(app: FastifyInstance, options: { enabled: boolean }) {
    app.addHook('onRequest', async (request, reply) => {
      reply.header('x-request-id', request.id);
    });
    if (!options.enabled) return;
    app.addHook('onResponse', async (request, reply) => {
      request.log.info(
        { method: request.method, path: logPath(request.url), status: reply.statusCode, ms: Math.round(reply.elapsedTime * 10) / 10 },
        'request completed',
      );
    });
  },
  { name: 'request-log' },
);
