import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthService } from '../../src/modules/auth/auth.service.js';
import authenticate from '../../src/plugins/authenticate.js';
import problem from '../../src/plugins/problem.js';
import web from '../../src/plugins/web.js';
import { AppError } from '../../src/shared/errors.js';
import { createTestApp, expectProblem, type TestApp } from '../helpers/app.js';

const INDEX = '<!doctype html><html><head><script type="module" src="/assets/index-Ab12Cd34.js"></script></head><body><div id="root"></div></body></html>';
const SCRIPT = 'console.log("deskbook");';
/** A script large enough to be compressed at build time (scripts/build-web.ts): .br and .gz beside it. */
const BIG_SCRIPT = `export const words = ${JSON.stringify('desk '.repeat(2000))};`;
const HTML = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * The web plugin with the service's own error handling and authentication hook, one protected
 * API route, and a build directory of our choosing; every token is refused.
 */
async function webApp(root: string): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  const refuseEveryToken = { authenticate: async () => Promise.reject(new AppError('INVALID_TOKEN')) } as unknown as AuthService;
  await app.register(problem, { databaseOpen: () => true });
  await app.register(authenticate, { auth: refuseEveryToken });
  app.get('/api/ping', async () => ({ pong: true }));
  await app.register(web, { root });
  await app.ready();
  return app;
}

