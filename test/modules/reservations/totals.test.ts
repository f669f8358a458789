import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import type { Page } from '../../helpers/contract.js';
import { createTestDatabase, StatementCounter } from '../../helpers/database.js';
import { insertDeskInNewRoom, insertReservation } from '../../helpers/fixtures.js';

/**
 * totalElements of GET /api/reservation on every path: the page carries the total (one statement
 * beyond authentication), a page past the end counts apart, and the filters that join the desk
 * and room count through the same joins. Statements are counted through openDatabase's onQuery
 * hook, beyond those of authentication (measured on a request refused after it).
 */

const PASSWORD = 'totals-password-1';
const HOUR = 3_600_000;
const FIRST = Date.parse('2030-05-06T08:00:00.000Z');

describe('reservation list totals', () => {
  let t: TestApp;
  let aliceToken: string;
  let admin: string;
  let roomOfTwo: string;
  const counter = new StatementCounter();

  /** A list refused by query validation runs authentication only: what it costs right now. */
  const refused = async (token: string) => {
    expect((await t.request({ method: 'GET', url: '/api/reservation', token, query: { size: '0' } })).statusCode).toBe(400);
  };

  beforeAll(async () => {
    const database = await createTestDatabase({ onQuery: counter.onQuery });
    t = await createTestApp({ database, timedJobs: false });
    const db = t.database.handle.db;
    admin = await t.adminToken();
    const alice = await t.createUser({ email: 'alice@example.test', password: PASSWORD });
    const bob = await t.createUser({ email: 'bob@example.test', password: PASSWORD });
    aliceToken = (await t.login(alice.email, PASSWORD)).accessToken;
    const one = await insertDeskInNewRoom(db);
    const two = await insertDeskInNewRoom(db);
    roomOfTwo = two.room.id;
    // Alice: five reservations, three in the first room and two in the second; Bob: one.
    for (let index = 0; index < 5; index++) {
      const desk = index < 3 ? one.desk : two.desk;
      await insertReservation(db, {
        userId: alice.id,
        deskId: desk.id,
        startTime: new Date(FIRST + index * 24 * HOUR),
        endTime: new Date(FIRST + index * 24 * HOUR + HOUR),
      });
    }
    await insertReservation(db, { userId: bob.id, deskId: one.desk.id, startTime: new Date(FIRST + 10 * HOUR), endTime: new Date(FIRST + 11 * HOUR) });
  });
  // The app does not own a database it was given: dispose of it here.
  afterAll(async () => {
    await t?.close();
    await t?.database.dispose();
  });

  async function list(token: string, query: Record<string, string>): Promise<{ page: Page<{ userId: string }>; statements: number }> {
    // Authentication measured just before, warm, with the same token: measured once up front, a
    // cache entry expiring in between (a slow machine) made the listing look free.
    await refused(token);
    const { statements: authentication } = await counter.count(() => refused(token));
    const { result: response, statements } = await counter.count(() => t.request({ method: 'GET', url: '/api/reservation', token, query }));
    expect(response.statusCode).toBe(200);
    return { page: response.json(), statements: statements - authentication };
  }

  it("a USER's full first page and last page carry the total of their own reservations, in one statement", async () => {
    const first = await list(aliceToken, { size: '2' });
    expect(first.page).toMatchObject({ totalElements: 5, totalPages: 3, numberOfElements: 2, first: true, last: false });
    expect(first.statements).toBe(1);
    const last = await list(aliceToken, { size: '2', page: '2' });
    expect(last.page).toMatchObject({ totalElements: 5, numberOfElements: 1, last: true });
    expect(last.statements).toBe(1);
  });

  it('a page past the end counts apart and answers the same total', async () => {
    const past = await list(aliceToken, { size: '2', page: '9' });
    expect(past.page).toMatchObject({ totalElements: 5, totalPages: 3, content: [], empty: true, last: true });
    expect(past.statements).toBe(2);
  });

  it('an ADMIN sees the total of everyone, and of a room through the desk join, past the end included', async () => {
    expect((await list(admin, { size: '2' })).page.totalElements).toBe(6);
    const room = await list(admin, { roomId: roomOfTwo, size: '1' });
    expect(room.page).toMatchObject({ totalElements: 2, numberOfElements: 1 });
    expect(room.statements).toBe(1);
    const roomPast = await list(admin, { roomId: roomOfTwo, size: '1', page: '3' });
    expect(roomPast.page).toMatchObject({ totalElements: 2, content: [] });
    expect(roomPast.statements).toBe(2);
  });

  it('no reservation on the first page is a total of 0 without a count', async () => {
    const none = await list(admin, { roomId: '00000000-0000-4000-8000-000000000000' });
    expect(none.page).toMatchObject({ totalElements: 0, totalPages: 0, content: [], empty: true });
    expect(none.statements).toBe(1);
  });
});
