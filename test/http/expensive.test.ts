import { request as httpRequest, type ClientRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { insertDepartment } from '../helpers/fixtures.js';

/**
 * The per-user limit on costly operations (EXPENSIVE_CONCURRENCY_PER_USER): searches, statistics
 * and image uploads of one user beyond the limit answer 429 while the others run; other users and
 * other operations are not affected, and a slot comes back when its request ends however it
 * ends: answered, failed, or abandoned by the client (then only once the work is done).
 */

const LIMIT = 2;
const PASSWORD = 'expensive-password-1';

describe('per-user limit on costly operations', () => {
  let t: TestApp;
  let base: string;
  let port: number;
  let admin: string;
  let users = 0;
  const open: ClientRequest[] = [];

  beforeAll(async () => {
    t = await createTestApp({ env: { EXPENSIVE_CONCURRENCY_PER_USER: String(LIMIT), LOGIN_MAX_ATTEMPTS_PER_ADDRESS: '10000' } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
    base = `http://127.0.0.1:${port}`;
    admin = await t.adminToken();
  });
  afterAll(async () => {
    for (const request of open) request.destroy();
    // Sockets of requests the test abandoned may still be open on the server's side.
    t?.app.server.closeAllConnections();
    await t?.close();
  });

  /** A new USER, so that no test sees slots of another. */
  async function newUser(): Promise<{ id: string; token: string }> {
    const email = `user${++users}@example.test`;
    const { id } = await t.createUser({ email, password: PASSWORD });
    return { id, token: (await t.login(email, PASSWORD)).accessToken };
  }

  const call = (method: string, path: string, token: string, body?: unknown) =>
    fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const searchStatus = async (token: string) => (await call('POST', '/api/search/rooms', token, {})).status;

  /** Starts an image upload and sends only part of its body: the request holds its slot while the body is awaited. */
  function heldUpload(path: string, token: string): ClientRequest {
    const request = httpRequest({
      host: '127.0.0.1',
      port,
      method: 'PUT',
      path,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'image/png', 'content-length': '100000' },
    });
    request.on('error', () => undefined);
    request.write(Buffer.alloc(1000));
    open.push(request);
    return request;
  }
  const answerOf = (request: ClientRequest) =>
    new Promise<number>((resolve) => {
      request.on('response', (response) => {
        response.resume();
        resolve(response.statusCode!);
      });
    });

  /**
   * LIMIT held uploads that the server has let in (none answered 429). A request racing them (a
   * search of the same user still running) can take a slot first: then they are tried again.
   */
  async function holdAllSlots(path: string, token: string): Promise<ClientRequest[]> {
    for (let attempt = 1; attempt <= 10; attempt++) {
      const held = Array.from({ length: LIMIT }, () => heldUpload(path, token));
      const refused = held.map((request) => answerOf(request).then(() => true));
      // Long enough for the server to authenticate them and take their slots.
      const anyRefused = await Promise.race([Promise.any(refused), sleep(100 * attempt).then(() => false)]);
      if (!anyRefused) return held;
      for (const request of held) request.destroy();
      await sleep(200);
    }
    throw new Error('the uploads were refused every time');
  }

  /** Every slot of the user is free: with LIMIT − 1 of them taken anew, a search still gets one. */
  async function expectAllSlotsFree(user: { id: string; token: string }): Promise<void> {
    const probes = Array.from({ length: LIMIT - 1 }, () => heldUpload(`/api/users/${user.id}/avatar`, user.token));
    await expect.poll(() => searchStatus(user.token), { timeout: 10_000 }).toBe(200);
    for (const probe of probes) probe.destroy();
  }

  it('answers 429 with Retry-After beyond the limit, to that user only, until the slots come back', async () => {
    const alice = await newUser();
    const bob = await newUser();
    const held = await holdAllSlots(`/api/users/${alice.id}/avatar`, alice.token);
    expect(await searchStatus(alice.token)).toBe(429);

    const refused = await call('POST', '/api/search/departments', alice.token, {});
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(await refused.json()).toMatchObject({ status: 429, code: 'TOO_MANY_CONCURRENT_REQUESTS' });
    expect((await call('POST', '/api/search/reports', alice.token, {})).status).toBe(429);
    // A third upload is refused before its body is read.
    expect((await call('PUT', `/api/users/${alice.id}/avatar`, alice.token)).status).toBe(429);
    // Cheap operations of the same user, and costly ones of others, go on.
    expect((await call('GET', '/api/self', alice.token)).status).toBe(200);
    expect(await searchStatus(bob.token)).toBe(200);

    // One upload ends with an answer (its body is no image: 415), the other is abandoned by the client.
    const answered = answerOf(held[0]!);
    held[0]!.end(Buffer.alloc(99_000));
    expect(await answered).toBe(415);
    held[1]!.destroy();
    await expectAllSlotsFree(alice);
  });

  it('counts statistics and department images of an admin alike', async () => {
    const department = await insertDepartment(t.database.handle.db);
    const held = await holdAllSlots(`/api/departments/${department.id}/image`, admin);
    expect((await call('GET', '/api/stats', admin)).status).toBe(429);
    for (const request of held) request.destroy();
    await expect.poll(async () => (await call('GET', '/api/stats', admin)).status, { timeout: 10_000 }).toBe(200);
  });

  it('counts the floor-plan availability among them', async () => {
    const department = await insertDepartment(t.database.handle.db);
    const carol = await newUser();
    const availability = `/api/departments/${department.id}/floor-plan/availability?from=2031-01-01T00:00:00Z&to=2031-01-31T00:00:00Z`;
    const held = await holdAllSlots(`/api/users/${carol.id}/avatar`, carol.token);
    const refused = await call('GET', availability, carol.token);
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { code: string }).code).toBe('TOO_MANY_CONCURRENT_REQUESTS');
    // Another user's availability is not held up.
    expect([200, 404]).toContain((await call('GET', availability, admin)).status);
    for (const request of held) request.destroy();
    await expect.poll(async () => (await call('GET', availability, carol.token)).status, { timeout: 10_000 }).not.toBe(429);
  });

  it('documents the 429 on every costly operation', async () => {
    const document = (await t.request({ method: 'GET', url: '/api/openapi.json' })).json<{
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    }>();
    const costly = [
      ['/api/search/rooms', 'post'],
      ['/api/search/departments', 'post'],
      ['/api/search/reports', 'post'],
      ['/api/stats', 'get'],
      ['/api/users/{id}/avatar', 'put'],
      ['/api/departments/{departmentId}/image', 'put'],
      ['/api/departments/{departmentId}/floor-plan/availability', 'get'],
    ] as const;
    for (const [path, method] of costly) expect(Object.keys(document.paths[path]![method]!.responses), `${method} ${path}`).toContain('429');
    expect(Object.keys(document.paths['/api/self']!.get!.responses)).not.toContain('429');
  });

  // A search held up in the database (its table locked by another transaction) is work in progress.
  it('keeps the slot of a request whose client gave up until its work is done', async () => {
    const carol = await newUser();
    let unlock!: () => void;
    let locked!: () => void;
    const lockTaken = new Promise<void>((resolve) => (locked = resolve));
    const lockHeld = t.database.handle.db.transaction(async (tx) => {
      await tx.execute(sql`lock table desks in access exclusive mode`);
      locked();
      await new Promise<void>((resolve) => (unlock = resolve));
    });
    await lockTaken;
    const controllers = Array.from({ length: LIMIT }, () => new AbortController());
    const stuck = controllers.map((controller) =>
      fetch(`${base}/api/search/rooms`, {
        method: 'POST',
        headers: { authorization: `Bearer ${carol.token}`, 'content-type': 'application/json' },
        body: '{}',
        signal: controller.signal,
      }).catch((error: unknown) => error),
    );
    const waitingForLock = async () =>
      (
        await queryRows<{ count: number }>(
          t.database.handle.db,
          sql`select count(*)::int as count from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
        )
      )[0]!.count;
    await expect.poll(waitingForLock, { timeout: 10_000 }).toBe(LIMIT);
    expect(await searchStatus(carol.token)).toBe(429);
    for (const controller of controllers) controller.abort();
    await Promise.all(stuck);
    // The searches still wait for the lock: their slots stay taken. A fixed wait, as what is
    // checked is that nothing happens (a slot freed too early), so there is no event to wait on.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await searchStatus(carol.token)).toBe(429);
    unlock();
    await lockHeld;
    await expectAllSlotsFree(carol);
  });
});
