import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWeb } from '../../scripts/build-web.js';
import web from '../../src/plugins/web.js';

/**
 * The web app's build (docs/architecture.md#building): each page its own chunk, so that no chunk
 * reaches Vite's 500 kB warning and `npm start` prints no warning; every script and stylesheet
 * compressed at build time with brotli and gzip, and sent so.
 */

/** Vite's own limit (build.chunkSizeWarningLimit, in kB of minified code). */
const VITE_WARNING_KB = 500;

describe('the web build', () => {
  let out: string;
  const warnings: string[] = [];

  beforeAll(async () => {
    out = mkdtempSync(path.join(tmpdir(), 'deskbook-web-build-'));
    // buildWeb sets NODE_ENV=production for React and Vite; this process is vitest's, so put it back.
    const nodeEnv = process.env.NODE_ENV;
    try {
      await buildWeb({ outDir: out, onWarning: (message) => warnings.push(message) });
    } finally {
      process.env.NODE_ENV = nodeEnv;
    }
  });
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  const assets = () => readdirSync(path.join(out, 'assets'));

  it('prints no warning, and no chunk nears the size Vite warns about', () => {
    expect(warnings).toEqual([]);
    const scripts = assets().filter((name) => name.endsWith('.js'));
    for (const name of scripts) expect(readFileSync(path.join(out, 'assets', name)).length, name).toBeLessThan(VITE_WARNING_KB * 1000);
    // The pages are chunks of their own, loaded when first shown.
    for (const page of ['StatsPage', 'UsersPage', 'DepartmentPage', 'FindDeskPage'])
      expect(
        scripts.some((name) => name.startsWith(`${page}-`)),
        page,
      ).toBe(true);
    // The entry holds what every page shares (no top-level await splits it: docs/i18n.md#what-it-weighs),
    // still well under Vite's warning; what a first visit fetches in all is held by test/e2e/first-load.test.ts.
    const entry = /src="\/assets\/(index-[^"]+\.js)"/.exec(readFileSync(path.join(out, 'index.html'), 'utf8'))![1]!;
    expect(readFileSync(path.join(out, 'assets', entry)).length).toBeLessThan(400_000);
  });

  it('writes a brotli and a gzip copy of every script and stylesheet worth it, equal to it once decompressed', () => {
    const names = assets();
    const compressible = names.filter((name) => /\.(js|css)$/.test(name) && readFileSync(path.join(out, 'assets', name)).length >= 1024);
    expect(compressible.length).toBeGreaterThan(10);
    for (const name of compressible) {
      const original = readFileSync(path.join(out, 'assets', name));
      expect(brotliDecompressSync(readFileSync(path.join(out, 'assets', `${name}.br`))).equals(original), name).toBe(true);
      expect(gunzipSync(readFileSync(path.join(out, 'assets', `${name}.gz`))).equals(original), name).toBe(true);
    }
  });

  it('is served compressed: Accept-Encoding br gets content-encoding br, about a quarter of the bytes', async () => {
    const app = Fastify({ logger: false });
    await app.register(web, { root: out });
    await app.ready();
    try {
      const entry = /src="(\/assets\/index-[^"]+\.js)"/.exec(readFileSync(path.join(out, 'index.html'), 'utf8'))![1]!;
      const plain = readFileSync(path.join(out, entry.slice(1)));
      const response = await app.inject({ method: 'GET', url: entry, headers: { 'accept-encoding': 'gzip, deflate, br' } });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-encoding']).toBe('br');
      expect(response.rawPayload.length).toBeLessThan(plain.length / 3);
      expect(brotliDecompressSync(response.rawPayload).equals(plain)).toBe(true);
    } finally {
      await app.close();
    }
  });
});
