import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UUID, expectProblem } from '../../helpers/app.js';
import type { Page } from '../../helpers/contract.js';
import { insertDepartment, insertDesk, insertRoom } from '../../helpers/fixtures.js';
import {
  DESK_KEYS,
  ROOM_KEYS,
  UNKNOWN_ID,
  countRows,
  departmentUrl,
  deskUrl,
  desksUrl,
  equipmentUrl,
  expectEnvelope,
  fieldsOf,
  inventoryTest,
  modifiedAt,
  roomUrl,
  roomsUrl,
  sortedKeys,
  type DepartmentBody,
  type DeskBody,
  type InventoryTest,
  type RoomBody,
} from './inventory-helpers.js';

/** Rooms (/api/departments/{departmentId}/rooms…) and desks (…/rooms/{roomId}/desks…). */

describe('rooms', () => {
  let s: InventoryTest;
  let departmentId: string;
  let otherDepartmentId: string;

  beforeAll(async () => {
    s = await inventoryTest();
    departmentId = (await insertDepartment(s.db, { location: 'Rooms' })).id;
    otherDepartmentId = (await insertDepartment(s.db, { location: 'Other' })).id;
  });
  afterAll(() => s.t.close());

  describe('shape and defaults', () => {
    it('creates a room, available by default, name trimmed, with no desks', async () => {
      const room = s.ok<RoomBody>(await s.send('POST', roomsUrl(departmentId), s.admin, { name: '  Atlas ' }));
      expect(sortedKeys(room)).toEqual(ROOM_KEYS);
      expect(room.id).toMatch(UUID);
      expect(room).toEqual({ id: room.id, name: 'Atlas', departmentId, available: true, desks: [] });
      expect(s.ok(await s.get(roomUrl(departmentId, room.id), s.user))).toEqual(room);
      expect(s.ok<DepartmentBody>(await s.get(departmentUrl(departmentId), s.user)).rooms).toContain(room.id);
    });

    it('keeps available false when given', async () => {
      const room = s.ok<RoomBody>(await s.send('POST', roomsUrl(departmentId), s.admin, { name: 'Closed', available: false }));
      expect(room.available).toBe(false);
    });

    // Desk names are unique within a room (docs/behaviour.md#names-of-rooms-and-desks): the name orders them.
    it('lists rooms with all their desks as Desk objects ordered by name', async () => {
      const department = await insertDepartment(s.db, { location: 'With desks' });
      const room = await insertRoom(s.db, department.id, { name: 'Full' });
      const empty = await insertRoom(s.db, department.id, { name: 'Empty' });
      const zulu = await insertDesk(s.db, room.id, { name: 'Zulu', type: 'FIXED' });
      const alphas = [await insertDesk(s.db, room.id, { name: 'Alpha 2' }), await insertDesk(s.db, room.id, { name: 'Alpha 1' })].reverse();
      const page = s.ok<Page<RoomBody>>(await s.get(roomsUrl(department.id), s.user));
      expectEnvelope(page);
      expect(page.content.map((item) => item.name)).toEqual(['Empty', 'Full']);
      for (const item of page.content) expect(sortedKeys(item)).toEqual(ROOM_KEYS);
      expect(page.content[0]).toEqual({ id: empty.id, name: 'Empty', departmentId: department.id, available: true, desks: [] });
      const desks = page.content[1]!.desks;
      for (const desk of desks) expect(sortedKeys(desk)).toEqual(DESK_KEYS);
      expect(desks).toEqual([
        { id: alphas[0]!.id, name: 'Alpha 1', type: 'FLEX', roomId: room.id, departmentId: department.id },
        { id: alphas[1]!.id, name: 'Alpha 2', type: 'FLEX', roomId: room.id, departmentId: department.id },
        { id: zulu.id, name: 'Zulu', type: 'FIXED', roomId: room.id, departmentId: department.id },
      ]);
      expect(s.ok<RoomBody>(await s.get(roomUrl(department.id, room.id), s.user)).desks).toEqual(desks);
    });
  });

  describe('listing', () => {
    let department: string;
    beforeAll(async () => {
      department = (await insertDepartment(s.db, { location: 'Listing' })).id;
      await insertRoom(s.db, department, { name: 'Charlie', available: false });
      await insertRoom(s.db, department, { name: 'Alpha' });
      await insertRoom(s.db, department, { name: 'Bravo', available: false });
      await insertRoom(s.db, otherDepartmentId, { name: 'Foreign' });
    });
    const names = async (query: Record<string, string | string[]>) =>
      s.ok<Page<RoomBody>>(await s.get(roomsUrl(department), s.user, query)).content.map((room) => room.name);

    it('orders by name by default, lists only the rooms of that department', async () => {
      expect(await names({})).toEqual(['Alpha', 'Bravo', 'Charlie']);
    });

    it('filters by available', async () => {
      expect(await names({ available: 'false' })).toEqual(['Bravo', 'Charlie']);
      expect(await names({ available: 'true' })).toEqual(['Alpha']);
      expect(fieldsOf(expectProblem(await s.get(roomsUrl(department), s.user, { available: 'maybe' }), 400))).toEqual(['available']);
    });

    it('sorts by name and available; refuses other properties', async () => {
      expect(await names({ sort: 'name,desc' })).toEqual(['Charlie', 'Bravo', 'Alpha']);
      expect(await names({ sort: 'available' })).toEqual(['Bravo', 'Charlie', 'Alpha']);
      expect(await names({ sort: 'available,desc', size: '1', page: '0' })).toEqual(['Alpha']);
      for (const sort of ['desks', 'departmentId', 'location']) {
        expect(fieldsOf(expectProblem(await s.get(roomsUrl(department), s.user, { sort }), 400, 'VALIDATION_FAILED'))).toEqual(['sort']);
      }
    });

    it('answers 404 for an unknown department', async () => {
      expectProblem(await s.get(roomsUrl(UNKNOWN_ID), s.user), 404, 'NOT_FOUND');
    });
  });

  describe('paths', () => {
    it('answers 404 for a room under another department, for every operation, and changes nothing', async () => {
      const room = await insertRoom(s.db, departmentId, { name: 'Mine' });
      const wrong = roomUrl(otherDepartmentId, room.id);
      expectProblem(await s.get(wrong, s.user), 404, 'NOT_FOUND');
      expectProblem(await s.send('PUT', wrong, s.admin, { name: 'Stolen' }), 404, 'NOT_FOUND');
      expectProblem(await s.send('DELETE', wrong, s.admin), 404, 'NOT_FOUND');
      expectProblem(await s.send('DELETE', `${wrong}?force=true`, s.admin), 404, 'NOT_FOUND');
      expectProblem(await s.get(desksUrl(otherDepartmentId, room.id), s.user), 404, 'NOT_FOUND');
      expectProblem(await s.send('POST', desksUrl(otherDepartmentId, room.id), s.admin, { name: 'D' }), 404, 'NOT_FOUND');
      expect(s.ok<RoomBody>(await s.get(roomUrl(departmentId, room.id), s.admin))).toMatchObject({ name: 'Mine', desks: [] });
      expect(await countRows(s.db, 'desks', { column: 'room_id', value: room.id })).toBe(0);
    });

    it('answers 404 for unknown ids at each level', async () => {
      const room = await insertRoom(s.db, departmentId);
      expectProblem(await s.get(roomUrl(departmentId, UNKNOWN_ID), s.user), 404, 'NOT_FOUND');
      expectProblem(await s.get(roomUrl(UNKNOWN_ID, room.id), s.user), 404, 'NOT_FOUND');
      expectProblem(await s.send('POST', roomsUrl(UNKNOWN_ID), s.admin, { name: 'Nowhere' }), 404, 'NOT_FOUND');
      expectProblem(await s.send('PUT', roomUrl(departmentId, UNKNOWN_ID), s.admin, { name: 'X' }), 404, 'NOT_FOUND');
      expectProblem(await s.get(roomUrl(departmentId, 'nope'), s.user), 400, 'VALIDATION_FAILED');
    });
  });

  describe('permissions and bodies', () => {
    it('lets a USER read but not create, change or delete a room (403, nothing written)', async () => {
      const room = await insertRoom(s.db, departmentId, { name: 'Guarded' });
      const before = await countRows(s.db, 'rooms');
      expectProblem(await s.send('POST', roomsUrl(departmentId), s.user, { name: 'Mine' }), 403, 'FORBIDDEN');
      expectProblem(await s.send('PUT', roomUrl(departmentId, room.id), s.user, { name: 'Mine' }), 403, 'FORBIDDEN');
      expectProblem(await s.send('DELETE', roomUrl(departmentId, room.id), s.user), 403, 'FORBIDDEN');
      expect(await countRows(s.db, 'rooms')).toBe(before);
      expect(s.ok<RoomBody>(await s.get(roomUrl(departmentId, room.id), s.user)).name).toBe('Guarded');
      expectProblem(await s.get(roomsUrl(departmentId)), 401, 'UNAUTHENTICATED');
      expectProblem(await s.send('POST', roomsUrl(departmentId), undefined, { name: 'Mine' }), 401, 'UNAUTHENTICATED');
    });

    it('lets an ADMIN create, change and delete a room', async () => {
      const room = s.ok<RoomBody>(await s.send('POST', roomsUrl(departmentId), s.admin, { name: 'Temp' }));
      expect(s.ok<RoomBody>(await s.send('PUT', roomUrl(departmentId, room.id), s.admin, { name: 'Temp 2' })).name).toBe('Temp 2');
      expect((await s.send('DELETE', roomUrl(departmentId, room.id), s.admin)).statusCode).toBe(204);
      expectProblem(await s.get(roomUrl(departmentId, room.id), s.admin), 404);
    });

    const refused: [string, unknown, string][] = [
      ['an id', { name: 'R', id: UNKNOWN_ID }, 'id'],
      ['desks', { name: 'R', desks: [] }, 'desks'],
      ['a departmentId', { name: 'R', departmentId: UNKNOWN_ID }, 'departmentId'],
      ['a null name', { name: null }, 'name'],
      ['no name', { available: true }, 'name'],
      ['a blank name', { name: ' \t ' }, 'name'],
      ['available as text', { name: 'R', available: 'true' }, 'available'],
      ['a null available', { name: 'R', available: null }, 'available'],
    ];
    for (const [label, body, field] of refused) {
      it(`refuses a room create body with ${label} (400 naming ${field})`, async () => {
        const before = await countRows(s.db, 'rooms');
        expect(fieldsOf(expectProblem(await s.send('POST', roomsUrl(departmentId), s.admin, body), 400, 'VALIDATION_FAILED'))).toEqual([field]);
        expect(await countRows(s.db, 'rooms')).toBe(before);
      });
    }

    it('refuses unknown members and nulls in a room change', async () => {
      const room = await insertRoom(s.db, departmentId, { name: 'Strict' });
      expect(fieldsOf(expectProblem(await s.send('PUT', roomUrl(departmentId, room.id), s.admin, { createdAt: '2024-01-01T00:00:00Z' }), 400))).toEqual([
        'createdAt',
      ]);
      expect(fieldsOf(expectProblem(await s.send('PUT', roomUrl(departmentId, room.id), s.admin, { available: null }), 400))).toEqual(['available']);
      expect(fieldsOf(expectProblem(await s.send('PUT', roomUrl(departmentId, room.id), s.admin, { departmentId: 'x' }), 400))).toEqual(['departmentId']);
      expect(s.ok<RoomBody>(await s.get(roomUrl(departmentId, room.id), s.admin))).toMatchObject({ name: 'Strict', available: true });
    });
  });

  describe('change and move', () => {
    it('keeps the members left out and sets modifiedAt', async () => {
      const room = await insertRoom(s.db, departmentId, { name: 'Partial' });
      s.t.clock.advance(60_000);
      const changed = s.ok<RoomBody>(await s.send('PUT', roomUrl(departmentId, room.id), s.admin, { available: false }));
      expect(changed).toEqual({ id: room.id, name: 'Partial', departmentId, available: false, desks: [] });
      expect((await modifiedAt(s.db, 'rooms', room.id)).toISOString()).toBe(s.t.clock.now().toISOString());
      expect(s.ok<RoomBody>(await s.send('PUT', roomUrl(departmentId, room.id), s.admin, { name: ' Renamed ' }))).toEqual({ ...changed, name: 'Renamed' });
    });

    it('moves a room with its desks to another department', async () => {
      const from = await insertDepartment(s.db, { location: 'From' });
      const to = await insertDepartment(s.db, { location: 'To' });
      const room = await insertRoom(s.db, from.id, { name: 'Moving' });
      const desk = await insertDesk(s.db, room.id, { name: 'Along' });
      const moved = s.ok<RoomBody>(await s.send('PUT', roomUrl(from.id, room.id), s.admin, { departmentId: to.id }));
      expect(moved).toEqual({
        id: room.id,
        name: 'Moving',
        departmentId: to.id,
        available: true,
        desks: [{ id: desk.id, name: 'Along', type: 'FLEX', roomId: room.id, departmentId: to.id }],
      });
      expectProblem(await s.get(roomUrl(from.id, room.id), s.admin), 404, 'NOT_FOUND');
      expect(s.ok(await s.get(roomUrl(to.id, room.id), s.admin))).toEqual(moved);
      expect(s.ok<DeskBody>(await s.get(deskUrl(to.id, room.id, desk.id), s.admin)).departmentId).toBe(to.id);
      expect(s.ok<DepartmentBody>(await s.get(departmentUrl(from.id), s.admin)).rooms).toEqual([]);
      expect(s.ok<DepartmentBody>(await s.get(departmentUrl(to.id), s.admin)).rooms).toEqual([room.id]);
    });

    it('answers 400 naming departmentId for an unknown target department, changing nothing', async () => {
      const room = await insertRoom(s.db, departmentId, { name: 'Staying' });
      const problem = expectProblem(
        await s.send('PUT', roomUrl(departmentId, room.id), s.admin, { departmentId: UNKNOWN_ID, name: 'Gone' }),
        400,
        'VALIDATION_FAILED',
      );
      expect(fieldsOf(problem)).toEqual(['departmentId']);
      expect(s.ok<RoomBody>(await s.get(roomUrl(departmentId, room.id), s.admin))).toMatchObject({ name: 'Staying', departmentId });
    });
  });
});

