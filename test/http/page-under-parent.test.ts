import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, expectProblem, type TestApp } from '../helpers/app.js';
import type { Page } from '../helpers/contract.js';

/**
 * Lists under a parent read the parent, the page and the total in one statement
 * (docs/benchmarks.md#statements-per-request): a missing parent is still 404, a page past the end
 * still an empty page with the right total, and the first page is in order.
 */

const MISSING = '00000000-0000-4000-8000-000000000000';

describe('lists under a parent', () => {
  let t: TestApp;
  let token: string;
  let userId: string;
  const paths: Record<string, string> = {};

  beforeAll(async () => {
    t = await createTestApp();
    token = await t.adminToken();
    userId = (await t.request({ method: 'GET', url: '/api/self', token })).json<{ id: string }>().id;
    const post = async (url: string, payload: object) => {
      const response = await t.request({ method: 'POST', url, token, payload });
      expect(response.statusCode, response.body).toBeLessThan(300);
      return response.json<{ id: string }>().id;
    };
    const departmentId = await post('/api/departments', { location: 'Berlin', building: 'HQ', floor: 1 });
    const room = `/api/departments/${departmentId}/rooms`;
    let roomId = '';
    for (const name of ['C', 'A', 'B']) roomId = await post(room, { name });
    let deskId = '';
    for (const name of ['C', 'A', 'B']) deskId = await post(`${room}/${roomId}/desks`, { name });
    for (const name of ['C', 'A', 'B']) await post(`${room}/${roomId}/desks/${deskId}/equipment`, { name, description: 'x', type: 'MONITOR' });
    for (const title of ['C', 'A', 'B']) await post('/api/report', { title, description: 'x', roomId, reportedBy: userId });
    paths.rooms = room;
    paths.desks = `${room}/${roomId}/desks`;
    paths.equipment = `${room}/${roomId}/desks/${deskId}/equipment`;
    paths.reports = `${room}/${roomId}/reports`;
    paths.sessions = `/api/users/${userId}/sessions`;
    await t.login('admin@example.test', 'admin-password-1');
    await t.login('admin@example.test', 'admin-password-1');
  });
  afterAll(() => t.close());

  const get = (url: string, query: Record<string, string> = {}) => t.request({ method: 'GET', url, token, query });

  for (const list of ['rooms', 'desks', 'equipment', 'reports', 'sessions'] as const) {
    it(`${list}: the page in order with its total, past the end empty with the total`, async () => {
      const sort = list === 'reports' ? 'title,asc' : list === 'sessions' ? 'createdAt,asc' : 'name,asc';
      const first = await get(paths[list]!, { size: '2', sort });
      expect(first.statusCode, first.body).toBe(200);
      const page = first.json<Page<{ name?: string; title?: string }>>();
      expect(page).toMatchObject({ totalElements: 3, totalPages: 2, numberOfElements: 2, first: true, last: false });
      if (list !== 'sessions') expect(page.content.map((item) => item.name ?? item.title)).toEqual(['A', 'B']);
      const past = await get(paths[list]!, { size: '2', page: '5' });
      expect(past.statusCode).toBe(200);
      expect(past.json()).toMatchObject({ totalElements: 3, totalPages: 2, content: [], empty: true, number: 5 });
    });
  }

  it('rooms: each room carries its desks', async () => {
    const page = (await get(paths.rooms!, { sort: 'name,asc' })).json<Page<{ name: string; desks: { name: string }[] }>>();
    expect(page.content.map((room) => [room.name, room.desks.map((desk) => desk.name)])).toEqual([
      ['A', []],
      ['B', ['A', 'B', 'C']],
      ['C', []],
    ]);
  });

  it('a missing parent is 404, on the first page and past the end', async () => {
    const missing = {
      rooms: paths.rooms!.replace(/departments\/[^/]+/, `departments/${MISSING}`),
      desks: paths.desks!.replace(/rooms\/[^/]+/, `rooms/${MISSING}`),
      equipment: paths.equipment!.replace(/desks\/[^/]+/, `desks/${MISSING}`),
      reports: paths.reports!.replace(/rooms\/[^/]+/, `rooms/${MISSING}`),
      reportsOfDepartment: paths.reports!.replace(/departments\/[^/]+/, `departments/${MISSING}`),
      sessions: `/api/users/${MISSING}/sessions`,
    };
    for (const url of Object.values(missing)) {
      expectProblem(await get(url), 404, 'NOT_FOUND');
      expectProblem(await get(url, { page: '5' }), 404, 'NOT_FOUND');
    }
  });
});
