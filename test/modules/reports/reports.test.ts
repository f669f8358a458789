import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { desks, reports } from '../../../src/db/schema.js';
import { ISO_UTC, TestClock, UUID, createTestApp, expectProblem, type TestApp } from '../../helpers/app.js';
import { PAGEABLE_KEYS, PAGE_KEYS, SORT_KEYS, type Page } from '../../helpers/contract.js';
import { insertDepartment, insertDesk, insertEquipment, insertReport, insertRoom } from '../../helpers/fixtures.js';

/**
 * Defect reports (docs/behaviour.md#defect-reports, docs/api.md#roles, docs/api.md#limits): filing with place checks and filled-in parents,
 * listing, reading, deleting, the reports of a room, and what deletions of places and users do.
 */

const REPORT_KEYS = ['createdAt', 'departmentId', 'description', 'deskId', 'equipmentId', 'id', 'reportedBy', 'roomId', 'title'];
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';
const PASSWORD = 'report-password-1';
const START = new Date('2026-05-04T08:00:00.000Z');

interface ReportBody {
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

interface Place {
  departmentId: string;
  roomId: string;
  deskId: string;
  equipmentId: string;
}

const fieldsOf = (problem: { errors?: { field: string }[] }) => problem.errors?.map((error) => error.field) ?? [];

describe('reports', () => {
  let t: TestApp;
  let admin: string;
  let adminId: string;
  let userToken: string;
  let userId: string;
  let otherUserId: string;
  /** Department A: room A1 (desk A1a with equipment, desk A1b with equipment) and room A2 (desk A2a with equipment); department B: room B1 (desk B1a with equipment). */
  let a1a: Place;
  let a1b: Place;
  let a2a: Place;
  let b1a: Place;

  const post = (payload: unknown, token = userToken) => t.request({ method: 'POST', url: '/api/report', token, payload: payload as object });
  const get = (url: string, token: string = userToken, query?: Record<string, string | string[]>) =>
    t.request({ method: 'GET', url, token, ...(query ? { query } : {}) });
  const reportCount = async () => (await t.database.handle.db.select({ id: reports.id }).from(reports)).length;

  async function page(url: string, query?: Record<string, string | string[]>, token = userToken): Promise<Page<ReportBody>> {
    const response = await get(url, token, query);
    if (response.statusCode !== 200) throw new Error(`${url}: ${response.statusCode} ${response.body}`);
    return response.json<Page<ReportBody>>();
  }

  async function created(response: LightMyRequestResponse): Promise<ReportBody> {
    if (response.statusCode !== 200) throw new Error(`create report: ${response.statusCode} ${response.body}`);
    const report = response.json<ReportBody>();
    expect(Object.keys(report).sort()).toEqual(REPORT_KEYS);
    return report;
  }

  async function insertPlace(departmentId: string, roomId: string, deskName: string): Promise<Place> {
    const db = t.database.handle.db;
    const desk = await insertDesk(db, roomId, { name: deskName });
    const item = await insertEquipment(db, desk.id, { name: `${deskName} dock` });
    return { departmentId, roomId, deskId: desk.id, equipmentId: item.id };
  }

  beforeAll(async () => {
    t = await createTestApp({ clock: new TestClock(START) });
    admin = await t.adminToken();
    adminId = (await get('/api/self', admin)).json<{ id: string }>().id;
    userId = (await t.createUser({ email: 'reporter@example.test', password: PASSWORD })).id;
    userToken = (await t.login('reporter@example.test', PASSWORD)).accessToken;
    otherUserId = (await t.createUser({ email: 'other.reporter@example.test' })).id;

    const db = t.database.handle.db;
    const departmentA = await insertDepartment(db, { location: 'Berlin' });
    const departmentB = await insertDepartment(db, { location: 'Hamburg' });
    const roomA1 = await insertRoom(db, departmentA.id, { name: 'A1' });
    const roomA2 = await insertRoom(db, departmentA.id, { name: 'A2' });
    const roomB1 = await insertRoom(db, departmentB.id, { name: 'B1' });
    a1a = await insertPlace(departmentA.id, roomA1.id, 'A1a');
    a1b = await insertPlace(departmentA.id, roomA1.id, 'A1b');
    a2a = await insertPlace(departmentA.id, roomA2.id, 'A2a');
    b1a = await insertPlace(departmentB.id, roomB1.id, 'B1a');
  });
  afterAll(() => t.close());

  describe('POST /api/report', () => {
    it('files a report naming only a desk, filling in its room and department', async () => {
      t.clock.set(new Date('2026-05-04T08:05:30.250Z'));
      const report = await created(await post({ title: '  Wobbly desk  ', description: 'One leg is short.\n', reportedBy: userId, deskId: a1a.deskId }));
      expect(report.id).toMatch(UUID);
      expect(report.createdAt).toMatch(ISO_UTC);
      expect(report).toEqual({
        id: report.id,
        title: 'Wobbly desk',
        description: 'One leg is short.\n',
        reportedBy: userId,
        departmentId: a1a.departmentId,
        roomId: a1a.roomId,
        deskId: a1a.deskId,
        equipmentId: null,
        createdAt: '2026-05-04T08:05:30.250Z',
      });
      const [row] = await t.database.handle.db.select().from(reports).where(eq(reports.id, report.id));
      expect(row).toMatchObject({
        title: 'Wobbly desk',
        reportedBy: userId,
        departmentId: a1a.departmentId,
        roomId: a1a.roomId,
        deskId: a1a.deskId,
        equipmentId: null,
      });
      expect(row!.createdAt.toISOString()).toBe('2026-05-04T08:05:30.250Z');
      expect(await get(`/api/report/${report.id}`).then((response) => response.json())).toEqual(report);
    });

    it('fills in desk, room and department from an equipment item alone', async () => {
      const report = await created(await post({ title: 'Dock dead', description: 'No power', reportedBy: userId, equipmentId: a2a.equipmentId }));
      expect(report).toMatchObject({ departmentId: a2a.departmentId, roomId: a2a.roomId, deskId: a2a.deskId, equipmentId: a2a.equipmentId });
    });

    it('fills in the department of a room', async () => {
      const report = await created(await post({ title: 'Too warm', description: 'Heating stuck', reportedBy: userId, roomId: b1a.roomId }));
      expect(report).toMatchObject({ departmentId: b1a.departmentId, roomId: b1a.roomId, deskId: null, equipmentId: null });
    });

    it('accepts a full consistent chain, a department alone, and no place at all', async () => {
      const full = await created(await post({ title: 'Full', description: 'All ids', reportedBy: userId, ...a1b }));
      expect(full).toMatchObject(a1b);
      const department = await created(await post({ title: 'Lift', description: 'Broken', reportedBy: userId, departmentId: b1a.departmentId }));
      expect(department).toMatchObject({ departmentId: b1a.departmentId, roomId: null, deskId: null, equipmentId: null });
      const nowhere = await created(await post({ title: 'General', description: 'Coffee machine', reportedBy: userId }));
      expect(nowhere).toMatchObject({ departmentId: null, roomId: null, deskId: null, equipmentId: null });
      const skipping = await created(
        await post({
          title: 'Skip',
          description: 'Equipment and department',
          reportedBy: userId,
          equipmentId: a1a.equipmentId,
          departmentId: a1a.departmentId,
        }),
      );
      expect(skipping).toMatchObject(a1a);
    });

    it('lets a USER file only in their own name (403 otherwise, also for an unknown id), writing nothing', async () => {
      const before = await reportCount();
      expectProblem(await post({ title: 'For someone', description: 'x', reportedBy: otherUserId, deskId: a1a.deskId }), 403, 'FORBIDDEN');
      expectProblem(await post({ title: 'For nobody', description: 'x', reportedBy: UNKNOWN_ID }), 403, 'FORBIDDEN');
      expectProblem(await post({ title: 'For the admin', description: 'x', reportedBy: adminId }), 403, 'FORBIDDEN');
      expect(await reportCount()).toBe(before);
    });

    it('lets an ADMIN file for any existing user, and names reportedBy when the user does not exist', async () => {
      const forOther = await created(await post({ title: 'Filed by admin', description: 'On behalf', reportedBy: otherUserId, roomId: a1a.roomId }, admin));
      expect(forOther.reportedBy).toBe(otherUserId);
      const own = await created(await post({ title: 'Own', description: 'Admin report', reportedBy: adminId }, admin));
      expect(own.reportedBy).toBe(adminId);

      const before = await reportCount();
      const problem = expectProblem(await post({ title: 'Ghost', description: 'x', reportedBy: UNKNOWN_ID }, admin), 400, 'VALIDATION_FAILED');
      expect(problem.errors).toEqual([{ field: 'reportedBy', message: expect.any(String) }]);
      expect(await reportCount()).toBe(before);
    });

    it('names each unknown place id (400), writing nothing', async () => {
      const before = await reportCount();
      for (const member of ['departmentId', 'roomId', 'deskId', 'equipmentId']) {
        const problem = expectProblem(await post({ title: 'Unknown', description: 'x', reportedBy: userId, [member]: UNKNOWN_ID }), 400, 'VALIDATION_FAILED');
        expect(fieldsOf(problem)).toEqual([member]);
      }
      // An unknown id next to real ones: only the unknown one is named.
      const mixed = expectProblem(
        await post({ title: 'Unknown desk', description: 'x', reportedBy: userId, ...a1a, deskId: UNKNOWN_ID }),
        400,
        'VALIDATION_FAILED',
      );
      expect(fieldsOf(mixed)).toEqual(['deskId']);
      const unknownDepartment = expectProblem(
        await post({ title: 'x', description: 'x', reportedBy: userId, deskId: a1a.deskId, departmentId: UNKNOWN_ID }),
        400,
      );
      expect(fieldsOf(unknownDepartment)).toEqual(['departmentId']);
      expect(await reportCount()).toBe(before);
    });

    it('names the more specific member when the ids do not belong together (400), writing nothing', async () => {
      const before = await reportCount();
      const cases: [object, string][] = [
        [{ roomId: a1a.roomId, deskId: a2a.deskId }, 'deskId'],
        [{ departmentId: b1a.departmentId, roomId: a1a.roomId }, 'roomId'],
        [{ deskId: a1a.deskId, equipmentId: a1b.equipmentId }, 'equipmentId'],
        [{ ...a1a, equipmentId: a1b.equipmentId }, 'equipmentId'],
        [{ ...a1a, deskId: a2a.deskId, equipmentId: undefined }, 'deskId'],
        [{ roomId: a2a.roomId, equipmentId: a1a.equipmentId }, 'equipmentId'],
        [{ departmentId: b1a.departmentId, equipmentId: a1a.equipmentId }, 'equipmentId'],
        [{ departmentId: b1a.departmentId, deskId: a1a.deskId }, 'deskId'],
        // In neither the given room nor the given department: named once.
        [{ departmentId: b1a.departmentId, roomId: b1a.roomId, equipmentId: a1a.equipmentId }, 'equipmentId'],
      ];
      for (const [place, field] of cases) {
        const problem = expectProblem(await post({ title: 'Mismatch', description: 'x', reportedBy: userId, ...place }), 400, 'VALIDATION_FAILED');
        expect(fieldsOf(problem), JSON.stringify(place)).toEqual([field]);
      }
      // Two mismatches at once: each member named.
      const both = expectProblem(
        await post({ title: 'Mismatch', description: 'x', reportedBy: userId, departmentId: b1a.departmentId, roomId: a2a.roomId, deskId: a1a.deskId }),
        400,
      );
      expect(fieldsOf(both).sort()).toEqual(['deskId', 'roomId']);
      expect(await reportCount()).toBe(before);
    });

    it('validates the body strictly', async () => {
      const before = await reportCount();
      const valid = { title: 'Title', description: 'Description', reportedBy: userId };
      const cases: [object, string][] = [
        [{ ...valid, id: UNKNOWN_ID }, 'id'],
        [{ ...valid, createdAt: '2026-01-01T00:00:00Z' }, 'createdAt'],
        [{ description: 'x', reportedBy: userId }, 'title'],
        [{ title: 'x', reportedBy: userId }, 'description'],
        [{ title: 'x', description: 'x' }, 'reportedBy'],
        [{ ...valid, title: '' }, 'title'],
        [{ ...valid, title: '   ' }, 'title'],
        [{ ...valid, title: 'x'.repeat(201) }, 'title'],
        [{ ...valid, title: 42 }, 'title'],
        [{ ...valid, description: '' }, 'description'],
        [{ ...valid, description: ' \n ' }, 'description'],
        [{ ...valid, description: 'x'.repeat(10_001) }, 'description'],
        [{ ...valid, deskId: 'not-a-uuid' }, 'deskId'],
        [{ ...valid, roomId: null }, 'roomId'],
        [{ ...valid, reportedBy: 'nobody' }, 'reportedBy'],
      ];
      for (const [payload, field] of cases) {
        const problem = expectProblem(await post(payload), 400, 'VALIDATION_FAILED');
        expect(fieldsOf(problem), JSON.stringify(payload).slice(0, 100)).toEqual([field]);
      }
      expect(await reportCount()).toBe(before);
      const longest = await created(await post({ ...valid, title: 't'.repeat(200), description: 'd'.repeat(10_000) }));
      expect(longest.title).toHaveLength(200);
      expect(longest.description).toHaveLength(10_000);
    });

    it('answers 401 without a token', async () => {
      expectProblem(
        await t.request({ method: 'POST', url: '/api/report', payload: { title: 'x', description: 'x', reportedBy: userId } }),
        401,
        'UNAUTHENTICATED',
      );
    });
  });

  describe('reading and deleting', () => {
    /** Reports of their own: reporter and other user, at known times, two of them at the same instant. */
    let listed: ReportBody[];
    let reportedByOther: string[];
    const base = '/api/report';

    beforeAll(async () => {
      await t.database.handle.db.delete(reports);
      const db = t.database.handle.db;
      const rows = [
        await insertReport(db, { reportedBy: userId, title: 'Charlie', createdAt: new Date('2026-05-01T10:00:00Z'), ...a1a }),
        await insertReport(db, {
          reportedBy: otherUserId,
          title: 'Alpha',
          createdAt: new Date('2026-05-03T10:00:00Z'),
          roomId: a1a.roomId,
          departmentId: a1a.departmentId,
        }),
        await insertReport(db, { reportedBy: userId, title: 'Bravo', createdAt: new Date('2026-05-02T10:00:00Z') }),
        await insertReport(db, { reportedBy: otherUserId, title: 'Delta', createdAt: new Date('2026-05-02T10:00:00Z'), ...a2a }),
        await insertReport(db, { reportedBy: adminId, title: 'Echo', createdAt: new Date('2026-04-30T10:00:00Z'), ...b1a }),
      ];
      // The Report resource without the status columns, which have a resource of their own (docs/behaviour.md#report-status).
      listed = rows.map(({ status: _status, statusNote: _note, statusChangedAt: _at, statusChangedBy: _by, ...row }) => ({
        ...row,
        createdAt: row.createdAt.toISOString(),
      }));
      reportedByOther = rows.filter((row) => row.reportedBy === otherUserId).map((row) => row.id);
    });

    const byDefault = (items: ReportBody[]) =>
      [...items].sort((a, b) => (a.createdAt !== b.createdAt ? (a.createdAt < b.createdAt ? 1 : -1) : a.id < b.id ? -1 : 1)).map((item) => item.id);

    it('lists every report to a USER, newest first then id, in the page envelope (docs/api.md#page-envelope)', async () => {
      const result = await page(base);
      expect(Object.keys(result).sort()).toEqual(PAGE_KEYS);
      expect(Object.keys(result.pageable).sort()).toEqual(PAGEABLE_KEYS);
      expect(result.totalElements).toBe(5);
      expect(result.sort).toEqual([]);
      for (const item of result.content) expect(Object.keys(item).sort()).toEqual(REPORT_KEYS);
      expect(result.content.map((item) => item.id)).toEqual(byDefault(listed));
      // Spelled out: newest first; the two of 2026-05-02 in id order.
      const titles = result.content.map((item) => item.title);
      expect([titles[0], titles[3], titles[4]]).toEqual(['Alpha', 'Charlie', 'Echo']);
      expect([titles[1], titles[2]].sort()).toEqual(['Bravo', 'Delta']);
      expect(result.content.map((item) => item.createdAt)).toEqual([
        '2026-05-03T10:00:00.000Z',
        '2026-05-02T10:00:00.000Z',
        '2026-05-02T10:00:00.000Z',
        '2026-05-01T10:00:00.000Z',
        '2026-04-30T10:00:00.000Z',
      ]);
      const tie = result.content.slice(1, 3).map((item) => item.id);
      expect(tie).toEqual([...tie].sort());
      expect(result.content.find((item) => item.title === 'Bravo')).toMatchObject({ departmentId: null, roomId: null, deskId: null, equipmentId: null });
    });

    it('sorts by title, createdAt, reportedBy and id, pages, and refuses other properties', async () => {
      const byTitle = await page(base, { sort: 'title,asc' });
      expect(byTitle.content.map((item) => item.title)).toEqual(['Alpha', 'Bravo', 'Charlie', 'Delta', 'Echo']);
      expect(byTitle.sort).toHaveLength(1);
      expect(Object.keys(byTitle.sort[0]!).sort()).toEqual(SORT_KEYS);
      expect(byTitle.sort[0]).toMatchObject({ property: 'title', direction: 'ASC' });

      const oldest = await page(base, { sort: 'createdAt,asc' });
      expect(oldest.content.map((item) => item.title)[0]).toBe('Echo');
      expect(oldest.content.map((item) => item.title)[4]).toBe('Alpha');

      const byReporter = await page(base, { sort: ['reportedBy,desc', 'id'] });
      const reporters = byReporter.content.map((item) => item.reportedBy);
      expect(reporters).toEqual([...reporters].sort().reverse());

      const byId = await page(base, { sort: 'id,desc' });
      expect(byId.content.map((item) => item.id)).toEqual(
        listed
          .map((item) => item.id)
          .sort()
          .reverse(),
      );

      const second = await page(base, { page: '1', size: '2' });
      expect(second.content.map((item) => item.id)).toEqual(byDefault(listed).slice(2, 4));
      expect(second).toMatchObject({ number: 1, size: 2, totalElements: 5, totalPages: 3, first: false, last: false, numberOfElements: 2 });

      for (const sort of ['description', 'departmentId', 'nope']) {
        expect(fieldsOf(expectProblem(await get(base, userToken, { sort }), 400, 'VALIDATION_FAILED'))).toEqual(['sort']);
      }
    });

    it('filters by reportedBy', async () => {
      const result = await page(base, { reportedBy: otherUserId });
      expect(result.totalElements).toBe(2);
      expect(result.content.map((item) => item.id).sort()).toEqual([...reportedByOther].sort());
      expect((await page(base, { reportedBy: UNKNOWN_ID })).totalElements).toBe(0);
      expectProblem(await get(base, userToken, { reportedBy: 'me' }), 400, 'VALIDATION_FAILED');
    });

    it('gets one report; 404 for an unknown id, 400 for a malformed one', async () => {
      const report = listed[0]!;
      const response = await get(`${base}/${report.id}`);
      expect(response.statusCode).toBe(200);
      expect(Object.keys(response.json()).sort()).toEqual(REPORT_KEYS);
      expect(response.json()).toEqual(report);
      expectProblem(await get(`${base}/${UNKNOWN_ID}`), 404, 'NOT_FOUND');
      expectProblem(await get(`${base}/123`), 400, 'VALIDATION_FAILED');
      expectProblem(await t.request({ method: 'GET', url: `${base}/${report.id}` }), 401, 'UNAUTHENTICATED');
      expectProblem(await t.request({ method: 'GET', url: base }), 401, 'UNAUTHENTICATED');
    });

    it('lists the reports of a room, including those about its desks and equipment', async () => {
      const url = `/api/departments/${a1a.departmentId}/rooms/${a1a.roomId}/reports`;
      const result = await page(url);
      expect(Object.keys(result).sort()).toEqual(PAGE_KEYS);
      const expected = listed.filter((item) => item.roomId === a1a.roomId);
      expect(expected).toHaveLength(2);
      expect(result.totalElements).toBe(2);
      expect(result.content.map((item) => item.id)).toEqual(byDefault(expected));
      for (const item of result.content) expect(Object.keys(item).sort()).toEqual(REPORT_KEYS);

      const sorted = await page(url, { sort: 'title,desc' });
      expect(sorted.content.map((item) => item.title)).toEqual(['Charlie', 'Alpha']);
      expectProblem(await get(url, userToken, { sort: 'roomId' }), 400, 'VALIDATION_FAILED');

      const empty = await page(`/api/departments/${b1a.departmentId}/rooms/${b1a.roomId}/reports`, { page: '3' });
      expect(empty).toMatchObject({ totalElements: 1, content: [], empty: true, last: true });
    });

    it('answers 404 for an unknown department or room and for a room of another department', async () => {
      for (const url of [
        `/api/departments/${UNKNOWN_ID}/rooms/${a1a.roomId}/reports`,
        `/api/departments/${a1a.departmentId}/rooms/${UNKNOWN_ID}/reports`,
        `/api/departments/${b1a.departmentId}/rooms/${a1a.roomId}/reports`,
      ]) {
        expectProblem(await get(url), 404, 'NOT_FOUND');
      }
      expectProblem(await get(`/api/departments/x/rooms/${a1a.roomId}/reports`), 400, 'VALIDATION_FAILED');
    });

    it('refuses DELETE to a USER (403, report kept) and lets an ADMIN delete (204, then 404)', async () => {
      const report = listed[4]!;
      expectProblem(await t.request({ method: 'DELETE', url: `${base}/${report.id}`, token: userToken }), 403, 'FORBIDDEN');
      expect((await get(`${base}/${report.id}`)).statusCode).toBe(200);

      const deleted = await t.request({ method: 'DELETE', url: `${base}/${report.id}`, token: admin });
      expect(deleted.statusCode).toBe(204);
      expect(deleted.body).toBe('');
      expectProblem(await get(`${base}/${report.id}`), 404, 'NOT_FOUND');
      expect(await t.database.handle.db.select().from(reports).where(eq(reports.id, report.id))).toEqual([]);
      expectProblem(await t.request({ method: 'DELETE', url: `${base}/${report.id}`, token: admin }), 404, 'NOT_FOUND');
      expectProblem(await t.request({ method: 'DELETE', url: `${base}/${UNKNOWN_ID}`, token: admin }), 404, 'NOT_FOUND');
    });
  });

  describe('deletions elsewhere', () => {
    it('keeps a report whose desk is deleted, with deskId and equipmentId null', async () => {
      const db = t.database.handle.db;
      const room = await insertRoom(db, a1a.departmentId, { name: 'Doomed room' });
      const place = await insertPlace(a1a.departmentId, room.id, 'Doomed');
      const report = await created(await post({ title: 'Doomed dock', description: 'x', reportedBy: userId, equipmentId: place.equipmentId }));
      expect(report).toMatchObject(place);

      await db.delete(desks).where(eq(desks.id, place.deskId));
      const after = await get(`/api/report/${report.id}`);
      expect(after.statusCode).toBe(200);
      expect(after.json()).toEqual({ ...report, deskId: null, equipmentId: null });
    });

    // A real race: a second connection deletes the place.
    it('names the place deleted by a concurrent transaction between the check and the insert (400, nothing written)', async () => {
      const desk = await insertDesk(t.database.handle.db, a1a.roomId, { name: 'Vanishing' });
      const other = postgres(t.database.url!, { max: 1, onnotice: () => {} });
      try {
        const before = await reportCount();
        let filing: Promise<LightMyRequestResponse> | undefined;
        await other.begin(async (tx) => {
          await tx`delete from desks where id = ${desk.id}`;
          // The report's check still sees the desk (not yet committed away); its insert then waits for this transaction.
          filing = post({ title: 'Race', description: 'x', reportedBy: userId, deskId: desk.id });
          let waited = false;
          for (let attempt = 0; attempt < 400 && !waited; attempt++) {
            const [waiting] = await tx`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`;
            waited = waiting!.n > 0;
            if (!waited) await new Promise((resolve) => setTimeout(resolve, 25));
          }
          // The race happened: the report's insert waited for this transaction (else the test proves nothing).
          expect(waited, 'the report insert never waited for the deleting transaction').toBe(true);
        });
        const problem = expectProblem(await filing!, 400, 'VALIDATION_FAILED');
        expect(fieldsOf(problem)).toEqual(['deskId']);
        expect(await reportCount()).toBe(before);
      } finally {
        await other.end();
      }
    });

    it("deletes a user's reports with the user", async () => {
      const gone = await t.createUser({ email: 'leaving@example.test' });
      const report = await created(await post({ title: 'Before leaving', description: 'x', reportedBy: gone.id }, admin));
      expect((await t.request({ method: 'DELETE', url: `/api/users/${gone.id}`, token: admin })).statusCode).toBe(204);
      expectProblem(await get(`/api/report/${report.id}`), 404, 'NOT_FOUND');
    });
  });
});
