import { request as httpRequest } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { eq } from 'drizzle-orm';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/client.js';
import { serverSettings } from '../../src/db/schema.js';
import { createPostgresDatabase } from '../helpers/database.js';
import { freePort, killServers, START_TIMEOUT_MS, startHealthy, startServer, stopServer, waitHealthy, type ServerProcess } from '../helpers/server-process.js';

/**
 * Real server processes: `node --import tsx src/server.ts` with a controlled environment, talked
 * to over HTTP. docs/behaviour.md#running-it.
 */

const GENERATED_ADMIN = 'admin@localhost';
const PASSWORD_LINE = /created admin@localhost with password (\S+)/;

const databases: { url: string; drop(): Promise<void> }[] = [];

/** A fresh PostgreSQL database of its own, dropped after the file; `empty`: without a table (the server migrates it). */
async function freshDatabase(options: { empty?: boolean } = {}): Promise<string> {
  const created = await createPostgresDatabase(options);
  databases.push(created);
  return created.url;
}

function passwordLines(server: ServerProcess): string[] {
  return server
    .stdout()
    .split('\n')
    .filter((line) => line.includes(GENERATED_ADMIN) && line.includes('password') && PASSWORD_LINE.test(line));
}

function generatedPassword(server: ServerProcess): string {
  const lines = passwordLines(server);
  expect(lines, server.stdout()).toHaveLength(1);
  const password = PASSWORD_LINE.exec(lines[0]!)![1]!;
  expect(password.length).toBeGreaterThanOrEqual(16);
  return password;
}

interface TokenPair {
  accessToken: string;
  refreshToken: string;
  sessionId: string;
  userId: string;
}

