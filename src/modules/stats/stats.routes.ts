import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { StatsService } from './stats.service.js';

// Placeholder: being written.
export const statsRoutes: FastifyPluginAsyncTypebox<{ stats: StatsService }> = async () => {};
