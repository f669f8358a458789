import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';

const DOCUMENTATION = /^\/api\/(docs(\/|$|\?)|openapi\.json)/;

/**
 * Headers every API answer carries (docs/behaviour.md, HTTP), set before the route runs so that
 * errors and 404s have them too: `nosniff`, and `no-store` because answers hold tokens and
 * people's data. A route that sets its own Cache-Control (images: private, revalidated) keeps it;
 * the documentation pages may be cached.
 */
export function setApiHeaders(url: string, reply: FastifyReply): void {
  if (url !== '/api' && !url.startsWith('/api/') && !url.startsWith('/api?')) return;
  reply.header('x-content-type-options', 'nosniff');
  if (!DOCUMENTATION.test(url)) reply.header('cache-control', 'no-store');
}

export default fp(
  async function apiHeadersPlugin(app: FastifyInstance) {
    app.addHook('onRequest', async (request, reply) => setApiHeaders(request.url, reply));
  },
  { name: 'api-headers' },
);