describe('serving the built web app', () => {
  let dir: string;
  let app: FastifyInstance;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'deskbook-web-'));
    mkdirSync(path.join(dir, 'assets'));
    writeFileSync(path.join(dir, 'index.html'), INDEX);
    writeFileSync(path.join(dir, 'assets', 'index-Ab12Cd34.js'), SCRIPT);
    writeFileSync(path.join(dir, 'assets', 'page-Ef56Gh78.js'), BIG_SCRIPT);
    writeFileSync(path.join(dir, 'assets', 'page-Ef56Gh78.js.br'), brotliCompressSync(BIG_SCRIPT));
    writeFileSync(path.join(dir, 'assets', 'page-Ef56Gh78.js.gz'), gzipSync(BIG_SCRIPT));
    writeFileSync(path.join(dir, '.source-hash'), 'abc\n');
    app = await webApp(dir);
  });

  afterAll(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers / with index.html, revalidated on every load, without a token', async () => {
    const response = await app.inject({ method: 'GET', url: '/', headers: { accept: HTML } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    expect(response.headers['content-security-policy']).toContain("script-src 'self'");
    expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(response.headers.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(response.body).toBe(INDEX);
  });

  it('answers a repeated load with 304 when index.html has not changed', async () => {
    const first = await app.inject({ method: 'GET', url: '/', headers: { accept: HTML } });
    const again = await app.inject({ method: 'GET', url: '/', headers: { accept: HTML, 'if-none-match': String(first.headers.etag) } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    const changed = await app.inject({ method: 'GET', url: '/', headers: { accept: HTML, 'if-none-match': '"older"' } });
    expect(changed.statusCode).toBe(200);
  });

  it('answers page paths that accept HTML with index.html, for the client-side router', async () => {
    for (const url of ['/reservations', '/admin/departments/7d0c3f0e-0000-4000-8000-000000000000', '/reset-password?token=abc.def']) {
      const response = await app.inject({ method: 'GET', url, headers: { accept: HTML } });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.body).toBe(INDEX);
    }
  });

  it('answers HEAD like GET, without the body', async () => {
    const response = await app.inject({ method: 'HEAD', url: '/reservations', headers: { accept: HTML } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.body).toBe('');
  });

  it('serves hashed assets for a year, immutable, without a token', async () => {
    const response = await app.inject({ method: 'GET', url: '/assets/index-Ab12Cd34.js' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^(application|text)\/javascript/);
    expect(response.headers['cache-control']).toBe(IMMUTABLE);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.body).toBe(SCRIPT);
  });

  it('sends the brotli or gzip file written at build time as the browser accepts, else the plain one (docs/architecture.md#building)', async () => {
    const url = '/assets/page-Ef56Gh78.js';
    const brotli = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip, deflate, br, zstd' } });
    expect(brotli.statusCode).toBe(200);
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers['content-type']).toMatch(/^(application|text)\/javascript/);
    expect(brotli.headers.vary).toMatch(/accept-encoding/i);
    expect(brotli.headers['cache-control']).toBe(IMMUTABLE);
    expect(brotliDecompressSync(brotli.rawPayload).toString()).toBe(BIG_SCRIPT);
    expect(brotli.rawPayload.length).toBeLessThan(BIG_SCRIPT.length / 10);

    const gzip = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(BIG_SCRIPT);

    const plain = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(BIG_SCRIPT);
  });

  it('answers a missing asset with a 404 problem, never with index.html', async () => {
    const response = await app.inject({ method: 'GET', url: '/assets/index-Missing1.js', headers: { accept: HTML } });
    expectProblem(response, 404, 'ROUTE_NOT_FOUND');
    expect(response.headers['cache-control']).toBeUndefined();
  });

  it('serves nothing outside the assets folder', async () => {
    for (const url of ['/assets/../index.html', '/assets/..%2findex.html', '/assets/%2e%2e/.source-hash', '/assets/..%2f..%2fpackage.json']) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.body, url).not.toContain('abc');
      expect(response.body, url).not.toContain('"name"');
      expect(response.headers['cache-control'], url).not.toBe(IMMUTABLE);
    }
  });

  it('keeps the API’s own 404 problem for unknown GETs under /api, even from a browser', async () => {
    for (const url of ['/api/nothing-here', '/api', '/api/users/x/unknown']) {
      const response = await app.inject({ method: 'GET', url, headers: { accept: HTML } });
      const body = expectProblem(response, 404, 'ROUTE_NOT_FOUND');
      expect(body.detail).toBe(`No operation GET ${url}`);
    }
  });

  it('does not open API routes: a protected route still wants its token', async () => {
    expectProblem(await app.inject({ method: 'GET', url: '/api/ping', headers: { accept: HTML } }), 401, 'UNAUTHENTICATED');
  });

  it('answers requests that do not accept HTML, and other methods, with the 404 problem', async () => {
    expectProblem(await app.inject({ method: 'GET', url: '/reservations', headers: { accept: 'application/json' } }), 404, 'ROUTE_NOT_FOUND');
    expectProblem(await app.inject({ method: 'GET', url: '/favicon.ico', headers: { accept: 'image/avif,image/webp,*/*' } }), 404, 'ROUTE_NOT_FOUND');
    expectProblem(await app.inject({ method: 'POST', url: '/reservations', headers: { accept: HTML }, payload: {} }), 404, 'ROUTE_NOT_FOUND');
  });

  // The installable app (docs/pwa.md): the one worker, the manifest, its icons and the page by name.
  it('answers the one service worker at /sw.js and at the push worker’s old address, revalidated, with its scope allowed', async () => {
    writeFileSync(path.join(dir, 'sw.js'), 'self.addEventListener("push", () => {});');
    for (const url of ['/sw.js', '/push-sw.js']) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type']).toBe('text/javascript; charset=utf-8');
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.headers['service-worker-allowed']).toBe('/');
      expect(response.body).toContain('push');
    }
  });

  it('answers the manifest, its icons and /index.html (the worker precaches it without asking for HTML); the pages allow both', async () => {
    writeFileSync(path.join(dir, 'manifest.webmanifest'), '{"name":"Deskbook"}');
    mkdirSync(path.join(dir, 'icons'), { recursive: true });
    writeFileSync(path.join(dir, 'icons', 'icon-192.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    const manifest = await app.inject({ method: 'GET', url: '/manifest.webmanifest' });
    expect(manifest.statusCode).toBe(200);
    expect(manifest.headers['content-type']).toBe('application/manifest+json; charset=utf-8');
    const icon = await app.inject({ method: 'GET', url: '/icons/icon-192.png' });
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['content-type']).toBe('image/png');
    expectProblem(await app.inject({ method: 'GET', url: '/icons/..%2Findex.html' }), 404, 'ROUTE_NOT_FOUND');
    expectProblem(await app.inject({ method: 'GET', url: '/icons/missing.png' }), 404, 'ROUTE_NOT_FOUND');
    const page = await app.inject({ method: 'GET', url: '/index.html', headers: { accept: '*/*' } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toBe(INDEX);
    const csp = String((await app.inject({ method: 'GET', url: '/', headers: { accept: HTML } })).headers['content-security-policy']);
    expect(csp).toContain("manifest-src 'self'");
    expect(csp).toContain("worker-src 'self'");
  });
});

describe('before the web app is built', () => {
  let dir: string;
  let app: FastifyInstance;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'deskbook-web-missing-'));
    app = await webApp(path.join(dir, 'not-built'));
  });

  afterAll(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('tells a browser with a 503 page to run the build', async () => {
    for (const url of ['/', '/reservations']) {
      const response = await app.inject({ method: 'GET', url, headers: { accept: HTML } });
      expect(response.statusCode).toBe(503);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.body).toContain('npm run build:web');
    }
  });

  it('tells other clients with a 503 problem', async () => {
    const body = expectProblem(await app.inject({ method: 'GET', url: '/', headers: { accept: 'application/json' } }), 503, 'WEB_APP_NOT_BUILT');
    expect(body.detail).toContain('npm run build:web');
  });

  it('answers assets with 404 and the API as before', async () => {
    expectProblem(await app.inject({ method: 'GET', url: '/assets/index-Ab12Cd34.js' }), 404, 'ROUTE_NOT_FOUND');
    expectProblem(await app.inject({ method: 'GET', url: '/api/nothing-here', headers: { accept: HTML } }), 404, 'ROUTE_NOT_FOUND');
  });
});

describe('the web app inside the whole service', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });

  afterAll(async () => {
    await t.close();
  });

  it('leaves unknown API paths to the API’s 404, whatever the browser accepts', async () => {
    expectProblem(await t.request({ method: 'GET', url: '/api/no-such-thing', headers: { accept: HTML } }), 404, 'ROUTE_NOT_FOUND');
    expectProblem(await t.request({ method: 'GET', url: '/api/health/extra', headers: { accept: HTML } }), 404, 'ROUTE_NOT_FOUND');
  });

  it('answers pages without a token, and keeps the API behind one', async () => {
    const page = await t.request({ method: 'GET', url: '/reservations', headers: { accept: HTML } });
    // 200 once `npm run build:web` has run, 503 before: never 401.
    expect([200, 503]).toContain(page.statusCode);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expectProblem(await t.request({ method: 'GET', url: '/api/self', headers: { accept: HTML } }), 401, 'UNAUTHENTICATED');
  });

  it('keeps the web routes out of the OpenAPI document', async () => {
    const document = (await t.request({ method: 'GET', url: '/api/openapi.json' })).json<{ paths: Record<string, unknown> }>();
    const outside = Object.keys(document.paths).filter((route) => !route.startsWith('/api/'));
    expect(outside).toEqual([]);
  });
});
