import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ReportsService } from './reports.service.js';

// Placeholder: being written.
export const reportsRoutes: FastifyPluginAsyncTypebox<{ reports: ReportsService }> = async () => {};
