import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import type { Page } from '../../helpers/contract.js';
import { createTestDatabase, StatementCounter } from '../../helpers/database.js';
import { insertDeskInNewRoom, insertReport } from '../../helpers/fixtures.js';

/**
 * totalElements of GET /api/report and of a room's reports: the page carries the total (one
 * statement beyond authentication; for a room, its existence is read in that same statement,
 * docs/benchmarks.md#statements-per-request); past the end, GET /api/report counts apart. Statements are counted through openDatabase's onQuery hook, beyond those of
 * authentication (measured on a request refused after it).
 */

describe('report list totals', () => {
  let t: TestApp;
  let token: string;
  let roomUrl: string;
  const counter = new StatementCounter();

  /** A request refused after authentication: what authenticating costs right now. */
  const refused = async () => {
    expect((await t.request({ method: 'GET', url: '/api/report', token, query: { size: '0' } })).statusCode).toBe(400);
  };

  beforeAll(async () => {
    const database = await createTestDatabase({ onQuery: counter.onQuery });
    t = await createTestApp({ database, timedJobs: false });
    const db = t.database.handle.db;
    token = await t.adminToken();
    const reporter = (await t.request({ method: 'GET', url: '/api/self', token })).json<{ id: string }>().id;
    const place = await insertDeskInNewRoom(db);
    roomUrl = `/api/departments/${place.department.id}/rooms/${place.room.id}/reports`;
    // Five reports: two about the room, three without a place.
    for (let index = 0; index < 5; index++) {
      await insertReport(db, {
        reportedBy: reporter,
        title: `Report ${index}`,
        ...(index < 2 ? { departmentId: place.department.id, roomId: place.room.id } : {}),
      });
    }
  });
  // The app does not own a database it was given: dispose of it here.
  afterAll(async () => {
    await t?.close();
    await t?.database.dispose();
  });

  async function list(url: string, query: Record<string, string>): Promise<{ page: Page<unknown>; statements: number }> {
    // Authentication measured just before, on a warm cache, as the listing finds it: measured once
    // up front, a cache entry expiring in between (a slow machine) made the listing look free.
    await refused();
    const { statements: authentication } = await counter.count(refused);
    const { result: response, statements } = await counter.count(() => t.request({ method: 'GET', url, token, query }));
    expect(response.statusCode).toBe(200);
    return { page: response.json(), statements: statements - authentication };
  }

  it('full, last and past-the-end pages of all reports answer the total of all', async () => {
    const first = await list('/api/report', { size: '2' });
    expect(first.page).toMatchObject({ totalElements: 5, totalPages: 3, numberOfElements: 2 });
    expect(first.statements).toBe(1);
    const last = await list('/api/report', { size: '2', page: '2' });
    expect(last.page).toMatchObject({ totalElements: 5, numberOfElements: 1, last: true });
    expect(last.statements).toBe(1);
    const past = await list('/api/report', { size: '2', page: '6' });
    expect(past.page).toMatchObject({ totalElements: 5, content: [], empty: true, last: true });
    expect(past.statements).toBe(2);
  });

  it("a room's reports: the total of that room, past the end included", async () => {
    const first = await list(roomUrl, { size: '1' });
    expect(first.page).toMatchObject({ totalElements: 2, totalPages: 2, numberOfElements: 1 });
    // The room's existence, the page and its total in one statement, past the end too.
    expect(first.statements).toBe(1);
    const past = await list(roomUrl, { size: '1', page: '4' });
    expect(past.page).toMatchObject({ totalElements: 2, content: [] });
    expect(past.statements).toBe(1);
  });

  it('a filter matching nothing is a total of 0 without a count', async () => {
    const none = await list('/api/report', { reportedBy: '00000000-0000-4000-8000-000000000000' });
    expect(none.page).toMatchObject({ totalElements: 0, totalPages: 0, content: [] });
    expect(none.statements).toBe(1);
  });
});
