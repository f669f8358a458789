import { readFileSync, writeFileSync } from 'node:fs';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../../helpers/app.js';
import { createPostgresDatabase } from '../../helpers/database.js';
import { killServers, startHealthy, stopServer, type ServerProcess } from '../../helpers/server-process.js';

/**
 * What a burst of worst-case avatar uploads costs a real server process: decoded pixels live in
 * libvips, outside the V8 heap, so only the decode queue (IMAGE_DECODE_MEMORY) and the avatar
 * pixel limit (AVATAR_MAX_PIXELS, which allows 4 bytes a pixel decoded) bound them. The worst
 * case is an interlaced PNG (it must be decoded whole, not in stripes) of 8-bit RGBA just under
 * the limit: a file of 0.1 MB that decodes to 64 MB. Twenty of them at once, from seven users (so
 * that the per-user limit of three is not what refuses them), keep the server under 400 MB;
 * they add less than 250 MB to it. Before the decode queue, the
 * same burst took the server from 224 to 638 MB (and 20 uploads of 39.7 MP, then accepted, to
 * 1,085 MB).
 */

const UPLOADS = 20;
const USERS = 7;
const RSS_LIMIT_MB = 400;
/** What the decodes may add to the process, whatever it held before. */
const GROWTH_LIMIT_MB = 250;
/** The allocator and heap settings `npm start` runs the server with. */
const AS_NPM_START = { MALLOC_ARENA_MAX: '2', NODE_OPTIONS: '--max-old-space-size=192 --max-semi-space-size=16' };
const PASSWORD = 'decode-memory-password-1';

/** Just under the default AVATAR_MAX_PIXELS (16,000,000). */
const SIDE_X = 3999;
const SIDE_Y = 4000;

function statusKb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(match?.[1] ?? NaN);
}

describe('memory of simultaneous worst-case avatar uploads', () => {
  let server: ServerProcess;
  let database: Awaited<ReturnType<typeof createPostgresDatabase>> | undefined;
  const users: { id: string; token: string }[] = [];

  const api = async (method: string, url: string, token?: string, body?: unknown) => {
    const response = await fetch(`${server.base}${url}`, {
      method,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (response.status >= 300) throw new Error(`${method} ${url}: ${response.status} ${await response.text()}`);
    return response.status === 204 ? undefined : response.json();
  };

  beforeAll(async () => {
    database = await createPostgresDatabase();
    server = await startHealthy({
      DATABASE_URL: database.url,
      ...AS_NPM_START,
      ADMIN_EMAIL,
      ADMIN_PASSWORD,
      LOG_LEVEL: 'warn',
      REQUEST_LOG: 'false',
      LOGIN_MAX_ATTEMPTS_PER_ADDRESS: '10000',
    });
    const admin = ((await api('POST', '/api/auth/login', undefined, { email: ADMIN_EMAIL, password: ADMIN_PASSWORD })) as { accessToken: string }).accessToken;
    for (let index = 0; index < USERS; index++) {
      const email = `uploader${index}@example.test`;
      const { id } = (await api('POST', '/api/users', admin, { email, firstName: 'Up', lastName: String(index) })) as { id: string };
      await api('PUT', `/api/users/${id}/password`, admin, { password: PASSWORD });
      users.push({ id, token: ((await api('POST', '/api/auth/login', undefined, { email, password: PASSWORD })) as { accessToken: string }).accessToken });
    }
  }, 120_000);
  afterAll(async () => {
    if (server) await stopServer(server).catch(() => undefined);
    await killServers();
    await database?.drop();
  });

  it(`keeps the server under ${RSS_LIMIT_MB} MB through ${UPLOADS} at once answering each 200, 413, 429 or 503`, async () => {
    const image = await sharp({ create: { width: SIDE_X, height: SIDE_Y, channels: 4, background: { r: 30, g: 120, b: 200, alpha: 0.5 } } })
      .png({ progressive: true })
      .toBuffer();
    const header = await sharp(image).metadata();
    expect({ interlaced: header.isProgressive, depth: header.depth, channels: header.channels }).toEqual({ interlaced: true, depth: 'uchar', channels: 4 });
    expect(image.length).toBeLessThan(1024 * 1024);

    const pid = server.child.pid!;
    // Peak memory from here on (writing 5 resets VmHWM to the current RSS).
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    const before = statusKb(pid, 'VmRSS');
    let sampled = before;
    const sampler = setInterval(() => {
      sampled = Math.max(sampled, statusKb(pid, 'VmRSS'));
    }, 20);
    const started = performance.now();
    let statuses: number[];
    try {
      statuses = await Promise.all(
        Array.from({ length: UPLOADS }, async (_, index) => {
          const user = users[index % USERS]!;
          const response = await fetch(`${server.base}/api/users/${user.id}/avatar`, {
            method: 'PUT',
            headers: { authorization: `Bearer ${user.token}`, 'content-type': 'image/png' },
            body: image,
          });
          await response.arrayBuffer();
          return response.status;
        }),
      );
    } finally {
      clearInterval(sampler);
    }
    const peakMb = Math.max(sampled, statusKb(pid, 'VmHWM')) / 1024;
    const tally = statuses.reduce<Record<number, number>>((counts, status) => ({ ...counts, [status]: (counts[status] ?? 0) + 1 }), {});
    console.info(
      `${UPLOADS} uploads of a ${SIDE_X}×${SIDE_Y} RGBA interlaced PNG (${(image.length / 1024).toFixed(0)} kB): ` +
        `RSS ${(before / 1024).toFixed(0)} MB before, peak ${peakMb.toFixed(0)} MB, ${((performance.now() - started) / 1000).toFixed(1)} s, statuses ${JSON.stringify(tally)}`,
    );
    for (const status of statuses) expect([200, 413, 429, 503]).toContain(status);
    expect(tally[200] ?? 0).toBeGreaterThan(0);
    expect(peakMb - before / 1024).toBeLessThan(GROWTH_LIMIT_MB);
    expect(peakMb).toBeLessThan(RSS_LIMIT_MB);
    expect(server.exit).toBeUndefined();
  });
});
