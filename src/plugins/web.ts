import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../shared/errors.js';
import { projectPath } from '../shared/paths.js';

export interface WebOptions {
  /** The built web app (Vite's output); default dist/web. */
  root?: string;
}

const IMMUTABLE = 'public, max-age=31536000, immutable';
// The reset-password page carries its token in the URL: no Referer may leak it.
const PAGE_HEADERS = {
  'cache-control': 'no-cache',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'content-security-policy':
    "default-src 'self'; img-src 'self' blob: data:; style-src 'self'; script-src 'self'; connect-src 'self'; manifest-src 'self'; worker-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'",
};

const NOT_BUILT_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Deskbook: web app not built</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 3rem auto; padding: 0 1rem; line-height: 1.5">
<h1>The web app is not built yet</h1>
<p>The API is running (see <a href="/api/docs">/api/docs</a>), but the files of the web app are missing.</p>
<p>Build them with <code>npm run build:web</code>, or start the service with <code>npm start</code>, which builds them when needed.</p>
</body></html>
`;

function acceptsHtml(request: FastifyRequest): boolean {
  return /\btext\/html\b|\bapplication\/xhtml\+xml\b/i.test(request.headers.accept ?? '');
}

/**
 * Serves the web app at / (the API stays under /api): hashed assets under /assets/ cached for a
 * year (brotli or gzip, compressed at build time, when the browser accepts it), index.html revalidated on every load, and every other GET that accepts HTML answered with
 * index.html so that deep links (/reservations, /reset-password?token=…) reach the client-side
 * router. GETs under /api that match no route keep the API's own 404 problem. Registered last.
 */
async function webRoutes(app: FastifyInstance, options: WebOptions) {
  const root = options.root ?? projectPath('dist', 'web');
  const index = path.join(root, 'index.html');
  if (!existsSync(index)) app.log.warn(`the web app is not built (${index} is missing): run npm run build:web`);

  // These are the public files of the site: no token, no database, and not part of the API document.
  app.addHook('onRoute', (route) => {
    route.config = { ...(route.config ?? {}), public: true, offline: true };
    route.schema = { ...(route.schema ?? {}), hide: true };
  });

  await app.register(fastifyStatic, {
    root: path.join(root, 'assets'),
    prefix: '/assets/',
    // The directory appears with the first build; until then every asset is a 404.
    suppressWarning: true,
    index: false,
    decorateReply: false,
    cacheControl: false,
    // The build writes .br and .gz beside each script and stylesheet (scripts/build-web.ts): sent as
    // the browser accepts, with Vary: Accept-Encoding, and never compressed per request.
    preCompressed: true,
    setHeaders: (reply) => {
      reply.header('cache-control', IMMUTABLE);
      reply.header('x-content-type-options', 'nosniff');
    },
  });

  // index.html is read on every request (it is small), so a rebuild shows without a restart.
  const sendPage = async (request: FastifyRequest, reply: FastifyReply) => {
    let page: Buffer;
    try {
      page = await readFile(index);
    } catch {
      if (acceptsHtml(request)) return reply.code(503).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(NOT_BUILT_PAGE);
      throw new AppError('WEB_APP_NOT_BUILT', 'The web app is not built: run npm run build:web (npm start builds it when needed)');
    }
    const etag = `"${createHash('sha256').update(page).digest('base64url').slice(0, 27)}"`;
    reply.headers({ ...PAGE_HEADERS, etag });
    if (request.headers['if-none-match'] === etag) return reply.code(304).send();
    return reply.type('text/html; charset=utf-8').send(page);
  };

  // A file of the build's root, read on every request (a rebuild shows without a restart) and revalidated on every load.
  const sendRootFile = async (reply: FastifyReply, name: string, type: string, headers: Record<string, string> = {}) => {
    let body: Buffer;
    try {
      body = await readFile(path.join(root, name));
    } catch {
      throw new AppError('ROUTE_NOT_FOUND', `No operation GET /${name}: the web app is not built`);
    }
    return reply
      .headers({ 'cache-control': 'no-cache', 'x-content-type-options': 'nosniff', ...headers })
      .type(type)
      .send(body);
  };
  // The app's one service worker (docs/pwa.md#the-one-worker): at the root, so that its scope may
  // be the whole app; revalidated on every load, so that the browser sees a new version at once.
  const sendWorker = (_request: FastifyRequest, reply: FastifyReply) =>
    sendRootFile(reply, 'sw.js', 'text/javascript; charset=utf-8', { 'service-worker-allowed': '/' });
  app.get('/sw.js', sendWorker);
  // The address of the push-only worker of earlier versions: browsers that registered it update to the one worker.
  app.get('/push-sw.js', sendWorker);
  // The web app manifest (docs/pwa.md#installing) and its icons.
  app.get('/manifest.webmanifest', (_request, reply) => sendRootFile(reply, 'manifest.webmanifest', 'application/manifest+json; charset=utf-8'));
  app.get<{ Params: { name: string } }>('/icons/:name', (request, reply) => {
    if (!/^[a-z0-9-]+\.png$/.test(request.params.name)) throw new AppError('ROUTE_NOT_FOUND', `No operation GET /icons/${request.params.name}`);
    return sendRootFile(reply, `icons/${request.params.name}`, 'image/png');
  });
  app.get('/', sendPage);
  // The service worker precaches the page by this name, asking without Accept: text/html (docs/pwa.md#what-is-cached).
  app.get('/index.html', sendPage);
  app.get('/*', async (request, reply) => {
    const pathname = request.url.split('?')[0]!;
    if (pathname === '/api' || pathname.startsWith('/api/') || !acceptsHtml(request)) {
      throw new AppError('ROUTE_NOT_FOUND', `No operation ${request.method} ${pathname}`);
    }
    return sendPage(request, reply);
  });
}

// Encapsulated on purpose (the onRoute hook above must see only these routes); the error and
// not-found handlers and the authentication hook are inherited from the root.
export default fp(
  async function webPlugin(app: FastifyInstance, options: WebOptions) {
    await app.register(webRoutes, options);
  },
  { name: 'web' },
);
