import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import deskbook, { serverOptions } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, createTestApp, type TestApp } from '../helpers/app.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';

/** GET /api/openapi.json and /api/docs (docs/behaviour.md#running-it, "Documentation"). */

interface Operation {
  summary?: string;
  description?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  parameters?: { name: string; in: string; required?: boolean }[];
  requestBody?: { content?: Record<string, { schema?: unknown }> };
  responses: Record<string, { description?: string; content?: Record<string, { schema?: SchemaObject }> }>;
}
interface SchemaObject {
  $ref?: string;
  type?: string;
  required?: string[];
  properties?: Record<string, unknown>;
}
interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  paths: Record<string, Record<string, Operation>>;
  components?: { securitySchemes?: Record<string, { type: string; scheme?: string }>; schemas?: Record<string, SchemaObject> };
  security?: Record<string, string[]>[];
  tags?: { name: string }[];
  servers?: { url: string }[];
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace'];

/** The operations the service has today; the document may grow, never lose one. */
const EXPECTED_OPERATIONS = [
  'POST /api/auth/login',
  'POST /api/auth/refresh',
  'POST /api/auth/logout',
  'GET /api/self',
  'PUT /api/self',
  'PUT /api/self/password',
  'GET /api/users',
  'POST /api/users',
  'GET /api/users/{id}',
  'PUT /api/users/{id}',
  'DELETE /api/users/{id}',
  'PUT /api/users/{id}/password',
  'GET /api/users/{id}/sessions',
  'GET /api/sessions',
  'DELETE /api/sessions/{id}',
  'GET /api/health',
  'GET /api/settings',
  'GET /api/health/ready',
  'POST /api/password/forgot',
  'POST /api/password/reset',
  'GET /api/users/{id}/avatar',
  'PUT /api/users/{id}/avatar',
  'DELETE /api/users/{id}/avatar',
];
const PUBLIC_OPERATIONS = [
  'POST /api/auth/login',
  'POST /api/auth/refresh',
  'GET /api/health',
  'GET /api/health/ready',
  'GET /api/settings',
  'POST /api/password/forgot',
  'POST /api/password/reset',
  'GET /api/calendar/{token}.ics',
  'GET /api/auth/oidc',
  'GET /api/auth/oidc/start',
  'GET /api/auth/oidc/callback',
  'POST /api/auth/oidc/exchange',
  'GET /api/qr-labels.css',
  // The lobby display: its token is the credential (docs/people.md#the-lobby-display).
  'GET /api/display/{token}',
  // The browser's session: authenticated by its cookie, not a bearer token (docs/sessions.md).
  'POST /api/auth/web-session',
  'POST /api/auth/web-session/refresh',
  'DELETE /api/auth/web-session',
  'POST /api/auth/oidc/web-session',
];
/** Browser navigations answering a redirect (303) instead of JSON (docs/behaviour.md#single-sign-on-openid-connect). */
const REDIRECT_OPERATIONS = ['GET /api/auth/oidc/start', 'GET /api/auth/oidc/callback'];
/** Operations answering an image instead of JSON. */
const IMAGE_OPERATIONS = ['GET /api/users/{id}/avatar', 'GET /api/departments/{departmentId}/image'];
/** Attendance operations answering something other than JSON (docs/behaviour.md#desk-qr-codes). */
const OTHER_CONTENT: Record<string, string> = {
  'GET /api/desks/{deskId}/qr.svg': 'image/svg+xml',
  'GET /api/desks/{deskId}/qr.png': 'image/png',
  'GET /api/rooms/{roomId}/qr-labels': 'text/html',
  'GET /api/qr-labels.css': 'text/css',
};
/** Operations answering iCalendar text (docs/behaviour.md#calendar-feed). */
const CALENDAR_OPERATIONS = ['GET /api/calendar/{token}.ics'];
const PAGED_OPERATIONS = ['GET /api/users', 'GET /api/sessions', 'GET /api/users/{id}/sessions'];

/** Routes that serve the documentation itself rather than the API. */
const isDocumentationRoute = (url: string) => url === '/api/openapi.json' || url === '/api/docs' || url.startsWith('/api/docs/');
const toOpenApiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

function operationsOf(document: OpenApiDocument): Map<string, Operation> {
  const operations = new Map<string, Operation>();
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (HTTP_METHODS.includes(method)) operations.set(`${method.toUpperCase()} ${path}`, operation);
    }
  }
  return operations;
}

