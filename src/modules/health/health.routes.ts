import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { AppError } from '../../shared/errors.js';
import { problemResponses } from '../../shared/schemas.js';

export const healthRoutes: FastifyPluginAsyncTypebox<{ db: Database }> = async (app, { db }) => {
  app.get(
    '/api/health',
    {
      config: { public: true },
      schema: {
        tags: ['Health'],
        summary: 'Readiness',
        description: '200 once migrations have run and the database answers; 503 otherwise. No authentication.',
        security: [],
        response: { 200: Type.Object({ status: Type.Literal('ok') }), ...problemResponses() },
      },
    },
    async () => {
      try {
        await db.execute(sql`select 1`);
      } catch {
        throw new AppError('SERVICE_UNAVAILABLE', 'The database does not answer');
      }
      return { status: 'ok' as const };
    },
  );
};
