import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { NoContent, problemResponses } from '../../shared/schemas.js';
import { IMAGE_RESPONSE, imageUploads, NOT_MODIFIED_RESPONSE, readUpload, sendImage, UPLOAD_NOTE } from '../../infrastructure/images/images.js';
import { Department, DepartmentParams } from '../inventory/inventory.schemas.js';
import { DEPARTMENT_IMAGE_MAX_SIDE, type DepartmentImagesService } from './department-images.service.js';

const NOT_FOUND_NOTE = '404 when the department is unknown or has no image (the detail says which).';

export const departmentImagesRoutes: FastifyPluginAsyncTypebox<{ images: DepartmentImagesService; maxUploadBytes: number }> = async (
  app,
  { images, maxUploadBytes },
) => {
  // Image and multipart bodies are accepted here only; elsewhere they stay 415.
  await app.register(imageUploads, { maxBytes: maxUploadBytes, svg: true });

  app.get(
    '/api/departments/:departmentId/image',
    {
      schema: {
        tags: ['Department Image'],
        summary: "A department's image",
        description: `Any signed-in user. ${NOT_FOUND_NOTE}`,
        params: DepartmentParams,
        response: { 200: IMAGE_RESPONSE, 304: NOT_MODIFIED_RESPONSE, ...problemResponses(404) },
      },
    },
    async (request, reply) => sendImage(request, reply, await images.get(request.params.departmentId)),
  );

  app.put(
    '/api/departments/:departmentId/image',
    {
      config: { role: 'ADMIN', expensive: true },
      schema: {
        tags: ['Department Image'],
        summary: 'Set or replace a department image',
        description:
          `${UPLOAD_NOTE} Images larger than ${DEPARTMENT_IMAGE_MAX_SIDE}×${DEPARTMENT_IMAGE_MAX_SIDE} are shrunk to fit inside it, keeping their aspect; smaller ones are not enlarged. ` +
          `An SVG (a floor plan drawing; raw body image/svg+xml or a multipart file) is drawn as a PNG whose longer side is ${DEPARTMENT_IMAGE_MAX_SIDE} (within IMAGE_MAX_PIXELS) and kept as that PNG: ` +
          'no script, link or text of it survives; one that declares XML entities is 400. ' +
          'Answers the Department; its modification time is updated. An unknown department is 404 before the image is decoded.',
        params: DepartmentParams,
        response: { 200: Department, ...problemResponses(404, 413, 415) },
      },
    },
    async (request) => images.put(request.params.departmentId, await readUpload(request)),
  );

  app.delete(
    '/api/departments/:departmentId/image',
    {
      config: { role: 'ADMIN' },
      schema: {
        tags: ['Department Image'],
        summary: 'Remove a department image',
        description: `Answers 204; the department's modification time is updated. ${NOT_FOUND_NOTE} Deleting the department removes its image too.`,
        params: DepartmentParams,
        response: { 204: NoContent, ...problemResponses(404) },
      },
    },
    async (request, reply) => {
      await images.remove(request.params.departmentId);
      return reply.code(204).send();
    },
  );
};
