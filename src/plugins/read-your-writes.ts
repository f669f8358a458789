import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { ReadRouting } from '../db/replica.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A POST that writes nothing (search, previews): no write position is recorded after it. */
    readOnly?: boolean;
  }
}

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * With a read replica (docs/deployment.md#with-a-read-replica): after a signed-in caller's
 * request that may have written and succeeded, the primary's WAL position is stored on the
 * caller's user row before the answer leaves, so the caller's next request, in any process, reads
 * the primary until the replica has replayed that far. Without a replica it adds nothing.
 */
export default fp(
  async function readYourWritesPlugin(app: FastifyInstance, options: { reads: ReadRouting }) {
    const { reads } = options;
    if (!reads.replicated) return;
    app.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply) => {
      // The caller decoration is null on public routes and before authentication succeeded.
      const caller = request.caller as FastifyRequest['caller'] | null;
      if (caller === null || READS.has(request.method) || reply.statusCode >= 400 || request.routeOptions.config.readOnly) return;
      try {
        await reads.recordWrite(caller.user.id);
      } catch (error) {
        // The write itself succeeded: answer it. Until the next recorded write the caller may read
        // the replica for up to DATABASE_READ_MAX_LAG behind this one.
        request.log.warn({ err: error }, 'the write position of this request could not be recorded');
      }
    });
  },
  { name: 'read-your-writes', dependencies: ['authenticate'] },
);
