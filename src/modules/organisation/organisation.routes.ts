import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { problemResponses } from '../../shared/schemas.js';
import { OrganisationSettings, PatchOrganisationSettingsBody } from './organisation.schemas.js';
import type { OrganisationService } from './organisation.service.js';

const TAGS = ['Organisation'];

/** The organisation's settings (docs/people.md#the-organisations-settings). */
export const organisationRoutes: FastifyPluginAsyncTypebox<{ organisation: OrganisationService }> = async (app, { organisation }) => {
  app.get(
    '/api/organisation/settings',
    {
      schema: {
        tags: TAGS,
        summary: "The organisation's settings",
        description:
          'Every signed-in user may read them, so that the web app can say what colleagues see. The defaults are the most private: nameVisibility nobody, worksCouncilMode true (docs/people.md#the-organisations-settings).',
        response: { 200: OrganisationSettings, ...problemResponses() },
      },
    },
    async () => organisation.get(),
  );

  app.patch(
    '/api/organisation/settings',
    {
      config: { role: 'ADMIN' },
      schema: {
        tags: TAGS,
        summary: "Change the organisation's settings",
        description:
          'Admins only (403 otherwise). Members left out keep their value; an unknown member is 400. Applies to the next request of every view (docs/people.md#what-is-shown-to-whom).',
        body: PatchOrganisationSettingsBody,
        response: { 200: OrganisationSettings, ...problemResponses(403) },
      },
    },
    async (request) => organisation.change(request.body),
  );
};
