import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { createTestDatabase, StatementCounter } from '../helpers/database.js';

/**
 * Every authenticated read costs at most two SQL statements on warm caches, for an admin and for
 * a user (docs/benchmarks.md#statements-per-request): one for the caller, one for the page with
 * its total (or the item). The operations come from the OpenAPI document, so a new GET is
 * measured without being listed here. Statements are counted through openDatabase's onQuery hook.
 */

const CEILING = 2;
/**
 * Reads that judge rather than list, with their own ceiling and why: the preview of "Book my usual"
 * runs the checks a booking makes for each proposed day (docs/favourites.md#book-my-usual); the QR
 * label sheet, an admin's print-out, reads the asking admin's language besides the room's desks
 * (docs/i18n.md#mails-and-the-calendar-feed).
 */
const CEILINGS: Record<string, number> = { 'GET /api/self/usual': 8, 'GET /api/rooms/{roomId}/qr-labels': 3 };
/** Tomorrow (UTC): inside the booking horizon. */
const DAY = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);

interface Operation {
  security?: Record<string, string[]>[];
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}

describe('SQL statements per authenticated read', () => {
  let t: TestApp;
  const counter = new StatementCounter();
  const tokens: Record<'ADMIN' | 'USER', string> = { ADMIN: '', USER: '' };
  const ids: Record<string, string> = {};
  let operations: { method: string; path: string }[] = [];
  let document: { paths: Record<string, Record<string, Operation>> };

  beforeAll(async () => {
    const database = await createTestDatabase({ onQuery: counter.onQuery });
    t = await createTestApp({ database, timedJobs: false });
    tokens.ADMIN = await t.adminToken();
    const user = await t.createUser({ email: 'counted@example.test', password: 'counted-password-1' });
    tokens.USER = (await t.login('counted@example.test', 'counted-password-1')).accessToken;
    const post = async (url: string, payload: object, token = tokens.ADMIN) => {
      const response = await t.request({ method: 'POST', url, token, payload });
      expect(response.statusCode, `${url}: ${response.body}`).toBeLessThan(300);
      return response.json<{ id: string }>().id;
    };
    ids.departmentId = await post('/api/departments', { location: 'Berlin', building: 'HQ', floor: 1 });
    ids.roomId = await post(`/api/departments/${ids.departmentId}/rooms`, { name: 'Room 1' });
    await post(`/api/departments/${ids.departmentId}/rooms`, { name: 'Room 2' });
    const room = `/api/departments/${ids.departmentId}/rooms/${ids.roomId}`;
    ids.deskId = await post(`${room}/desks`, { name: 'Desk 1' });
    await post(`${room}/desks`, { name: 'Desk 2' });
    ids.equipmentId = await post(`${room}/desks/${ids.deskId}/equipment`, { name: 'Dock', description: 'USB-C', type: 'DOCKING_STATION' });
    ids.reservationId = await post('/api/reservation', { deskId: ids.deskId, startTime: `${DAY}T09:00:00Z`, endTime: `${DAY}T10:00:00Z` }, tokens.USER);
    ids.reportId = await post('/api/report', { title: 'Broken', description: 'The lamp', roomId: ids.roomId, reportedBy: user.id }, tokens.USER);
    ids.id = user.id;
    // A team the USER is in, so its reads answer 200 to both roles (docs/policies.md#teams).
    ids.teamId = await post('/api/teams', { name: 'Counted team' });
    ids.userId = user.id;
    const added = await t.request({
      method: 'POST',
      url: `/api/teams/${ids.teamId}/members`,
      token: tokens.ADMIN,
      payload: { userIds: [user.id], role: 'MANAGER' },
    });
    expect(added.statusCode, added.body).toBe(204);

    document = (await t.request({ method: 'GET', url: '/api/openapi.json' })).json<{ paths: Record<string, Record<string, Operation>> }>();
    operations = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods)
        .filter(([method, operation]) => (method === 'get' || (method === 'post' && path.startsWith('/api/search/'))) && operation.security?.length !== 0)
        .map(([method]) => ({ method: method.toUpperCase(), path })),
    );
  });
  // The app does not own a database it was given: dispose of it here.
  afterAll(async () => {
    await t?.close();
    await t?.database.dispose();
  });

  /** The path with the fixture's ids; `{id}` names the operation's own kind of item. */
  function url(path: string): string {
    return path.replace(/\{(\w+)\}/g, (_, name: string) => {
      if (name !== 'id') return ids[name]!;
      if (path.startsWith('/api/reservation')) return ids.reservationId!;
      if (path.startsWith('/api/report')) return ids.reportId!;
      return ids.id!;
    });
  }

  it('finds the operations in the OpenAPI document', () => {
    expect(operations.length).toBeGreaterThanOrEqual(20);
    expect(operations).toContainEqual({ method: 'GET', path: '/api/self' });
    expect(operations).toContainEqual({ method: 'POST', path: '/api/search/rooms' });
  });

  it('answers each JSON read through the compiled serializer: a response schema for every status it documents', () => {
    // Fastify compiles a serializer (fast-json-stringify) for each status with a schema and falls
    // back to JSON.stringify for any other: every JSON answer must have one.
    const missing: string[] = [];
    for (const { method, path } of operations) {
      for (const [status, response] of Object.entries(document.paths[path]![method.toLowerCase()]!.responses)) {
        const json = response.content?.['application/json'] ?? response.content?.['application/problem+json'];
        // Images, pages (the QR label sheet) and 304 Not Modified carry no JSON.
        if (status === '304' || (response.content !== undefined && Object.keys(response.content).every((type) => !type.includes('json')))) continue;
        if (json?.schema === undefined) missing.push(`${method} ${path} ${status}`);
      }
    }
    expect(missing).toEqual([]);
  });

  for (const role of ['ADMIN', 'USER'] as const) {
    it(`answers each as ${role} in at least one and at most ${CEILING} statements`, async () => {
      const counts: Record<string, number> = {};
      for (const { method, path } of operations) {
        // Searches ask for pages of one, so each page is full: the case whose total once cost a count apart.
        const search = method === 'POST' ? { payload: {}, query: { size: '1' } } : {};
        const request = { method: method as 'GET' | 'POST', url: url(path), token: tokens[role], ...search };
        const warm = await t.request(request);
        // Images that were never uploaded answer 404; a user may not read others' sessions.
        expect(warm.statusCode, `${method} ${path}: ${warm.body}`).toBeLessThan(500);
        const { result, statements } = await counter.count(() => t.request(request));
        expect(result.statusCode).toBe(warm.statusCode);
        counts[`${method} ${path} (${result.statusCode})`] = statements;
      }
      const over = Object.entries(counts).filter(([key, count]) => count > (CEILINGS[key.replace(/ \(\d+\)$/, '')] ?? CEILING));
      expect(Object.fromEntries(over), JSON.stringify(counts, null, 1)).toEqual({});
      // The floor: a counter that counts nothing would pass the ceiling. Every answer with data
      // read it from the database (the caller is checked in the same statement or the next).
      const answered = Object.entries(counts).filter(([key]) => / \(2\d\d\)$/.test(key));
      expect(answered.length).toBeGreaterThanOrEqual(20);
      const none = answered.filter(([, count]) => count < 1);
      expect(Object.fromEntries(none), JSON.stringify(counts, null, 1)).toEqual({});
      expect(counts[`GET /api/reservation/{id} (200)`]).toBeGreaterThanOrEqual(1);
    });
  }
});
