import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, expectProblem, type TestApp } from '../../helpers/app.js';
import type { Page } from '../../helpers/contract.js';
import { createTestDatabase, StatementCounter } from '../../helpers/database.js';
import { insertDepartment, insertDesk, insertEquipment, insertReport, insertRoom } from '../../helpers/fixtures.js';

/**
 * totalElements of the searches on every path the repository takes: a full first page, a last
 * page with room to spare, a page past the end and an empty result. Every search reads the total
 * from its one statement and counts apart only past the end. Statements are counted through openDatabase's onQuery hook,
 * beyond those of authentication (measured on a request refused after it).
 */

const ROOMS = 5;
const MONITOR_REPORTS = 3;

describe('search totals', () => {
  let t: TestApp;
  let token: string;
  const counter = new StatementCounter();

  /** A search refused by body validation runs authentication only: what it costs right now. */
  const refused = async () => {
    expectProblem(await t.request({ method: 'POST', url: '/api/search/rooms', token, payload: { unknown: 1 } }), 400, 'VALIDATION_FAILED');
  };

  beforeAll(async () => {
    const database = await createTestDatabase({ onQuery: counter.onQuery });
    t = await createTestApp({ database, timedJobs: false });
    token = await t.adminToken();
    const db = t.database.handle.db;
    const reporter = (await t.request({ method: 'GET', url: '/api/self', token })).json<{ id: string }>().id;
    // Three departments in Lisbon, each room with one docked desk; a fourth department without rooms.
    const lisbon = [];
    for (let index = 0; index < 3; index++) lisbon.push(await insertDepartment(db, { location: 'Lisbon', building: `B${index}`, floor: index }));
    await insertDepartment(db, { location: 'Porto', building: 'P', floor: 0 });
    for (let index = 0; index < ROOMS; index++) {
      const room = await insertRoom(db, lisbon[index % lisbon.length]!.id, { name: `Room ${index}` });
      const desk = await insertDesk(db, room.id, { name: `Desk ${index}` });
      await insertEquipment(db, desk.id, { type: 'DOCKING_STATION', name: 'Dock' });
    }
    for (let index = 0; index < MONITOR_REPORTS; index++) await insertReport(db, { reportedBy: reporter, title: `Monitor ${index} flickers` });
    await insertReport(db, { reportedBy: reporter, title: 'Chair is broken' });
  });
  // The app does not own a database it was given: dispose of it here.
  afterAll(async () => {
    await t?.close();
    await t?.database.dispose();
  });

  async function search<T>(path: string, payload: object, query: Record<string, string>): Promise<{ page: Page<T>; statements: number }> {
    // Authentication measured just before, warm: measured once up front, a cache entry expiring in
    // between (a slow machine) made the search look free.
    await refused();
    const { statements: authentication } = await counter.count(refused);
    const { result: response, statements } = await counter.count(() => t.request({ method: 'POST', url: `/api/search/${path}`, token, payload, query }));
    expect(response.statusCode).toBe(200);
    return { page: response.json<Page<T>>(), statements: statements - authentication };
  }

  describe('rooms', () => {
    const docked = { department: { location: 'lisbon' }, equipment: [{ type: 'DOCKING_STATION' }] };

    it('a full first page carries the total of all matches in its one statement', async () => {
      const { page, statements } = await search('rooms', docked, { size: '2' });
      expect(page).toMatchObject({ totalElements: ROOMS, totalPages: 3, numberOfElements: 2, first: true, last: false });
      expect(statements).toBe(1);
    });

    it('the last page, with room to spare, has the same total', async () => {
      const { page, statements } = await search('rooms', docked, { size: '2', page: '2' });
      expect(page).toMatchObject({ totalElements: ROOMS, numberOfElements: 1, last: true });
      expect(statements).toBe(1);
    });

    it('a page past the end counts apart and still answers the total', async () => {
      const { page, statements } = await search('rooms', docked, { size: '2', page: '7' });
      expect(page).toMatchObject({ totalElements: ROOMS, totalPages: 3, content: [], empty: true, last: true });
      expect(statements).toBe(2);
    });

    it('no match on the first page is a total of 0 without a count', async () => {
      const { page, statements } = await search('rooms', { department: { location: 'Porto' } }, {});
      expect(page).toMatchObject({ totalElements: 0, totalPages: 0, content: [], empty: true });
      expect(statements).toBe(1);
    });
  });

  describe('departments', () => {
    const withRooms = { room: { name: 'room' } };

    it('reads the total from its one statement on full and last pages', async () => {
      const first = await search('departments', withRooms, { size: '2' });
      expect(first.page).toMatchObject({ totalElements: 3, totalPages: 2, numberOfElements: 2 });
      expect(first.statements).toBe(1);
      const last = await search('departments', withRooms, { size: '2', page: '1' });
      expect(last.page).toMatchObject({ totalElements: 3, numberOfElements: 1, last: true });
      expect(last.statements).toBe(1);
    });

    it('counts apart only past the end; no match is 0', async () => {
      const past = await search('departments', withRooms, { size: '2', page: '4' });
      expect(past.page).toMatchObject({ totalElements: 3, content: [], empty: true });
      expect(past.statements).toBe(2);
      const none = await search('departments', { department: { location: 'Oslo' } }, {});
      expect(none.page).toMatchObject({ totalElements: 0, content: [] });
      expect(none.statements).toBe(1);
    });
  });

  describe('reports', () => {
    it('a full page carries the total of all matches in its one statement', async () => {
      const { page, statements } = await search('reports', { title: 'monitor' }, { size: '2' });
      expect(page).toMatchObject({ totalElements: MONITOR_REPORTS, totalPages: 2, numberOfElements: 2 });
      expect(statements).toBe(1);
    });

    it('a page with room to spare has the same total, in one statement', async () => {
      const first = await search('reports', { title: 'monitor' }, { size: '5' });
      expect(first.page).toMatchObject({ totalElements: MONITOR_REPORTS, numberOfElements: MONITOR_REPORTS, last: true });
      expect(first.statements).toBe(1);
      const last = await search('reports', { title: 'monitor' }, { size: '2', page: '1' });
      expect(last.page).toMatchObject({ totalElements: MONITOR_REPORTS, numberOfElements: 1, last: true });
      expect(last.statements).toBe(1);
    });

    it('a page past the end is counted; no match on the first page is 0 without a count', async () => {
      const past = await search('reports', { title: 'monitor' }, { size: '2', page: '5' });
      expect(past.page).toMatchObject({ totalElements: MONITOR_REPORTS, content: [], empty: true, last: true });
      expect(past.statements).toBe(2);
      const none = await search('reports', { title: 'keyboard' }, {});
      expect(none.page).toMatchObject({ totalElements: 0, totalPages: 0, content: [] });
      expect(none.statements).toBe(1);
    });
  });
});
