import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ISO_UTC, createTestApp, expectProblem, type TestApp } from '../../helpers/app.js';
import { PAGEABLE_KEYS, PAGE_KEYS, type Page } from '../../helpers/contract.js';
import { insertDepartment, insertDesk, insertEquipment, insertReport, insertRoom } from '../../helpers/fixtures.js';

/** POST /api/search/reports (docs/behaviour.md#search): each member alone and combined, escaping, order, paging, refusals. */

interface ReportItem {
  id: string;
  title: string;
  description: string;
  reportedBy: string;
  departmentId: string | null;
  roomId: string | null;
  deskId: string | null;
  equipmentId: string | null;
  createdAt: string;
}

const REPORT_KEYS = ['createdAt', 'departmentId', 'description', 'deskId', 'equipmentId', 'id', 'reportedBy', 'roomId', 'title'];
const PASSWORD = 'report-search-password-1';
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';
const BASE = Date.parse('2030-02-01T08:00:00.000Z');
const hoursAfterBase = (hours: number) => new Date(BASE + hours * 3_600_000);

describe('search of reports', () => {
  let t: TestApp;
  let token: string;
  let userToken: string;
  let adminId: string;
  let userId: string;
  const place = { departmentA: '', departmentB: '', roomA1: '', roomA2: '', deskWindow: '', deskDoor: '', monitor: '' };
  const report = { monitor: '', chair: '', wifi: '', dead: '', hundred: '' };

  const post = (payload: unknown, options: { query?: Record<string, string>; token?: string | null } = {}) =>
    t.request({
      method: 'POST',
      url: '/api/search/reports',
      ...(payload === undefined ? {} : { payload: payload as object }),
      ...(options.query ? { query: options.query } : {}),
      token: options.token === null ? undefined : (options.token ?? token),
    });

  function ok(response: LightMyRequestResponse): Page<ReportItem> {
    if (response.statusCode !== 200) throw new Error(`expected 200, got ${response.statusCode}: ${response.body}`);
    return response.json<Page<ReportItem>>();
  }

  const search = async (criteria: unknown, query?: Record<string, string>) => ok(await post(criteria, { query }));
  const ids = (page: Page<ReportItem>) => page.content.map((item) => item.id);
  const fieldsOf = (problem: { errors?: { field: string }[] }) => problem.errors?.map((error) => error.field) ?? [];

  beforeAll(async () => {
    t = await createTestApp({ env: { LOGIN_MAX_ATTEMPTS_PER_ADDRESS: '100000' } });
    token = await t.adminToken();
    adminId = (await t.request({ method: 'GET', url: '/api/self', token })).json<{ id: string }>().id;
    userId = (await t.createUser({ email: 'reporter@example.test', password: PASSWORD })).id;
    userToken = (await t.login('reporter@example.test', PASSWORD)).accessToken;
    const db = t.database.handle.db;

    place.departmentA = (await insertDepartment(db, { location: 'Berlin' })).id;
    place.departmentB = (await insertDepartment(db, { location: 'Hamburg' })).id;
    place.roomA1 = (await insertRoom(db, place.departmentA, { name: 'A1' })).id;
    place.roomA2 = (await insertRoom(db, place.departmentA, { name: 'A2' })).id;
    place.deskWindow = (await insertDesk(db, place.roomA1, { name: 'Window' })).id;
    place.deskDoor = (await insertDesk(db, place.roomA1, { name: 'Door' })).id;
    place.monitor = (await insertEquipment(db, place.deskWindow, { type: 'MONITOR', name: 'LG' })).id;

    report.dead = (
      await insertReport(db, {
        title: 'Monitor dead',
        description: 'No signal',
        reportedBy: adminId,
        departmentId: place.departmentA,
        roomId: place.roomA2,
        createdAt: hoursAfterBase(0),
      })
    ).id;
    report.monitor = (
      await insertReport(db, {
        title: 'Broken monitor',
        description: 'Flickers at 100%',
        reportedBy: userId,
        departmentId: place.departmentA,
        roomId: place.roomA1,
        deskId: place.deskWindow,
        equipmentId: place.monitor,
        createdAt: hoursAfterBase(1),
      })
    ).id;
    report.chair = (
      await insertReport(db, {
        title: 'Chair squeaks',
        description: 'Loud_noise',
        reportedBy: adminId,
        departmentId: place.departmentA,
        roomId: place.roomA1,
        deskId: place.deskDoor,
        createdAt: hoursAfterBase(2),
      })
    ).id;
    report.wifi = (
      await insertReport(db, {
        title: 'WiFi slow',
        description: 'In the whole building',
        reportedBy: userId,
        departmentId: place.departmentB,
        createdAt: hoursAfterBase(3),
      })
    ).id;
    report.hundred = (await insertReport(db, { title: '100% broken', description: 'see C:\\temp', reportedBy: userId, createdAt: hoursAfterBase(4) })).id;
  });
  afterAll(() => t.close());

  it('without criteria lists every report, newest first, every field present', async () => {
    const page = await search({});
    expect(ids(page)).toEqual([report.hundred, report.wifi, report.chair, report.monitor, report.dead]);
    for (const item of page.content) {
      expect(Object.keys(item).sort()).toEqual(REPORT_KEYS);
      expect(item.createdAt).toMatch(ISO_UTC);
    }
    expect(page.content[1]).toEqual({
      id: report.wifi,
      title: 'WiFi slow',
      description: 'In the whole building',
      reportedBy: userId,
      departmentId: place.departmentB,
      roomId: null,
      deskId: null,
      equipmentId: null,
      createdAt: '2030-02-01T11:00:00.000Z',
    });
    expect(page.content[3]).toMatchObject({ roomId: place.roomA1, deskId: place.deskWindow, equipmentId: place.monitor });
    expect(ids(ok(await post(undefined)))).toEqual(ids(page));
  });

  it('matches title and description as substrings in any case, with %, _ and \\ literal', async () => {
    expect(ids(await search({ title: 'MONITOR' }))).toEqual([report.monitor, report.dead]);
    expect(ids(await search({ title: '0%' }))).toEqual([report.hundred]);
    expect(ids(await search({ description: 'flickers' }))).toEqual([report.monitor]);
    expect(ids(await search({ description: '100%' }))).toEqual([report.monitor]);
    expect(ids(await search({ description: '_' }))).toEqual([report.chair]);
    expect(ids(await search({ description: ':\\t' }))).toEqual([report.hundred]);
    expect(ids(await search({ description: '%' }))).toEqual([report.monitor]);
  });

  it('matches reportedBy, department, room, desk and equipment exactly', async () => {
    expect(ids(await search({ reportedBy: userId }))).toEqual([report.hundred, report.wifi, report.monitor]);
    expect(ids(await search({ reportedBy: adminId }))).toEqual([report.chair, report.dead]);
    expect(ids(await search({ department: place.departmentA }))).toEqual([report.chair, report.monitor, report.dead]);
    expect(ids(await search({ department: place.departmentB }))).toEqual([report.wifi]);
    expect(ids(await search({ room: place.roomA1 }))).toEqual([report.chair, report.monitor]);
    expect(ids(await search({ desk: place.deskDoor }))).toEqual([report.chair]);
    expect(ids(await search({ equipment: place.monitor }))).toEqual([report.monitor]);
    expect((await search({ room: UNKNOWN_ID })).totalElements).toBe(0);
  });

  it('combines members with AND', async () => {
    expect(ids(await search({ reportedBy: adminId, department: place.departmentA }))).toEqual([report.chair, report.dead]);
    expect(ids(await search({ title: 'monitor', reportedBy: userId }))).toEqual([report.monitor]);
    expect(ids(await search({ title: 'monitor', room: place.roomA2, description: 'signal' }))).toEqual([report.dead]);
    expect((await search({ title: 'wifi', department: place.departmentA })).totalElements).toBe(0);
  });

  it('pages and sorts', async () => {
    const page = await search({}, { page: '1', size: '2' });
    expect(Object.keys(page).sort()).toEqual(PAGE_KEYS);
    expect(Object.keys(page.pageable).sort()).toEqual(PAGEABLE_KEYS);
    expect(page).toMatchObject({ totalElements: 5, totalPages: 3, size: 2, number: 1, first: false, last: false, numberOfElements: 2, empty: false });
    expect(ids(page)).toEqual([report.chair, report.monitor]);
    expect(ids(await search({}, { sort: 'title' }))).toEqual([report.hundred, report.monitor, report.chair, report.dead, report.wifi]);
    expect(ids(await search({}, { sort: 'createdAt,asc' }))).toEqual([report.dead, report.monitor, report.chair, report.wifi, report.hundred]);
    const byReporter = await search({ reportedBy: adminId }, { sort: 'reportedBy' });
    expect(ids(byReporter)).toEqual([report.chair, report.dead]);
    expect(byReporter.sort).toEqual([{ direction: 'ASC', nullHandling: 'NATIVE', ascending: true, property: 'reportedBy', ignoreCase: false }]);
    expect(fieldsOf(expectProblem(await post({}, { query: { sort: 'name' } }), 400, 'VALIDATION_FAILED'))).toEqual(['sort']);
  });

  it('is open to a USER as well as an ADMIN, and to nobody without a token', async () => {
    expect(ids(ok(await post({ reportedBy: adminId }, { token: userToken })))).toEqual([report.chair, report.dead]);
    expectProblem(await post({}, { token: null }), 401, 'UNAUTHENTICATED');
  });

  it('refuses unknown members (the create names included), malformed ids and wrong types, naming the field', async () => {
    const cases: [unknown, string][] = [
      [{ departmentId: place.departmentA }, 'departmentId'],
      [{ roomId: place.roomA1 }, 'roomId'],
      [{ room: 'not-a-uuid' }, 'room'],
      [{ reportedBy: '42' }, 'reportedBy'],
      [{ title: 7 }, 'title'],
      [{ equipment: [place.monitor] }, 'equipment'],
    ];
    for (const [criteria, field] of cases) {
      expect(fieldsOf(expectProblem(await post(criteria), 400, 'VALIDATION_FAILED'))).toEqual([field]);
    }
  });
});
