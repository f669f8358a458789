import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverOptions } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import problem from '../../src/plugins/problem.js';
import web from '../../src/plugins/web.js';

/**
 * Path tricks under /assets/ (docs/behaviour.md, HTTP): dot segments, encoded slashes and
 * backslashes, NUL, overlong and double encodings. Each is a 4xx problem with a stable code,
 * never a file from outside the assets folder, and never an error in the log.
 */

const INDEX = '<!doctype html><title>INDEX-PAGE</title>';
const SECRET = 'TOP-SECRET-OUTSIDE';
const SCRIPT = 'console.log("asset");';

const TRICKS = [
  '/assets/../index.html',
  '/assets/../../secret.txt',
  '/assets/..%5c..%5csecret.txt',
  '/assets/..%5cindex.html',
  '/assets/%00',
  '/assets/app.js%00',
  '/assets/%00/../index.html',
  '/assets/%2e%2e/index.html',
  '/assets/%2e%2e%2findex.html',
  '/assets/%2E%2E%2F%2E%2E%2Fsecret.txt',
  '/assets/.%2e/index.html',
  '/assets/..',
  '/assets/%2e%2e',
  '/assets/..%2f..%2fsecret.txt',
  '/assets/%c0%ae%c0%ae/index.html',
  '/assets/%c0%ae%c0%ae%c0%afsecret.txt',
  '/assets/%e0%80%ae%e0%80%ae/index.html',
  '/assets/%252e%252e/index.html',
  '/assets/%252e%252e%252fsecret.txt',
  '/assets/....//index.html',
  '/assets//etc/passwd',
  '/assets/%2fetc%2fpasswd',
  '/assets/%ff',
  '/assets/app.js/../../index.html',
];

describe('path tricks under /assets/', () => {
  let base: string;
  let app: FastifyInstance;
  const logLines: Record<string, unknown>[] = [];

  beforeAll(async () => {
    base = mkdtempSync(path.join(tmpdir(), 'deskbook-paths-'));
    const root = path.join(base, 'web');
    mkdirSync(path.join(root, 'assets'), { recursive: true });
    writeFileSync(path.join(root, 'index.html'), INDEX);
    writeFileSync(path.join(root, 'assets', 'app.js'), SCRIPT);
    writeFileSync(path.join(base, 'secret.txt'), SECRET);
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) logLines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    // The service's own server options (bad-URL handling among them), logging everything.
    app = Fastify(serverOptions(loadConfig({}), { level: 'trace', stream }));
    await app.register(problem, { databaseOpen: () => true });
    await app.register(web, { root });
    await app.listen({ port: 0, host: '127.0.0.1' });
  });

  /** One GET on its own connection, the path exactly as given (like curl --path-as-is). */
  async function rawGet(url: string, accept: string): Promise<{ status: number; headers: Record<string, string>; body: string }> {
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      let data = '';
      socket.setEncoding('latin1');
      socket.on('data', (chunk: string) => (data += chunk));
      socket.on('end', () => resolve(data));
      socket.on('error', reject);
      socket.write(`GET ${url} HTTP/1.1\r\nHost: deskbook\r\nAccept: ${accept}\r\nConnection: close\r\n\r\n`);
    });
    const [head = '', body = ''] = raw.split('\r\n\r\n');
    const [statusLine = '', ...headerLines] = head.split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of headerLines) headers[line.slice(0, line.indexOf(':')).toLowerCase()] = line.slice(line.indexOf(':') + 1).trim();
    return { status: Number(statusLine.split(' ')[1]), headers, body };
  }

  afterAll(async () => {
    await app.close();
    rmSync(base, { recursive: true, force: true });
  });

  it('serves the real asset', async () => {
    const response = await app.inject({ method: 'GET', url: '/assets/app.js' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe(SCRIPT);
  });

  it('answers every trick, sent as-is over a socket, with a 4xx problem, no file, and no failure in the log', async () => {
    logLines.length = 0;
    for (const url of TRICKS) {
      for (const accept of ['*/*', 'text/html']) {
        const response = await rawGet(url, accept);
        const context = `${url} (${accept}): ${response.status} ${response.body.slice(0, 200)}`;
        expect(response.status, context).toBeGreaterThanOrEqual(400);
        expect(response.status, context).toBeLessThan(500);
        expect(response.headers['content-type'], context).toMatch(/^application\/problem\+json/);
        const body = JSON.parse(response.body) as { code: string; status: number };
        expect(['ROUTE_NOT_FOUND', 'INVALID_ENCODING'], context).toContain(body.code);
        expect(body.status).toBe(response.status);
        expect(response.body, context).not.toContain('INDEX-PAGE');
        expect(response.body, context).not.toContain(SECRET);
        expect(response.body, context).not.toMatch(/stack|node_modules|\/tmp\//);
      }
    }
    const failures = logLines.filter((line) => Number(line.level) >= 40 || JSON.stringify(line).includes('"stack"'));
    expect(failures).toEqual([]);
  });

  it('answers a dot-segment path as a client would normalise it (inject) without leaving the site', async () => {
    // Clients resolve /assets/../index.html to /index.html before sending: the page itself, public anyway.
    const response = await app.inject({ method: 'GET', url: '/assets/../../secret.txt', headers: { accept: '*/*' } });
    expect(response.statusCode).toBe(404);
    expect(response.body).not.toContain(SECRET);
  });
});
