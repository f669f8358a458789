import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { DepartmentImagesService } from './department-images.service.js';

// Placeholder: being written.
export const departmentImagesRoutes: FastifyPluginAsyncTypebox<{ images: DepartmentImagesService; maxUploadBytes: number }> = async () => {};