async function api(server: ServerProcess, method: string, url: string, options: { body?: unknown; token?: string } = {}): Promise<Response> {
  const headers: Record<string, string> = {};
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
  return fetch(`${server.base}${url}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    signal: AbortSignal.timeout(10_000),
  });
}

async function login(server: ServerProcess, email: string, password: string): Promise<TokenPair> {
  const response = await api(server, 'POST', '/api/auth/login', { body: { email, password } });
  const text = await response.text();
  expect(response.status, text).toBe(200);
  return JSON.parse(text) as TokenPair;
}

/**
 * A raw HTTP request on its own connection that sends `Expect: 100-continue` and holds its body
 * back: `accepted` resolves once the server has read the head and answered 100 Continue (the
 * request is then in flight on the server), `sendBody()` sends the body, `done` the answer.
 */
function heldRequest(
  server: ServerProcess,
  method: string,
  url: string,
  body: unknown,
): { accepted: Promise<void>; sendBody(): void; done: Promise<{ status: number; body: string }> } {
  const payload = JSON.stringify(body);
  let markAccepted!: () => void;
  const accepted = new Promise<void>((resolve) => (markAccepted = resolve));
  const req = httpRequest({
    host: '127.0.0.1',
    port: server.port,
    method,
    path: url,
    agent: false,
    headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), expect: '100-continue' },
  });
  req.on('continue', markAccepted);
  const done = new Promise<{ status: number; body: string }>((resolve, reject) => {
    req.on('error', reject);
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      res.on('error', reject);
    });
  });
  req.flushHeaders();
  return { accepted, sendBody: () => req.end(payload), done };
}

/** Resolves once a stdout line satisfies `test`; fails after `timeoutMs`. */
async function waitForLog(server: ServerProcess, test: (line: Record<string, unknown>) => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.logLines().some(test)) return;
    await sleep(10);
  }
  throw new Error(`log line not seen within ${timeoutMs} ms\n${server.stdout()}`);
}

afterAll(async () => {
  await killServers();
  for (const database of databases) await database.drop();
});

// The embedded default (DATA_DIR, no DATABASE_URL) has its own tests of start, restart and SIGKILL.
describe('a server on a database of its own', () => {
  let databaseUrl: string;
  let first: ServerProcess;
  let password: string;

  beforeAll(async () => {
    databaseUrl = await freshDatabase({ empty: true });
    first = await startHealthy({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'info' });
  });

  it('writes JSON lines and prints the generated admin password exactly once', () => {
    const lines = first.logLines();
    expect(lines.length).toBeGreaterThan(0);
    password = generatedPassword(first);
    expect(first.stdout().split(password).length - 1).toBe(1);
    expect(lines.some((line) => typeof line.msg === 'string' && line.msg.includes('ready'))).toBe(true);
    expect(lines.some((line) => line.msg === 'database migrations applied')).toBe(true);
  });

  it('lets the generated admin sign in over HTTP', async () => {
    const pair = await login(first, GENERATED_ADMIN, password);
    const self = await api(first, 'GET', '/api/self', { token: pair.accessToken });
    expect(self.status).toBe(200);
    expect(await self.json()).toMatchObject({ email: GENERATED_ADMIN, role: 'ADMIN', id: pair.userId });
  });

  it('serves the API docs', async () => {
    const docs = await fetch(`${first.base}/api/docs`, { redirect: 'manual', signal: AbortSignal.timeout(10_000) });
    expect(docs.status).toBe(200);
    expect(docs.headers.get('content-type')).toMatch(/text\/html/);
    const openapi = await fetch(`${first.base}/api/openapi.json`, { signal: AbortSignal.timeout(10_000) });
    expect(openapi.status).toBe(200);
    expect(((await openapi.json()) as { openapi: string }).openapi).toMatch(/^3\./);
  });

  it('on SIGTERM finishes an in-flight request, logs "stopped" and exits 0', async () => {
    // The server has read the head of a sign-in whose body is still to come when the signal arrives.
    const inFlight = heldRequest(first, 'POST', '/api/auth/login', { email: GENERATED_ADMIN, password });
    await inFlight.accepted;
    first.child.kill('SIGTERM');
    await waitForLog(first, (line) => typeof line.msg === 'string' && line.msg.startsWith('stopping'));
    inFlight.sendBody();
    const answer = await inFlight.done;
    expect(answer.status, answer.body).toBe(200);
    expect(JSON.parse(answer.body)).toHaveProperty('accessToken');
    const exit = await Promise.race([first.exited, sleep(15_000).then(() => undefined)]);
    expect(exit, 'exited within 15 s of SIGTERM').toEqual({ code: 0, signal: null });
    const lines = first.logLines();
    const stopping = lines.findIndex((line) => typeof line.msg === 'string' && line.msg.startsWith('stopping'));
    const completed = lines.findLastIndex((line) => line.msg === 'request completed' && line.path === '/api/auth/login');
    const stopped = lines.findIndex((line) => line.msg === 'stopped');
    // The sign-in really was in flight: it completed after the signal was handled, before 'stopped'.
    expect(stopping, first.stdout()).toBeGreaterThanOrEqual(0);
    expect(completed).toBeGreaterThan(stopping);
    expect(stopped).toBeGreaterThan(completed);
    // New connections are refused once it stopped.
    await expect(fetch(`${first.base}/api/health`, { signal: AbortSignal.timeout(2000) })).rejects.toThrow();
  });

  it('keeps its data across a restart on the same database', async () => {
    expect(first.exit).toBeDefined();
    const second = await startHealthy({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'info' });
    expect(passwordLines(second)).toEqual([]);
    expect(second.stdout()).not.toContain(password);
    // Nothing left to migrate.
    expect(second.logLines().some((line) => line.msg === 'database migrations applied')).toBe(false);
    const pair = await login(second, GENERATED_ADMIN, password);
    expect((await api(second, 'GET', '/api/self', { token: pair.accessToken })).status).toBe(200);
    // The printed password must be replaced before anything else.
    const held = await api(second, 'GET', '/api/users', { token: pair.accessToken });
    expect(held.status).toBe(403);
    expect(((await held.json()) as { code: string }).code).toBe('PASSWORD_CHANGE_REQUIRED');
    const changed = await api(second, 'PUT', '/api/self/password', {
      token: pair.accessToken,
      body: { currentPassword: password, newPassword: 'chosen-by-the-admin-1' },
    });
    expect(changed.status).toBe(204);
    const users = await api(second, 'GET', '/api/users', { token: pair.accessToken });
    expect(users.status).toBe(200);
    const body = (await users.json()) as { content: { email: string }[] };
    expect(body.content.map((user) => user.email)).toEqual([GENERATED_ADMIN]);
    expect(await stopServer(second)).toEqual({ code: 0, signal: null });
  });
});

describe('a server with a bad configuration', () => {
  it('exits with code 1 and names every bad key on stderr', async () => {
    // The configuration is refused before any database is reached (nothing listens on port 1).
    const server = startServer({ DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none', PORT: 'abc', LOG_LEVEL: 'loud' });
    const exit = await Promise.race([server.exited, sleep(START_TIMEOUT_MS).then(() => undefined)]);
    expect(exit, `did not exit\n${server.stdout()}`).toEqual({ code: 1, signal: null });
    expect(server.stderr()).toContain('PORT');
    expect(server.stderr()).toContain('LOG_LEVEL');
    expect(passwordLines(server)).toEqual([]);
  });
});

describe('the log of a running server', () => {
  it('holds no password, token or password hash', async () => {
    const databaseUrl = await freshDatabase();
    const server = await startHealthy({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'trace', REQUEST_LOG: 'true' });
    const generated = generatedPassword(server);
    const wrongPassword = 'Wrong-Passw0rd-q7Xk';
    const newPassword = 'New-Passw0rd-m4Ry-secret';

    const pair = await login(server, GENERATED_ADMIN, generated);
    const failed = await api(server, 'POST', '/api/auth/login', { body: { email: GENERATED_ADMIN, password: wrongPassword } });
    expect(failed.status).toBe(401);
    const failedRequestId = failed.headers.get('x-request-id');
    const wrongCurrent = await api(server, 'PUT', '/api/self/password', { token: pair.accessToken, body: { currentPassword: wrongPassword, newPassword } });
    expect(wrongCurrent.status).toBe(400);
    const changed = await api(server, 'PUT', '/api/self/password', { token: pair.accessToken, body: { currentPassword: generated, newPassword } });
    expect(changed.status, await changed.clone().text()).toBe(204);
    const refreshed = await api(server, 'POST', '/api/auth/refresh', { body: { refreshToken: pair.refreshToken } });
    expect(refreshed.status).toBe(200);
    const next = (await refreshed.json()) as TokenPair;
    expect((await api(server, 'GET', '/api/self', { token: next.accessToken })).status).toBe(200);
    // A replayed (already rotated) refresh token and a bad bearer are logged as failures too.
    expect((await api(server, 'POST', '/api/auth/refresh', { body: { refreshToken: pair.refreshToken } })).status).toBe(401);
    expect((await api(server, 'GET', '/api/self', { token: next.accessToken })).status).toBe(401);
    const again = await login(server, GENERATED_ADMIN, newPassword);
    expect(await stopServer(server)).toEqual({ code: 0, signal: null });

    const log = server.stdout() + server.stderr();
    expect(log).toContain('request completed');
    // One line per request, carrying the id the response echoed in x-request-id.
    expect(failedRequestId).toMatch(/^[0-9a-f-]{36}$/);
    const failedLines = server.logLines().filter((line) => line.reqId === failedRequestId && line.msg === 'request completed');
    expect(failedLines).toEqual([expect.objectContaining({ method: 'POST', path: '/api/auth/login', status: 401 })]);
    // The bootstrap line is the only place the generated password appears.
    expect(log.split(generated).length - 1).toBe(1);
    for (const secret of [
      wrongPassword,
      newPassword,
      pair.accessToken,
      pair.refreshToken,
      next.accessToken,
      next.refreshToken,
      again.accessToken,
      again.refreshToken,
      '$argon2',
    ]) {
      expect(log, `the log contains ${secret}`).not.toContain(secret);
    }
    // Nor the token signing secret the server generated and kept in its database.
    const handle = await openDatabase({ kind: 'postgres', url: databaseUrl, poolSize: 1 });
    try {
      const [row] = await handle.db.select().from(serverSettings).where(eq(serverSettings.key, 'token_signing_secret'));
      expect(row?.value.length).toBeGreaterThanOrEqual(32);
      expect(log).not.toContain(row!.value);
    } finally {
      await handle.close();
    }
  });
});

describe('two server processes on one PostgreSQL database', () => {
  let created: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let a: ServerProcess;
  let b: ServerProcess;

  beforeAll(async () => {
    created = await createPostgresDatabase();
    const env = { DATABASE_URL: created.url, LOG_LEVEL: 'info', DATABASE_POOL_SIZE: '4' };
    const portA = await freePort();
    let portB = await freePort();
    while (portB === portA) portB = await freePort();
    a = startServer(env, portA);
    b = startServer(env, portB);
    await Promise.all([waitHealthy(a), waitHealthy(b)]);
  });
  afterAll(async () => {
    for (const server of [a, b]) if (server && !server.exit) await stopServer(server).catch(() => server.child.kill('SIGKILL'));
    await created?.drop();
  });

  it('both start, and exactly one admin is created with one password printed', async () => {
    const lines = [...passwordLines(a), ...passwordLines(b)];
    expect(lines, a.stdout() + b.stdout()).toHaveLength(1);
    const sql = postgres(created.url, { max: 1, onnotice: () => {} });
    try {
      const rows = await sql<{ email: string; role: string }[]>`select email, role from users`;
      expect(rows).toEqual([{ email: GENERATED_ADMIN, role: 'ADMIN' }]);
      const secrets = await sql`select key from server_settings where key = 'token_signing_secret'`;
      expect(secrets).toHaveLength(1);
    } finally {
      await sql.end();
    }
  });

  it('shares tokens and revocations between the processes at once', async () => {
    const password = PASSWORD_LINE.exec([...passwordLines(a), ...passwordLines(b)][0]!)![1]!;
    const pair = await login(a, GENERATED_ADMIN, password);
    const onB = await api(b, 'GET', '/api/self', { token: pair.accessToken });
    expect(onB.status).toBe(200);
    expect(((await onB.json()) as { id: string }).id).toBe(pair.userId);
    // And the other way round: a pair from B works on A.
    const fromB = await login(b, GENERATED_ADMIN, password);
    expect((await api(a, 'GET', '/api/self', { token: fromB.accessToken })).status).toBe(200);

    const logout = await api(a, 'POST', '/api/auth/logout', { token: pair.accessToken });
    expect(logout.status).toBe(204);
    const refused = await api(b, 'GET', '/api/self', { token: pair.accessToken });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect((await api(b, 'POST', '/api/auth/refresh', { body: { refreshToken: pair.refreshToken } })).status).toBe(401);
    // The other session is untouched.
    expect((await api(b, 'GET', '/api/self', { token: fromB.accessToken })).status).toBe(200);
  });

  it('both stop cleanly on SIGTERM', async () => {
    const [exitA, exitB] = await Promise.all([stopServer(a), stopServer(b)]);
    expect(exitA).toEqual({ code: 0, signal: null });
    expect(exitB).toEqual({ code: 0, signal: null });
  });
});

describe('SIGTERM with SHUTDOWN_DRAIN_DELAY (docs/deployment.md#rolling-restarts)', () => {
  it('fails readiness at once, goes on serving through the delay (a repeated SIGTERM changes nothing), then exits 0', async () => {
    const server = await startHealthy({ DATABASE_URL: await freshDatabase(), LOG_LEVEL: 'info', SHUTDOWN_DRAIN_DELAY: '1500ms' });
    expect((await fetch(`${server.base}/api/health/ready`)).status).toBe(200);
    const signalled = Date.now();
    server.child.kill('SIGTERM');
    // Once the signal is handled (its log line), readiness fails: no fixed wait for it.
    await waitForLog(server, (line) => typeof line.msg === 'string' && line.msg.startsWith('stopping'));
    const ready = await fetch(`${server.base}/api/health/ready`);
    expect(ready.status).toBe(503);
    expect(((await ready.json()) as { code: string }).code).toBe('SERVICE_UNAVAILABLE');
    expect(ready.headers.get('retry-after')).not.toBeNull();
    server.child.kill('SIGTERM');
    // Still serving, on new connections too, while the balancer moves away.
    expect((await fetch(`${server.base}/api/health`)).status).toBe(200);
    expect((await fetch(`${server.base}/api/settings`)).status).toBe(200);
    const exit = await Promise.race([server.exited, sleep(15_000).then(() => undefined)]);
    expect(exit).toEqual({ code: 0, signal: null });
    expect(Date.now() - signalled).toBeGreaterThanOrEqual(1500);
    await expect(fetch(`${server.base}/api/health`, { signal: AbortSignal.timeout(2000) })).rejects.toThrow();
  });
});