describe('desks', () => {
  let s: InventoryTest;
  let departmentId: string;
  let roomId: string;
  let otherRoomId: string;

  beforeAll(async () => {
    s = await inventoryTest();
    departmentId = (await insertDepartment(s.db, { location: 'Desks' })).id;
    roomId = (await insertRoom(s.db, departmentId, { name: 'Main' })).id;
    otherRoomId = (await insertRoom(s.db, departmentId, { name: 'Side' })).id;
  });
  afterAll(() => s.t.close());

  describe('shape and defaults', () => {
    it('creates a FLEX desk by default, name trimmed, with every member of Desk', async () => {
      const desk = s.ok<DeskBody>(await s.send('POST', desksUrl(departmentId, roomId), s.admin, { name: ' D1 ' }));
      expect(sortedKeys(desk)).toEqual(DESK_KEYS);
      expect(desk.id).toMatch(UUID);
      expect(desk).toEqual({ id: desk.id, name: 'D1', type: 'FLEX', roomId, departmentId });
      expect(s.ok(await s.get(deskUrl(departmentId, roomId, desk.id), s.user))).toEqual(desk);
    });

    it('creates a FIXED desk when asked', async () => {
      expect(s.ok<DeskBody>(await s.send('POST', desksUrl(departmentId, roomId), s.admin, { name: 'Fixed', type: 'FIXED' })).type).toBe('FIXED');
    });
  });

  describe('listing', () => {
    let room: string;
    beforeAll(async () => {
      room = (await insertRoom(s.db, departmentId, { name: 'Listing' })).id;
      await insertDesk(s.db, room, { name: 'Bravo', type: 'FIXED' });
      await insertDesk(s.db, room, { name: 'Alpha' });
      await insertDesk(s.db, room, { name: 'Charlie' });
      await insertDesk(s.db, otherRoomId, { name: 'Foreign' });
    });
    const page = async (query: Record<string, string | string[]> = {}) => s.ok<Page<DeskBody>>(await s.get(desksUrl(departmentId, room), s.user, query));
    const names = async (query: Record<string, string | string[]> = {}) => (await page(query)).content.map((desk) => desk.name);

    it('answers a page of Desk ordered by name, only of that room', async () => {
      const result = await page();
      expectEnvelope(result);
      for (const desk of result.content) {
        expect(sortedKeys(desk)).toEqual(DESK_KEYS);
        expect(desk).toMatchObject({ roomId: room, departmentId });
      }
      expect(result.content.map((desk) => desk.name)).toEqual(['Alpha', 'Bravo', 'Charlie']);
    });

    it('filters by type', async () => {
      expect(await names({ type: 'FIXED' })).toEqual(['Bravo']);
      expect(await names({ type: 'FLEX' })).toEqual(['Alpha', 'Charlie']);
      expect(fieldsOf(expectProblem(await s.get(desksUrl(departmentId, room), s.user, { type: 'fixed' }), 400))).toEqual(['type']);
    });

    it('sorts by type (by name: FIXED before FLEX) and name; refuses other properties', async () => {
      expect(await names({ sort: 'type' })).toEqual(['Bravo', 'Alpha', 'Charlie']);
      expect(await names({ sort: ['type,desc', 'name,desc'] })).toEqual(['Charlie', 'Alpha', 'Bravo']);
      for (const sort of ['roomId', 'equipment']) {
        expect(fieldsOf(expectProblem(await s.get(desksUrl(departmentId, room), s.user, { sort }), 400, 'VALIDATION_FAILED'))).toEqual(['sort']);
      }
    });

    it('answers the ids as stored (lower case) when the path spells them in capitals', async () => {
      const result = s.ok<Page<DeskBody>>(await s.get(desksUrl(departmentId.toUpperCase(), room.toUpperCase()), s.user));
      expect(result.content.map((desk) => desk.name)).toEqual(['Alpha', 'Bravo', 'Charlie']);
      for (const desk of result.content) expect(desk).toMatchObject({ roomId: room, departmentId });
    });

    it('answers 404 for an unknown room', async () => {
      expectProblem(await s.get(desksUrl(departmentId, UNKNOWN_ID), s.user), 404, 'NOT_FOUND');
      expectProblem(await s.get(desksUrl(UNKNOWN_ID, room), s.user), 404, 'NOT_FOUND');
    });
  });

  describe('paths', () => {
    it('answers 404 for a desk under another room or another department, for every operation, and changes nothing', async () => {
      const desk = await insertDesk(s.db, roomId, { name: 'Home' });
      const foreignDepartment = await insertDepartment(s.db, { location: 'Foreign' });
      const foreignRoom = await insertRoom(s.db, foreignDepartment.id);
      const wrongPaths = [
        deskUrl(departmentId, otherRoomId, desk.id),
        deskUrl(foreignDepartment.id, roomId, desk.id),
        deskUrl(foreignDepartment.id, foreignRoom.id, desk.id),
      ];
      for (const url of wrongPaths) {
        expectProblem(await s.get(url, s.user), 404, 'NOT_FOUND');
        expectProblem(await s.send('PUT', url, s.admin, { name: 'Stolen' }), 404, 'NOT_FOUND');
        expectProblem(await s.send('DELETE', url, s.admin), 404, 'NOT_FOUND');
        expectProblem(await s.send('DELETE', `${url}?force=true`, s.admin), 404, 'NOT_FOUND');
        expectProblem(await s.get(`${url}/equipment`, s.user), 404, 'NOT_FOUND');
        expectProblem(await s.send('POST', `${url}/equipment`, s.admin, { name: 'E', description: '', type: 'MOUSE' }), 404, 'NOT_FOUND');
      }
      expect(s.ok(await s.get(deskUrl(departmentId, roomId, desk.id), s.user))).toEqual({ id: desk.id, name: 'Home', type: 'FLEX', roomId, departmentId });
      expect(await countRows(s.db, 'equipment', { column: 'desk_id', value: desk.id })).toBe(0);
      expect(s.ok(await s.get(equipmentUrl(departmentId, roomId, desk.id), s.user))).toMatchObject({ totalElements: 0 });
    });

    it('answers 404 for an unknown desk and 400 for a malformed id', async () => {
      expectProblem(await s.get(deskUrl(departmentId, roomId, UNKNOWN_ID), s.user), 404, 'NOT_FOUND');
      expectProblem(await s.send('PUT', deskUrl(departmentId, roomId, UNKNOWN_ID), s.admin, { name: 'X' }), 404, 'NOT_FOUND');
      expectProblem(await s.send('DELETE', deskUrl(departmentId, roomId, UNKNOWN_ID), s.admin), 404, 'NOT_FOUND');
      expectProblem(await s.send('POST', desksUrl(departmentId, UNKNOWN_ID), s.admin, { name: 'X' }), 404, 'NOT_FOUND');
      expectProblem(await s.get(deskUrl(departmentId, roomId, '1234'), s.user), 400, 'VALIDATION_FAILED');
    });
  });

  describe('permissions and bodies', () => {
    it('lets a USER read but not create, change or delete a desk (403, nothing written)', async () => {
      const desk = await insertDesk(s.db, roomId, { name: 'Guarded' });
      const before = await countRows(s.db, 'desks');
      expectProblem(await s.send('POST', desksUrl(departmentId, roomId), s.user, { name: 'Mine' }), 403, 'FORBIDDEN');
      expectProblem(await s.send('PUT', deskUrl(departmentId, roomId, desk.id), s.user, { type: 'FIXED' }), 403, 'FORBIDDEN');
      expectProblem(await s.send('DELETE', deskUrl(departmentId, roomId, desk.id), s.user), 403, 'FORBIDDEN');
      expect(await countRows(s.db, 'desks')).toBe(before);
      expect(s.ok<DeskBody>(await s.get(deskUrl(departmentId, roomId, desk.id), s.user)).type).toBe('FLEX');
      expectProblem(await s.get(deskUrl(departmentId, roomId, desk.id)), 401, 'UNAUTHENTICATED');
      expectProblem(await s.send('DELETE', deskUrl(departmentId, roomId, desk.id), undefined), 401, 'UNAUTHENTICATED');
    });

    it('lets an ADMIN create, change and delete a desk', async () => {
      const desk = s.ok<DeskBody>(await s.send('POST', desksUrl(departmentId, roomId), s.admin, { name: 'Temp' }));
      expect(s.ok<DeskBody>(await s.send('PUT', deskUrl(departmentId, roomId, desk.id), s.admin, { type: 'FIXED' })).type).toBe('FIXED');
      expect((await s.send('DELETE', deskUrl(departmentId, roomId, desk.id), s.admin)).statusCode).toBe(204);
      expectProblem(await s.get(deskUrl(departmentId, roomId, desk.id), s.admin), 404);
    });

    const refused: [string, unknown, string][] = [
      ['an id', { name: 'D', id: UNKNOWN_ID }, 'id'],
      ['a roomId', { name: 'D', roomId: UNKNOWN_ID }, 'roomId'],
      ['a departmentId', { name: 'D', departmentId: UNKNOWN_ID }, 'departmentId'],
      ['a null name', { name: null }, 'name'],
      ['a null type', { name: 'D', type: null }, 'type'],
      ['an unknown type', { name: 'D', type: 'SHARED' }, 'type'],
      ['a lower-case type', { name: 'D', type: 'flex' }, 'type'],
      ['a name of 201 characters', { name: 'd'.repeat(201) }, 'name'],
    ];
    for (const [label, body, field] of refused) {
      it(`refuses a desk create body with ${label} (400 naming ${field})`, async () => {
        const before = await countRows(s.db, 'desks');
        expect(fieldsOf(expectProblem(await s.send('POST', desksUrl(departmentId, roomId), s.admin, body), 400, 'VALIDATION_FAILED'))).toEqual([field]);
        expect(await countRows(s.db, 'desks')).toBe(before);
      });
    }

    it('refuses unknown members in a desk change', async () => {
      const desk = await insertDesk(s.db, roomId, { name: 'Strict' });
      expect(fieldsOf(expectProblem(await s.send('PUT', deskUrl(departmentId, roomId, desk.id), s.admin, { departmentId }), 400))).toEqual(['departmentId']);
      expect(fieldsOf(expectProblem(await s.send('PUT', deskUrl(departmentId, roomId, desk.id), s.admin, { name: null }), 400))).toEqual(['name']);
      expect(s.ok<DeskBody>(await s.get(deskUrl(departmentId, roomId, desk.id), s.admin)).name).toBe('Strict');
    });
  });

  describe('change and move', () => {
    it('keeps the members left out and sets modifiedAt', async () => {
      const desk = await insertDesk(s.db, roomId, { name: 'Partial' });
      s.t.clock.advance(60_000);
      const changed = s.ok<DeskBody>(await s.send('PUT', deskUrl(departmentId, roomId, desk.id), s.admin, { type: 'FIXED' }));
      expect(changed).toEqual({ id: desk.id, name: 'Partial', type: 'FIXED', roomId, departmentId });
      expect((await modifiedAt(s.db, 'desks', desk.id)).toISOString()).toBe(s.t.clock.now().toISOString());
      expect(s.ok(await s.send('PUT', deskUrl(departmentId, roomId, desk.id), s.admin, { name: 'Renamed ' }))).toEqual({ ...changed, name: 'Renamed' });
      expect(s.ok(await s.send('PUT', deskUrl(departmentId, roomId, desk.id), s.admin, {}))).toEqual({ ...changed, name: 'Renamed' });
    });

    it('moves a desk to a room of another department; its departmentId follows', async () => {
      const target = await insertDepartment(s.db, { location: 'Target' });
      const targetRoom = await insertRoom(s.db, target.id, { name: 'Arrival' });
      const desk = await insertDesk(s.db, roomId, { name: 'Traveller' });
      const moved = s.ok<DeskBody>(await s.send('PUT', deskUrl(departmentId, roomId, desk.id), s.admin, { roomId: targetRoom.id, type: 'FIXED' }));
      expect(moved).toEqual({ id: desk.id, name: 'Traveller', type: 'FIXED', roomId: targetRoom.id, departmentId: target.id });
      expectProblem(await s.get(deskUrl(departmentId, roomId, desk.id), s.admin), 404, 'NOT_FOUND');
      expect(s.ok(await s.get(deskUrl(target.id, targetRoom.id, desk.id), s.admin))).toEqual(moved);
      expect(s.ok<RoomBody>(await s.get(roomUrl(target.id, targetRoom.id), s.admin)).desks).toEqual([moved]);
    });

    it('moves a desk to another room of the same department', async () => {
      const desk = await insertDesk(s.db, roomId, { name: 'Neighbour' });
      const moved = s.ok<DeskBody>(await s.send('PUT', deskUrl(departmentId, roomId, desk.id), s.admin, { roomId: otherRoomId }));
      expect(moved).toEqual({ id: desk.id, name: 'Neighbour', type: 'FLEX', roomId: otherRoomId, departmentId });
    });

    it('answers 400 naming roomId for an unknown room, changing nothing', async () => {
      const desk = await insertDesk(s.db, roomId, { name: 'Staying' });
      const problem = expectProblem(
        await s.send('PUT', deskUrl(departmentId, roomId, desk.id), s.admin, { roomId: UNKNOWN_ID, name: 'Gone' }),
        400,
        'VALIDATION_FAILED',
      );
      expect(fieldsOf(problem)).toEqual(['roomId']);
      expect(s.ok(await s.get(deskUrl(departmentId, roomId, desk.id), s.admin))).toEqual({ id: desk.id, name: 'Staying', type: 'FLEX', roomId, departmentId });
    });
  });
});
