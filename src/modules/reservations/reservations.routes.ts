import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ReservationsService } from './reservations.service.js';

// Placeholder: being written.
export const reservationsRoutes: FastifyPluginAsyncTypebox<{ reservations: ReservationsService }> = async () => {};
