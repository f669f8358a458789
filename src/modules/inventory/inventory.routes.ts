import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { InventoryService } from './inventory.service.js';

// Placeholder: being written.
export const inventoryRoutes: FastifyPluginAsyncTypebox<{ inventory: InventoryService }> = async () => {};
