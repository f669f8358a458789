import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { departments, desks, equipment, reports, reservations, rooms } from '../../../src/db/schema.js';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import type { Page } from '../../helpers/contract.js';
import { createTestDatabase, StatementCounter } from '../../helpers/database.js';

/**
 * Search is computed in SQL in a fixed number of statements: the same count for a page of 1 and
 * a page of 50 (no statement per room or desk). Statements are counted through openDatabase's
 * onQuery hook.
 */

const ROOMS = 60;
const DESKS_PER_ROOM = 3;
const DAY = '2030-01-07';
const at = (time: string) => new Date(`${DAY}T${time}Z`);

describe('search statement count', () => {
  let t: TestApp;
  let token: string;
  const counter = new StatementCounter();

  beforeAll(async () => {
    const database = await createTestDatabase({ onQuery: counter.onQuery });
    t = await createTestApp({ database, timedJobs: false });
    token = await t.adminToken();
    const ownerId = (await t.request({ method: 'GET', url: '/api/self', token })).json<{ id: string }>().id;
    const db = t.database.handle.db;

    const [department] = await db.insert(departments).values({ location: 'Berlin', building: 'HQ', floor: 1 }).returning();
    const roomRows = await db
      .insert(rooms)
      .values(Array.from({ length: ROOMS }, (_, index) => ({ departmentId: department!.id, name: `Room ${String(index).padStart(3, '0')}` })))
      .returning();
    const deskRows = await db
      .insert(desks)
      .values(roomRows.flatMap((room) => Array.from({ length: DESKS_PER_ROOM }, (_, index) => ({ roomId: room.id, name: `Desk ${index}` }))))
      .returning();
    await db.insert(equipment).values(deskRows.map((desk) => ({ deskId: desk.id, name: 'Dock', description: 'USB-C dock', type: 'DOCKING_STATION' as const })));
    // Every desk is partly reserved in the searched window: one hour in the morning.
    await db
      .insert(reservations)
      .values(deskRows.map((desk) => ({ userId: ownerId, deskId: desk.id, startTime: at('09:00:00'), endTime: at('10:00:00'), userExclusive: false })));
    await db
      .insert(reports)
      .values(
        Array.from({ length: 60 }, (_, index) => ({ title: `Report ${index}`, description: 'Broken', reportedBy: ownerId, roomId: roomRows[index]!.id })),
      );

    // One request before measuring: the first authenticated request may prepare statements.
    await t.request({ method: 'POST', url: '/api/search/rooms', token, payload: {} });
  });
  // The app does not own a database it was given: dispose of it here.
  afterAll(async () => {
    await t?.close();
    await t?.database.dispose();
  });

  /** The statements one request sends, and its page. */
  async function measure(url: string, payload: object, size: number): Promise<{ count: number; page: Page<{ desks?: unknown[] }> }> {
    const { result: response, statements } = await counter.count(() => t.request({ method: 'POST', url, token, payload, query: { size: String(size) } }));
    expect(response.statusCode).toBe(200);
    return { count: statements, page: response.json() };
  }

  const criteria = {
    department: { location: 'berlin' },
    room: { available: true },
    desk: { type: 'FLEX' },
    equipment: [{ type: 'DOCKING_STATION' }, { name: 'dock' }],
    reservation: {
      free: { start: `${DAY}T08:00:00Z`, end: `${DAY}T18:00:00Z`, partlyReserved: true, partlyBetween: 'PT2H' },
      full: { start: `${DAY}T09:00:00Z`, end: `${DAY}T10:00:00Z` },
    },
  };

  it('room search: the same few statements for a page of 1 and of 50 rooms', async () => {
    const one = await measure('/api/search/rooms', criteria, 1);
    const fifty = await measure('/api/search/rooms', criteria, 50);
    expect(one.page.totalElements).toBe(ROOMS);
    expect(one.page.content).toHaveLength(1);
    expect(fifty.page.content).toHaveLength(50);
    expect(fifty.page.content.every((room) => room.desks?.length === DESKS_PER_ROOM)).toBe(true);
    expect(fifty.count).toBe(one.count);
    // The session lookup, then one statement for the page, its total and its desks.
    expect(one.count).toBe(2);
  });

  it('department search and report search: the same few statements whatever the page size', async () => {
    const departmentOne = await measure('/api/search/departments', criteria, 1);
    const departmentFifty = await measure('/api/search/departments', criteria, 50);
    expect(departmentOne.page.totalElements).toBe(1);
    expect(departmentFifty.count).toBe(departmentOne.count);
    expect(departmentOne.count).toBe(2);

    const reportOne = await measure('/api/search/reports', { title: 'report' }, 1);
    const reportFifty = await measure('/api/search/reports', { title: 'report' }, 50);
    expect(reportOne.page.totalElements).toBe(60);
    expect(reportFifty.page.content).toHaveLength(50);
    expect(reportFifty.count).toBe(reportOne.count);
    // The session lookup, then one statement for the page and its total (a full page included).
    expect(reportOne.count).toBe(2);
  });
});
