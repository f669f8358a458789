import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { problemResponses } from '../../shared/schemas.js';
import { Preferences, PreferencesBody } from './preferences.schemas.js';
import type { PreferencesService } from './preferences.service.js';

const TAGS = ['Preferences'];

/** The caller's own preferences: the language (docs/i18n.md#choosing-the-language). */
export const preferencesRoutes: FastifyPluginAsyncTypebox<{ preferences: PreferencesService }> = async (app, { preferences }) => {
  app.get(
    '/api/self/preferences',
    {
      schema: {
        tags: TAGS,
        summary: "The caller's preferences",
        description:
          "The caller's chosen language (null when none), the language in effect (the chosen one, else the server's DEFAULT_LANGUAGE) and the languages to choose from. " +
          'The web app, mails and calendar entries for the caller use the language in effect.',
        response: { 200: Preferences, ...problemResponses() },
      },
    },
    async (request) => preferences.get(request.caller),
  );

  app.put(
    '/api/self/preferences',
    {
      schema: {
        tags: TAGS,
        summary: "Change the caller's preferences",
        description:
          "Sets the caller's language; null goes back to the server's default. A language Deskbook does not ship is 400 VALIDATION_FAILED naming `language`.",
        body: PreferencesBody,
        response: { 200: Preferences, ...problemResponses(400) },
      },
    },
    async (request) => preferences.update(request.caller, request.body),
  );
};
