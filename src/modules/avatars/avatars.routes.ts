import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { IdParams, NoContent, problemResponses } from '../../shared/schemas.js';
import { IMAGE_RESPONSE, imageUploads, NOT_MODIFIED_RESPONSE, readUpload, sendImage, UPLOAD_NOTE } from '../../infrastructure/images/images.js';
import { User } from '../users/users.schemas.js';
import { AVATAR_SIDE, type AvatarsService } from './avatars.service.js';

export const avatarsRoutes: FastifyPluginAsyncTypebox<{ avatars: AvatarsService; maxUploadBytes: number }> = async (app, { avatars, maxUploadBytes }) => {
  // Image and multipart bodies are accepted here only; elsewhere they stay 415.
  await app.register(imageUploads, { maxBytes: maxUploadBytes });

  app.get(
    '/api/users/:id/avatar',
    {
      schema: {
        tags: ['User Avatar'],
        summary: "A user's avatar",
        params: IdParams,
        response: { 200: IMAGE_RESPONSE, 304: NOT_MODIFIED_RESPONSE, ...problemResponses(404) },
      },
    },
    async (request, reply) => sendImage(request, reply, await avatars.get(request.params.id)),
  );

  app.put(
    '/api/users/:id/avatar',
    {
      config: { expensive: true },
      schema: {
        tags: ['User Avatar'],
        summary: 'Set an avatar (own, or any as admin)',
        description: `${UPLOAD_NOTE} Avatars have at most AVATAR_MAX_PIXELS (default 16 megapixels; 413 above) and are cropped to a ${AVATAR_SIDE}×${AVATAR_SIDE} square. Answers the User, whose hasAvatar is then true.`,
        params: IdParams,
        response: { 200: User, ...problemResponses(403, 404, 413, 415) },
      },
    },
    async (request) => avatars.put(request.caller, request.params.id, await readUpload(request)),
  );

  app.delete(
    '/api/users/:id/avatar',
    {
      schema: {
        tags: ['User Avatar'],
        summary: 'Remove an avatar (own, or any as admin)',
        params: IdParams,
        response: { 204: NoContent, ...problemResponses(403, 404) },
      },
    },
    async (request, reply) => {
      await avatars.remove(request.caller, request.params.id);
      return reply.code(204).send();
    },
  );
};
