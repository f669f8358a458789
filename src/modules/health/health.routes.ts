import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { databaseUnavailable, type DatabaseBreaker } from '../../infrastructure/database-gate/breaker.js';
import { problemResponses } from '../../shared/schemas.js';

/** How long readiness waits for the database before answering 503. */
export const READINESS_TIMEOUT_MS = 1000;

export interface HealthOptions {
  breaker: DatabaseBreaker;
  /** True once SIGTERM arrived: the balancer is told to send no more (docs/deployment.md#rolling-restarts). */
  stopping: () => boolean;
}

export const healthRoutes: FastifyPluginAsyncTypebox<HealthOptions> = async (app, { breaker, stopping }) => {
  app.get(
    '/api/health',
    {
      config: { public: true, offline: true },
      schema: {
        tags: ['Health'],
        summary: 'Liveness',
        description: '200 while the process serves HTTP; it does not ask the database (see /api/health/ready). No authentication.',
        security: [],
        response: { 200: Type.Object({ status: Type.Literal('ok') }), ...problemResponses() },
      },
    },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/api/health/ready',
    {
      config: { public: true, offline: true },
      schema: {
        tags: ['Health'],
        summary: 'Readiness',
        description: `200 when the database answers within ${READINESS_TIMEOUT_MS / 1000} s; 503 SERVICE_UNAVAILABLE (with Retry-After) otherwise, and from the moment the process received SIGTERM (it still serves what reaches it while it drains). No authentication.`,
        security: [],
        response: { 200: Type.Object({ status: Type.Literal('ready') }), ...problemResponses(503) },
      },
    },
    async () => {
      if (stopping()) throw databaseUnavailable('This process is stopping; another one serves');
      if (!(await breaker.check(READINESS_TIMEOUT_MS))) throw databaseUnavailable('The database does not answer');
      return { status: 'ready' as const };
    },
  );
};
