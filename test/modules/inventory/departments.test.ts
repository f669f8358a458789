import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertDepartment, insertRoom } from '../../helpers/fixtures.js';
import { UUID, expectProblem } from '../../helpers/app.js';
import type { Page } from '../../helpers/contract.js';
import {
  DEPARTMENT_KEYS,
  UNKNOWN_ID,
  byId,
  countRows,
  departmentUrl,
  expectEnvelope,
  fieldsOf,
  inventoryTest,
  modifiedAt,
  sortedKeys,
  type DepartmentBody,
  type InventoryTest,
} from './inventory-helpers.js';

/** /api/departments and /api/departments/{departmentId} (docs/api.md#department, docs/api.md#roles). */

describe('departments', () => {
  let s: InventoryTest;
  const list = async (query: Record<string, string | string[]> = {}, token = s.admin) =>
    s.ok<Page<DepartmentBody>>(await s.get('/api/departments', token, query));

  beforeAll(async () => {
    s = await inventoryTest();
  });
  afterAll(() => s.t.close());

  describe('shape', () => {
    it('creates a department with trimmed texts and answers every member of Department with rooms', async () => {
      const response = await s.send('POST', '/api/departments', s.admin, { location: '  Berlin ', building: ' HQ\t', floor: 3 });
      const created = s.ok<DepartmentBody>(response);
      expect(sortedKeys(created)).toEqual(DEPARTMENT_KEYS);
      expect(created.id).toMatch(UUID);
      expect(created).toEqual({ id: created.id, location: 'Berlin', building: 'HQ', floor: 3, rooms: [] });
      expect(s.ok(await s.get(departmentUrl(created.id), s.user))).toEqual(created);
    });

    it('lists departments in the page envelope, each item with exactly the members of Department', async () => {
      const department = await insertDepartment(s.db, { location: 'Shape', building: 'B', floor: -2 });
      const room = await insertRoom(s.db, department.id, { name: 'Only' });
      const page = await list({ ids: department.id }, s.user);
      expectEnvelope(page);
      expect(page.content).toHaveLength(1);
      expect(sortedKeys(page.content[0]!)).toEqual(DEPARTMENT_KEYS);
      expect(page.content[0]).toEqual({ id: department.id, location: 'Shape', building: 'B', floor: -2, rooms: [room.id] });
      expect(page).toMatchObject({
        totalElements: 1,
        totalPages: 1,
        number: 0,
        size: 20,
        first: true,
        last: true,
        empty: false,
        numberOfElements: 1,
        sort: [],
      });
    });

    // Room names are unique within a department (docs/behaviour.md#names-of-rooms-and-desks): the name orders them.
    it('lists the room ids of a department by room name', async () => {
      const department = await insertDepartment(s.db, { location: 'Rooms order' });
      const bravo = await insertRoom(s.db, department.id, { name: 'Bravo' });
      const alphas = [await insertRoom(s.db, department.id, { name: 'Alpha 2' }), await insertRoom(s.db, department.id, { name: 'Alpha 1' })].reverse();
      const other = await insertDepartment(s.db, { location: 'Rooms order' });
      await insertRoom(s.db, other.id, { name: 'Elsewhere' });
      const expected = [alphas[0]!.id, alphas[1]!.id, bravo.id];
      expect(s.ok<DepartmentBody>(await s.get(departmentUrl(department.id), s.admin)).rooms).toEqual(expected);
      const page = await list({ ids: [department.id, other.id] });
      expect(page.content.find((item) => item.id === department.id)!.rooms).toEqual(expected);
      expect(page.content.find((item) => item.id === other.id)!.rooms).toHaveLength(1);
    });

    it('answers 404 for an unknown department and 400 for a malformed id', async () => {
      expectProblem(await s.get(departmentUrl(UNKNOWN_ID), s.user), 404, 'NOT_FOUND');
      expectProblem(await s.get(departmentUrl('not-a-uuid'), s.user), 400, 'VALIDATION_FAILED');
    });
  });

  describe('permissions', () => {
    it('lets a USER read but not create, change or delete (403, nothing written)', async () => {
      const department = await insertDepartment(s.db, { location: 'Guarded' });
      const before = await countRows(s.db, 'departments');
      expect((await s.get('/api/departments', s.user)).statusCode).toBe(200);
      expect((await s.get(departmentUrl(department.id), s.user)).statusCode).toBe(200);
      expectProblem(await s.send('POST', '/api/departments', s.user, { location: 'X', building: 'Y', floor: 1 }), 403, 'FORBIDDEN');
      expectProblem(await s.send('PUT', departmentUrl(department.id), s.user, { location: 'Changed' }), 403, 'FORBIDDEN');
      expectProblem(await s.send('DELETE', departmentUrl(department.id), s.user), 403, 'FORBIDDEN');
      expect(await countRows(s.db, 'departments')).toBe(before);
      expect(s.ok<DepartmentBody>(await s.get(departmentUrl(department.id), s.admin)).location).toBe('Guarded');
    });

    it('lets an ADMIN create, change and delete', async () => {
      const created = s.ok<DepartmentBody>(await s.send('POST', '/api/departments', s.admin, { location: 'Admin', building: 'A', floor: 0 }));
      expect(s.ok<DepartmentBody>(await s.send('PUT', departmentUrl(created.id), s.admin, { building: 'B' })).building).toBe('B');
      expect((await s.send('DELETE', departmentUrl(created.id), s.admin)).statusCode).toBe(204);
      expectProblem(await s.get(departmentUrl(created.id), s.admin), 404, 'NOT_FOUND');
    });

    it('answers 401 without a token', async () => {
      expectProblem(await s.get('/api/departments'), 401, 'UNAUTHENTICATED');
      expectProblem(await s.get(departmentUrl(UNKNOWN_ID)), 401, 'UNAUTHENTICATED');
      expectProblem(await s.send('POST', '/api/departments', undefined, { location: 'X', building: 'Y', floor: 1 }), 401, 'UNAUTHENTICATED');
      expectProblem(await s.send('PUT', departmentUrl(UNKNOWN_ID), undefined, { floor: 1 }), 401, 'UNAUTHENTICATED');
      expectProblem(await s.send('DELETE', departmentUrl(UNKNOWN_ID), undefined), 401, 'UNAUTHENTICATED');
    });
  });

  describe('bodies', () => {
    const valid = { location: 'Hamburg', building: 'North', floor: 2 };
    const refused: [string, unknown, string][] = [
      ['an id', { ...valid, id: UNKNOWN_ID }, 'id'],
      ['a createdAt', { ...valid, createdAt: '2024-01-01T00:00:00Z' }, 'createdAt'],
      ['rooms', { ...valid, rooms: [] }, 'rooms'],
      ['a null location', { ...valid, location: null }, 'location'],
      ['no floor', { location: 'Hamburg', building: 'North' }, 'floor'],
      ['a fractional floor', { ...valid, floor: 1.5 }, 'floor'],
      ['a floor as text', { ...valid, floor: '2' }, 'floor'],
      ['a floor below -1000', { ...valid, floor: -1001 }, 'floor'],
      ['a floor above 10000', { ...valid, floor: 10_001 }, 'floor'],
      ['a blank building', { ...valid, building: '   ' }, 'building'],
      ['a location of 201 characters', { ...valid, location: 'x'.repeat(201) }, 'location'],
      ['an empty location', { ...valid, location: '' }, 'location'],
    ];
    for (const [label, body, field] of refused) {
      it(`refuses a create body with ${label} (400 naming ${field}, nothing written)`, async () => {
        const before = await countRows(s.db, 'departments');
        const problem = expectProblem(await s.send('POST', '/api/departments', s.admin, body), 400, 'VALIDATION_FAILED');
        expect(fieldsOf(problem)).toEqual([field]);
        expect(await countRows(s.db, 'departments')).toBe(before);
      });
    }

    it('accepts the bounds of floor and a 200-character location', async () => {
      for (const floor of [-1000, 10_000])
        expect(s.ok<DepartmentBody>(await s.send('POST', '/api/departments', s.admin, { ...valid, floor })).floor).toBe(floor);
      expect(s.ok<DepartmentBody>(await s.send('POST', '/api/departments', s.admin, { ...valid, location: 'y'.repeat(200) })).location).toHaveLength(200);
    });

    it('refuses unknown members and nulls in a change too, changing nothing', async () => {
      const department = await insertDepartment(s.db, { location: 'Strict', building: 'S', floor: 1 });
      expect(fieldsOf(expectProblem(await s.send('PUT', departmentUrl(department.id), s.admin, { id: UNKNOWN_ID }), 400))).toEqual(['id']);
      expect(fieldsOf(expectProblem(await s.send('PUT', departmentUrl(department.id), s.admin, { floor: null }), 400))).toEqual(['floor']);
      expect(fieldsOf(expectProblem(await s.send('PUT', departmentUrl(department.id), s.admin, { building: ' ' }), 400))).toEqual(['building']);
      expect(s.ok(await s.get(departmentUrl(department.id), s.admin))).toEqual({ id: department.id, location: 'Strict', building: 'S', floor: 1, rooms: [] });
    });
  });

  describe('change', () => {
    it('keeps the members left out and sets modifiedAt from the clock', async () => {
      const department = await insertDepartment(s.db, { location: 'Partial', building: 'P', floor: 4 });
      const room = await insertRoom(s.db, department.id);
      s.t.clock.advance(60_000);
      const changed = s.ok<DepartmentBody>(await s.send('PUT', departmentUrl(department.id), s.admin, { floor: 5 }));
      expect(changed).toEqual({ id: department.id, location: 'Partial', building: 'P', floor: 5, rooms: [room.id] });
      expect((await modifiedAt(s.db, 'departments', department.id)).toISOString()).toBe(s.t.clock.now().toISOString());
      const trimmed = s.ok<DepartmentBody>(await s.send('PUT', departmentUrl(department.id), s.admin, { location: ' Moved ', building: 'Q' }));
      expect(trimmed).toEqual({ id: department.id, location: 'Moved', building: 'Q', floor: 5, rooms: [room.id] });
      expect(s.ok(await s.send('PUT', departmentUrl(department.id), s.admin, {}))).toEqual(trimmed);
    });

    it('answers 404 for an unknown department', async () => {
      expectProblem(await s.send('PUT', departmentUrl(UNKNOWN_ID), s.admin, { floor: 1 }), 404, 'NOT_FOUND');
    });
  });

  describe('ids filter', () => {
    let ids: string[] = [];
    beforeAll(async () => {
      ids = [];
      for (const floor of [1, 2, 3]) ids.push((await insertDepartment(s.db, { location: 'Filter', floor })).id);
    });
    const listedIds = (page: Page<DepartmentBody>) => page.content.map((item) => item.id).sort();

    it('takes repeated ids', async () => {
      expect(listedIds(await list({ ids: [ids[0]!, ids[2]!] }))).toEqual([ids[0]!, ids[2]!].sort());
    });

    it('takes comma-separated ids', async () => {
      expect(listedIds(await list({ ids: `${ids[0]},${ids[1]}` }))).toEqual([ids[0]!, ids[1]!].sort());
    });

    it('takes both forms mixed, ignores blanks, duplicates, upper case and unknown ids', async () => {
      const page = await list({ ids: [`${ids[0]}, ${ids[1]!.toUpperCase()},`, ids[2]!, ids[0]!, UNKNOWN_ID] });
      expect(listedIds(page)).toEqual([...ids].sort());
      expect(page.totalElements).toBe(3);
    });

    it('answers 400 naming ids for a malformed id', async () => {
      for (const value of ['nope', `${ids[0]},12345`, [ids[0]!, 'x']]) {
        const problem = expectProblem(await s.get('/api/departments', s.admin, { ids: value }), 400, 'VALIDATION_FAILED');
        expect(fieldsOf(problem)).toEqual(['ids']);
      }
    });

    it('lists every department when ids is empty', async () => {
      expect((await list({ ids: '' })).totalElements).toBe((await list()).totalElements);
    });
  });

  describe('order', () => {
    let made: DepartmentBody[] = [];
    beforeAll(async () => {
      const rows = [
        { location: 'Order', building: 'Beta', floor: 2 },
        { location: 'Order', building: 'Alpha', floor: 7 },
        { location: 'Order', building: 'Alpha', floor: 3 },
        { location: 'Order', building: 'Alpha', floor: 3 },
      ];
      made = [];
      for (const row of rows) made.push({ ...(await insertDepartment(s.db, row)), rooms: [] });
    });
    const only = () => ({ ids: made.map((item) => item.id).join(',') });
    const order = (page: Page<DepartmentBody>) => page.content.map((item) => item.id);

    it('defaults to location, building, floor, id', async () => {
      const [tieA, tieB] = [made[2]!, made[3]!].sort(byId);
      expect(order(await list(only()))).toEqual([tieA!.id, tieB!.id, made[1]!.id, made[0]!.id]);
    });

    it('sorts by a requested property first, and echoes it in the envelope', async () => {
      const page = await list({ ...only(), sort: 'floor,desc' });
      expect(page.content.map((item) => item.floor)).toEqual([7, 3, 3, 2]);
      expect(page.sort).toEqual([{ direction: 'DESC', nullHandling: 'NATIVE', ascending: false, property: 'floor', ignoreCase: false }]);
      expect(order(await list({ ...only(), sort: ['building,desc', 'floor'] }))[0]).toBe(made[0]!.id);
      expect((await list({ ...only(), sort: 'id' })).content.map((item) => item.id)).toEqual([...made].sort(byId).map((item) => item.id));
    });

    it('pages', async () => {
      const second = await list({ ...only(), size: '3', page: '1' });
      expect(second).toMatchObject({ number: 1, size: 3, totalElements: 4, totalPages: 2, first: false, last: true, numberOfElements: 1 });
      expect(order(second)).toEqual([made[0]!.id]);
    });

    it('refuses to sort by rooms or an unknown property (400)', async () => {
      for (const sort of ['rooms', 'name', 'createdAt']) {
        const problem = expectProblem(await s.get('/api/departments', s.admin, { sort }), 400, 'VALIDATION_FAILED');
        expect(fieldsOf(problem)).toEqual(['sort']);
      }
    });
  });

  describe('delete', () => {
    it('deletes an empty department (204) and answers 404 for an unknown one', async () => {
      const department = await insertDepartment(s.db, { location: 'Empty' });
      expect((await s.send('DELETE', departmentUrl(department.id), s.admin)).statusCode).toBe(204);
      expect(await countRows(s.db, 'departments', { column: 'id', value: department.id })).toBe(0);
      expectProblem(await s.send('DELETE', departmentUrl(department.id), s.admin), 404, 'NOT_FOUND');
      expectProblem(await s.send('DELETE', `${departmentUrl(UNKNOWN_ID)}?force=true`, s.admin), 404, 'NOT_FOUND');
    });
  });
});
