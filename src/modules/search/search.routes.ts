import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { SearchService } from './search.service.js';

// Placeholder: being written.
export const searchRoutes: FastifyPluginAsyncTypebox<{ search: SearchService }> = async () => {};