describe('OpenAPI document and docs', () => {
  /** An app built like test/helpers/app.ts, plus an onRoute hook that records every route. */
  let app: FastifyInstance;
  let database: TestDatabase;
  const registered = new Map<string, { public: boolean; admin: boolean }>();
  let t: TestApp;
  let document: OpenApiDocument;
  let operations: Map<string, Operation>;

  beforeAll(async () => {
    database = await createTestDatabase();
    const config = loadConfig({ ADMIN_EMAIL, ADMIN_PASSWORD, LOG_LEVEL: 'silent', REQUEST_LOG: 'false' });
    app = Fastify(serverOptions(config, false));
    app.addHook('onRoute', (route) => {
      if (!route.url.startsWith('/api') || isDocumentationRoute(route.url)) return;
      for (const method of [route.method].flat()) {
        if (method === 'HEAD') continue;
        registered.set(`${method} ${toOpenApiPath(route.url)}`, { public: route.config?.public === true, admin: route.config?.role === 'ADMIN' });
      }
    });
    await app.register(deskbook, { config, database: database.handle });
    await app.ready();

    t = await createTestApp();
    const response = await t.request({ method: 'GET', url: '/api/openapi.json' });
    expect(response.statusCode).toBe(200);
    document = response.json<OpenApiDocument>();
    operations = operationsOf(document);
  });
  afterAll(async () => {
    await app?.close();
    await database?.dispose();
    await t?.close();
  });

  it('is served without a token, as JSON, in OpenAPI 3.1', async () => {
    const response = await t.request({ method: 'GET', url: '/api/openapi.json' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(document.openapi).toMatch(/^3\.1\.\d+$/);
    expect(document.info.title).toBeTruthy();
    expect(document.info.version).toMatch(/^\d+\.\d+\.\d+/);
    // A token, even a bad one, changes nothing.
    const withGarbage = await t.request({ method: 'GET', url: '/api/openapi.json', token: 'garbage' });
    expect(withGarbage.statusCode).toBe(200);
    expect(withGarbage.body).toBe(response.body);
  });

  it('lists every operation of the service with its method', () => {
    const documented = [...operations.keys()].sort();
    for (const operation of EXPECTED_OPERATIONS) expect(documented, `${operation} is not documented`).toContain(operation);
    // Nothing else under /api: the documentation routes themselves are hidden.
    for (const path of Object.keys(document.paths)) {
      expect(path.startsWith('/api/')).toBe(true);
      expect(isDocumentationRoute(path)).toBe(false);
    }
  });

  it('documents exactly the routes the app registers under /api', () => {
    expect(registered.size).toBeGreaterThanOrEqual(EXPECTED_OPERATIONS.length);
    expect([...operations.keys()].sort()).toEqual([...registered.keys()].sort());
  });

  it('gives every operation a summary, a tag, a 200 or 204 response and problem responses for 400, 401 and 500', () => {
    const tags = new Set((document.tags ?? []).map((tag) => tag.name));
    for (const [name, operation] of operations) {
      expect(typeof operation.summary, `${name} summary`).toBe('string');
      expect(operation.summary!.trim().length, `${name} summary`).toBeGreaterThan(0);
      expect(operation.tags?.length, `${name} tags`).toBeGreaterThan(0);
      for (const tag of operation.tags ?? []) expect(tags.has(tag), `${name} tag ${tag} is not declared`).toBe(true);

      const statuses = Object.keys(operation.responses);
      const success = REDIRECT_OPERATIONS.includes(name) ? ['303'] : ['200', '204'];
      expect(
        success.some((status) => statuses.includes(status)),
        `${name} has no ${success.join('/')}: ${statuses.join(',')}`,
      ).toBe(true);
      const okType =
        OTHER_CONTENT[name] ?? (IMAGE_OPERATIONS.includes(name) ? 'image/png' : CALENDAR_OPERATIONS.includes(name) ? 'text/calendar' : 'application/json');
      if (statuses.includes('200')) expect(operation.responses['200']!.content?.[okType]?.schema, `${name} 200 schema`).toBeDefined();
      for (const status of ['400', '401', '500']) {
        const response = operation.responses[status];
        expect(response, `${name} lacks ${status}`).toBeDefined();
        expect(response!.description, `${name} ${status} description`).toBeTruthy();
        const schema = response!.content?.['application/problem+json']?.schema;
        expect(schema, `${name} ${status} is not documented as application/problem+json`).toBeDefined();
        const resolved = schema!.$ref ? document.components?.schemas?.[schema!.$ref.replace('#/components/schemas/', '')] : schema;
        expect(resolved?.required, `${name} ${status} schema`).toEqual(
          expect.arrayContaining(['type', 'title', 'status', 'detail', 'instance', 'code', 'requestId']),
        );
      }
      // Every status is a real HTTP status.
      for (const status of statuses) expect(status).toMatch(/^[1-5]\d\d$/);
    }
  });

  it('marks exactly the admin-only operations (config.role) with "(admin)" in the summary and documents their 403', () => {
    const adminInApp = [...registered]
      .filter(([, route]) => route.admin)
      .map(([name]) => name)
      .sort();
    expect(adminInApp.length).toBeGreaterThan(0);
    const markedInDocument = [...operations]
      .filter(([, operation]) => operation.summary!.endsWith(' (admin)'))
      .map(([name]) => name)
      .sort();
    expect(markedInDocument).toEqual(adminInApp);
    for (const name of adminInApp) {
      expect(operations.get(name)!.summary, name).not.toMatch(/\(admin\).*\(admin\)/);
      expect(operations.get(name)!.responses['403'], `${name} 403`).toBeDefined();
    }
  });

  it('marks the public operations with security: [] and leaves the rest under the bearer scheme', () => {
    expect(document.components?.securitySchemes?.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(document.security).toEqual([{ bearerAuth: [] }]);
    for (const [name, operation] of operations) {
      if (PUBLIC_OPERATIONS.includes(name)) {
        expect(operation.security, `${name} should be public`).toEqual([]);
      } else {
        // Inherits the document's bearerAuth, or names a non-empty requirement itself.
        if (operation.security !== undefined) expect(operation.security.length, `${name} security`).toBeGreaterThan(0);
        expect(operation.responses['401'], `${name} 401`).toBeDefined();
      }
    }
    // The document agrees with what the app enforces: security: [] exactly on public routes.
    const publicInApp = [...registered]
      .filter(([, route]) => route.public)
      .map(([name]) => name)
      .sort();
    const publicInDocument = [...operations]
      .filter(([, operation]) => operation.security?.length === 0)
      .map(([name]) => name)
      .sort();
    expect(publicInDocument).toEqual(publicInApp);
    expect(publicInDocument).toEqual([...PUBLIC_OPERATIONS].sort());
  });

  it('documents path parameters and the paging parameters', () => {
    for (const [name, operation] of operations) {
      for (const [, parameter] of name.matchAll(/\{([^}]+)\}/g)) {
        expect(
          operation.parameters?.find((item) => item.name === parameter && item.in === 'path'),
          `${name} path parameter ${parameter}`,
        ).toMatchObject({ required: true });
      }
    }
    for (const name of PAGED_OPERATIONS) {
      const query = (operations.get(name)?.parameters ?? []).filter((item) => item.in === 'query').map((item) => item.name);
      expect(query, name).toEqual(expect.arrayContaining(['page', 'size', 'sort', 'pageable']));
    }
    expect((operations.get('GET /api/sessions')?.parameters ?? []).map((item) => item.name)).toContain('userId');
  });

  it('documents a JSON request body for every operation that takes one', () => {
    for (const name of [
      'POST /api/auth/login',
      'POST /api/auth/refresh',
      'PUT /api/self',
      'PUT /api/self/password',
      'POST /api/users',
      'PUT /api/users/{id}',
      'PUT /api/users/{id}/password',
    ]) {
      expect(operations.get(name)?.requestBody?.content?.['application/json']?.schema, `${name} body`).toBeDefined();
    }
  });

  it('is identical across two fresh app instances', async () => {
    const other = await app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(other.statusCode).toBe(200);
    const again = await t.request({ method: 'GET', url: '/api/openapi.json' });
    expect(JSON.stringify(other.json())).toBe(JSON.stringify(document));
    expect(again.body).toBe(other.body);
  });

  it('serves the interactive docs at /api/docs and /api/docs/ without a token', async () => {
    for (const url of ['/api/docs', '/api/docs/']) {
      const response = await t.request({ method: 'GET', url });
      expect(response.statusCode, `${url}: ${response.body.slice(0, 200)}`).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.body).toMatch(/<html/i);
      expect(response.body).toMatch(/swagger/i);
    }
    // The page's own assets are public as well, and its document is the same one.
    const initializer = await t.request({ method: 'GET', url: '/api/docs/static/swagger-initializer.js' });
    expect(initializer.statusCode).toBe(200);
    const docsJson = await t.request({ method: 'GET', url: '/api/docs/json' });
    expect(docsJson.statusCode).toBe(200);
    // Without the list of servers, whose one entry the page would show as an unlabelled select (docs/api.md#the-documentation-page).
    const { servers: _servers, ...shown } = document;
    expect(docsJson.json()).toEqual(shown);
  });
});
