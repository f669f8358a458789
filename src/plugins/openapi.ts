import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { DOCS_THEME, DOCS_UI_CONFIG } from './openapi-theme.js';

const DOCS_PREFIX = '/api/docs';

export const openApiInfo = {
  title: 'Deskbook API',
  version: '0.1.0',
  description:
    'Self-hosted workplace reservation service: departments, rooms, desks, equipment, reservations and defect reports.\n\n' +
    'Every operation needs `Authorization: Bearer <accessToken>` (from POST /api/auth/login) unless marked otherwise. ' +
    'Errors are RFC 9457 problem+json with a stable `code`. List operations page with `page` (0-based), `size` (default 20, max 1000) and `sort=property[,asc|desc]`.',
};

/** @fastify/swagger (document from the route schemas) and Swagger UI at /api/docs. Register before any route. */
export default fp(
  async function openApiPlugin(app: FastifyInstance) {
    // The documentation pages are public, like health and sign-in, and need no database.
    app.addHook('onRoute', (route) => {
      if (route.url.startsWith(DOCS_PREFIX)) route.config = { ...(route.config ?? {}), public: true, offline: true };
    });
    await app.register(swagger, {
      // Shared schemas (app.addSchema) appear under their $id in components.schemas.
      refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
      openapi: {
        openapi: '3.1.0',
        info: openApiInfo,
        servers: [{ url: '/' }],
        components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
        security: [{ bearerAuth: [] }],
        tags: [
          { name: 'Authentication' },
          { name: 'Self' },
          { name: 'Password' },
          { name: 'User' },
          { name: 'Session' },
          { name: 'User Avatar' },
          { name: 'Department' },
          { name: 'Department Image' },
          { name: 'Floor Plan', description: 'Desk positions on the department image, and availability drawn on them (docs/behaviour.md#floor-plans).' },
          { name: 'Room' },
          { name: 'Desk' },
          { name: 'Equipment' },
          { name: 'Reservation' },
          { name: 'Reservation Series' },
          { name: 'Closures', description: 'Closed days and holidays of offices, buildings or everywhere (docs/policies.md#closures-and-holidays).' },
          { name: 'Approvals', description: "Approval requirements, the approvers' inbox and their decisions (docs/policies.md#approvals)." },
          {
            name: 'Favourites',
            description: 'Favourite desks, home office and default window, "Book my usual", free desks near my team (docs/favourites.md).',
          },
          {
            name: 'Notifications',
            description:
              "Push reminders: the server's public key, the caller's browsers (push subscriptions) and switches per event and channel (docs/notifications.md).",
          },
          { name: 'Preferences', description: "The caller's own preferences: the language of the web app, mails and calendar entries (docs/i18n.md)." },
          { name: 'Team', description: 'Teams and their members, from admins, the directory and single sign-on (docs/policies.md#teams).' },
          { name: 'Organisation', description: "The organisation's settings: what colleagues see of each other (docs/people.md)." },
          { name: 'People', description: "Who's in, the week of one's teams, whose desk is whose, lobby displays (docs/people.md)." },
          { name: 'Report' },
          { name: 'Search' },
          { name: 'Stats' },
          { name: 'Attendance', description: 'Check-in, release of no-shows, walk-in, desk QR codes, office settings (docs/behaviour.md#attendance).' },
          { name: 'Health' },
          { name: 'Settings' },
          { name: 'Calendar' },
          { name: 'Outbox', description: 'Admins: the mails the service sends, and the retry of those given up (docs/architecture.md#the-outbox).' },
          {
            name: 'Policies',
            description:
              'Booking policies: areas where teams sit, rules (scope × who × limit), the preview of a booking, the caller’s allowance (docs/policies.md).',
          },
        ],
      },
    });
    // Stock Swagger UI fails axe (docs/api.md#the-documentation-page): configured and themed to pass.
    await app.register(swaggerUi, {
      routePrefix: DOCS_PREFIX,
      staticCSP: true,
      uiConfig: DOCS_UI_CONFIG,
      theme: DOCS_THEME,
      // One server, this one: the list of servers (an unlabelled select) says nothing.
      transformSpecification: (document) => ({ ...document, servers: undefined }),
    });
    app.get('/api/openapi.json', { config: { public: true, offline: true }, schema: { hide: true } }, async () => app.swagger());
  },
  { name: 'openapi' },
);
