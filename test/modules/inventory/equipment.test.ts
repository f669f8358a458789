import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UUID, expectProblem } from '../../helpers/app.js';
import type { Page } from '../../helpers/contract.js';
import { insertDepartment, insertDesk, insertEquipment, insertRoom } from '../../helpers/fixtures.js';
import {
  EQUIPMENT_KEYS,
  UNKNOWN_ID,
  countRows,
  equipmentItemUrl,
  equipmentUrl,
  expectEnvelope,
  fieldsOf,
  inventoryTest,
  modifiedAt,
  sortedKeys,
  type EquipmentBody,
  type InventoryTest,
} from './inventory-helpers.js';

/** …/desks/{deskId}/equipment and …/equipment/{equipmentId}. */

describe('equipment', () => {
  let s: InventoryTest;
  let departmentId: string;
  let roomId: string;
  let deskId: string;
  let otherDeskId: string;
  const listUrl = () => equipmentUrl(departmentId, roomId, deskId);
  const itemUrl = (id: string) => equipmentItemUrl(departmentId, roomId, deskId, id);

  beforeAll(async () => {
    s = await inventoryTest();
    departmentId = (await insertDepartment(s.db, { location: 'Equipment' })).id;
    roomId = (await insertRoom(s.db, departmentId)).id;
    deskId = (await insertDesk(s.db, roomId, { name: 'Main' })).id;
    otherDeskId = (await insertDesk(s.db, roomId, { name: 'Other' })).id;
  });
  afterAll(() => s.t.close());

  describe('shape', () => {
    it('creates an item with every member of Equipment; name trimmed, description kept as given', async () => {
      const item = s.ok<EquipmentBody>(await s.send('POST', listUrl(), s.admin, { name: ' Dock ', description: '  USB-C, 90 W ', type: 'DOCKING_STATION' }));
      expect(sortedKeys(item)).toEqual(EQUIPMENT_KEYS);
      expect(item.id).toMatch(UUID);
      expect(item).toEqual({ id: item.id, name: 'Dock', description: '  USB-C, 90 W ', type: 'DOCKING_STATION' });
      expect(s.ok(await s.get(itemUrl(item.id), s.user))).toEqual(item);
    });

    it('accepts an empty description and one of 10000 characters', async () => {
      expect(s.ok<EquipmentBody>(await s.send('POST', listUrl(), s.admin, { name: 'Plain', description: '', type: 'CHAIR' })).description).toBe('');
      expect(
        s.ok<EquipmentBody>(await s.send('POST', listUrl(), s.admin, { name: 'Long', description: 'x'.repeat(10_000), type: 'OTHER' })).description,
      ).toHaveLength(10_000);
    });

    it('lists a page of Equipment', async () => {
      const desk = await insertDesk(s.db, roomId, { name: 'Listed' });
      await insertEquipment(s.db, desk.id, { name: 'Screen', description: '27"', type: 'MONITOR' });
      const page = s.ok<Page<EquipmentBody>>(await s.get(equipmentUrl(departmentId, roomId, desk.id), s.user));
      expectEnvelope(page);
      expect(page.content).toHaveLength(1);
      expect(sortedKeys(page.content[0]!)).toEqual(EQUIPMENT_KEYS);
      expect(page.content[0]).toEqual({ id: expect.stringMatching(UUID), name: 'Screen', description: '27"', type: 'MONITOR' });
      expect(page).toMatchObject({ totalElements: 1, totalPages: 1, numberOfElements: 1, first: true, last: true, empty: false });
    });
  });

  describe('filter and order', () => {
    let desk: string;
    const url = () => equipmentUrl(departmentId, roomId, desk);
    const names = async (query: Record<string, string | string[]>) =>
      s.ok<Page<EquipmentBody>>(await s.get(url(), s.user, query)).content.map((item) => item.name);

    beforeAll(async () => {
      desk = (await insertDesk(s.db, roomId, { name: 'Filtered' })).id;
      await insertEquipment(s.db, desk, { name: 'Dell dock', description: 'b', type: 'DOCKING_STATION' });
      await insertEquipment(s.db, desk, { name: 'Monitor left', description: 'c', type: 'MONITOR' });
      await insertEquipment(s.db, desk, { name: 'Monitor right', description: 'a', type: 'MONITOR' });
      await insertEquipment(s.db, desk, { name: 'Mouse 100%', description: 'd', type: 'MOUSE' });
      await insertEquipment(s.db, desk, { name: 'Key_board', description: 'e', type: 'KEYBOARD' });
      await insertEquipment(s.db, desk, { name: 'Keyxboard', description: 'f', type: 'KEYBOARD' });
      await insertEquipment(s.db, otherDeskId, { name: 'Elsewhere monitor', description: '', type: 'MONITOR' });
    });

    it('lists everything of that desk only, by name', async () => {
      expect(await names({})).toEqual(['Dell dock', 'Key_board', 'Keyxboard', 'Monitor left', 'Monitor right', 'Mouse 100%']);
    });

    it('matches the type exactly, ignoring case', async () => {
      expect(await names({ filter: 'MONITOR' })).toEqual(['Monitor left', 'Monitor right']);
      expect(await names({ filter: 'docking_station' })).toEqual(['Dell dock']);
      // A part of a type's name is no type: it only matches names.
      expect(await names({ filter: 'DOCKING' })).toEqual([]);
    });

    it('matches a part of the name, ignoring case', async () => {
      expect(await names({ filter: 'DOCK' })).toEqual(['Dell dock']);
      expect(await names({ filter: 'right' })).toEqual(['Monitor right']);
      expect(await names({ filter: 'nothing like it' })).toEqual([]);
    });

    it('takes % and _ literally', async () => {
      expect(await names({ filter: '_' })).toEqual(['Key_board']);
      expect(await names({ filter: '%' })).toEqual(['Mouse 100%']);
      expect(await names({ filter: 'y_b' })).toEqual(['Key_board']);
    });

    it('takes repeated and comma-separated values, matching any of them', async () => {
      expect(await names({ filter: ['KEYBOARD', 'dock'] })).toEqual(['Dell dock', 'Key_board', 'Keyxboard']);
      expect(await names({ filter: 'keyboard,left' })).toEqual(['Key_board', 'Keyxboard', 'Monitor left']);
      expect(await names({ filter: ['mouse, right', 'DOCKING_STATION'] })).toEqual(['Dell dock', 'Monitor right', 'Mouse 100%']);
      expect(await names({ filter: ['', ' , '] })).toHaveLength(6);
    });

    it('refuses a value over 200 characters and more than 50 values (400 naming filter)', async () => {
      expect(fieldsOf(expectProblem(await s.get(url(), s.user, { filter: 'x'.repeat(201) }), 400, 'VALIDATION_FAILED'))).toEqual(['filter']);
      expect(fieldsOf(expectProblem(await s.get(url(), s.user, { filter: Array.from({ length: 51 }, (_, i) => `v${i}`).join(',') }), 400))).toEqual(['filter']);
    });

    it('sorts by type, description, name and id; refuses other properties', async () => {
      expect(await names({ sort: 'description' })).toEqual(['Monitor right', 'Dell dock', 'Monitor left', 'Mouse 100%', 'Key_board', 'Keyxboard']);
      expect(await names({ sort: ['type,desc', 'name,desc'] })).toEqual(['Mouse 100%', 'Monitor right', 'Monitor left', 'Keyxboard', 'Key_board', 'Dell dock']);
      const page = s.ok<Page<EquipmentBody>>(await s.get(url(), s.user, { sort: 'id', size: '2', page: '1' }));
      expect(page).toMatchObject({ number: 1, size: 2, totalElements: 6, totalPages: 3, first: false, last: false });
      const all = s.ok<Page<EquipmentBody>>(await s.get(url(), s.user, { sort: 'id' })).content.map((item) => item.id);
      expect(all).toEqual([...all].sort());
      expect(page.content.map((item) => item.id)).toEqual(all.slice(2, 4));
      for (const sort of ['deskId', 'createdAt'])
        expect(fieldsOf(expectProblem(await s.get(url(), s.user, { sort }), 400, 'VALIDATION_FAILED'))).toEqual(['sort']);
    });
  });

  describe('paths', () => {
    it('answers 404 for an item of another desk, for every operation, and changes nothing', async () => {
      const item = await insertEquipment(s.db, otherDeskId, { name: 'Theirs' });
      expectProblem(await s.get(itemUrl(item.id), s.user), 404, 'NOT_FOUND');
      expectProblem(await s.send('PUT', itemUrl(item.id), s.admin, { name: 'Mine' }), 404, 'NOT_FOUND');
      expectProblem(await s.send('DELETE', itemUrl(item.id), s.admin), 404, 'NOT_FOUND');
      const right = equipmentItemUrl(departmentId, roomId, otherDeskId, item.id);
      expect(s.ok<EquipmentBody>(await s.get(right, s.user)).name).toBe('Theirs');
    });

    it('answers 404 when the desk, room or department of the path does not hold it', async () => {
      const item = await insertEquipment(s.db, deskId, { name: 'Deep' });
      const foreign = await insertDepartment(s.db, { location: 'Foreign' });
      const foreignRoom = await insertRoom(s.db, foreign.id);
      const otherRoom = await insertRoom(s.db, departmentId);
      for (const url of [
        equipmentItemUrl(departmentId, otherRoom.id, deskId, item.id),
        equipmentItemUrl(foreign.id, roomId, deskId, item.id),
        equipmentItemUrl(foreign.id, foreignRoom.id, deskId, item.id),
        equipmentItemUrl(UNKNOWN_ID, roomId, deskId, item.id),
      ]) {
        expectProblem(await s.get(url, s.user), 404, 'NOT_FOUND');
        expectProblem(await s.send('PUT', url, s.admin, { name: 'Moved' }), 404, 'NOT_FOUND');
        expectProblem(await s.send('DELETE', url, s.admin), 404, 'NOT_FOUND');
      }
      expectProblem(await s.get(equipmentUrl(departmentId, otherRoom.id, deskId), s.user), 404, 'NOT_FOUND');
      expect(s.ok<EquipmentBody>(await s.get(itemUrl(item.id), s.user)).name).toBe('Deep');
    });

    it('answers 404 for an unknown item or desk', async () => {
      expectProblem(await s.get(itemUrl(UNKNOWN_ID), s.user), 404, 'NOT_FOUND');
      expectProblem(await s.send('PUT', itemUrl(UNKNOWN_ID), s.admin, { name: 'X' }), 404, 'NOT_FOUND');
      expectProblem(await s.send('DELETE', itemUrl(UNKNOWN_ID), s.admin), 404, 'NOT_FOUND');
      expectProblem(await s.get(equipmentUrl(departmentId, roomId, UNKNOWN_ID), s.user), 404, 'NOT_FOUND');
      expectProblem(
        await s.send('POST', equipmentUrl(departmentId, roomId, UNKNOWN_ID), s.admin, { name: 'X', description: '', type: 'MOUSE' }),
        404,
        'NOT_FOUND',
      );
    });
  });

  describe('permissions and bodies', () => {
    it('lets a USER read but not create, change or delete (403, nothing written)', async () => {
      const item = await insertEquipment(s.db, deskId, { name: 'Guarded' });
      const before = await countRows(s.db, 'equipment');
      expectProblem(await s.send('POST', listUrl(), s.user, { name: 'Mine', description: '', type: 'MOUSE' }), 403, 'FORBIDDEN');
      expectProblem(await s.send('PUT', itemUrl(item.id), s.user, { name: 'Mine' }), 403, 'FORBIDDEN');
      expectProblem(await s.send('DELETE', itemUrl(item.id), s.user), 403, 'FORBIDDEN');
      expect(await countRows(s.db, 'equipment')).toBe(before);
      expect(s.ok<EquipmentBody>(await s.get(itemUrl(item.id), s.user)).name).toBe('Guarded');
      expectProblem(await s.get(listUrl()), 401, 'UNAUTHENTICATED');
      expectProblem(await s.send('POST', listUrl(), undefined, { name: 'Mine', description: '', type: 'MOUSE' }), 401, 'UNAUTHENTICATED');
    });

    it('lets an ADMIN create, change and delete (always deletable)', async () => {
      const item = s.ok<EquipmentBody>(await s.send('POST', listUrl(), s.admin, { name: 'Temp', description: 'd', type: 'HEADSET' }));
      expect(s.ok<EquipmentBody>(await s.send('PUT', itemUrl(item.id), s.admin, { type: 'WEBCAM' })).type).toBe('WEBCAM');
      expect((await s.send('DELETE', itemUrl(item.id), s.admin)).statusCode).toBe(204);
      expect(await countRows(s.db, 'equipment', { column: 'id', value: item.id })).toBe(0);
      expectProblem(await s.get(itemUrl(item.id), s.admin), 404);
    });

    const valid = { name: 'Cam', description: 'HD', type: 'WEBCAM' };
    const refused: [string, unknown, string][] = [
      ['an id', { ...valid, id: UNKNOWN_ID }, 'id'],
      ['a deskId', { ...valid, deskId: UNKNOWN_ID }, 'deskId'],
      ['no description', { name: 'Cam', type: 'WEBCAM' }, 'description'],
      ['no type', { name: 'Cam', description: 'HD' }, 'type'],
      ['no name', { description: 'HD', type: 'WEBCAM' }, 'name'],
      ['a null description', { ...valid, description: null }, 'description'],
      ['an unknown type', { ...valid, type: 'LAMP' }, 'type'],
      ['a lower-case type', { ...valid, type: 'webcam' }, 'type'],
      ['a description of 10001 characters', { ...valid, description: 'x'.repeat(10_001) }, 'description'],
      ['a blank name', { ...valid, name: '  ' }, 'name'],
    ];
    for (const [label, body, field] of refused) {
      it(`refuses a create body with ${label} (400 naming ${field})`, async () => {
        const before = await countRows(s.db, 'equipment');
        expect(fieldsOf(expectProblem(await s.send('POST', listUrl(), s.admin, body), 400, 'VALIDATION_FAILED'))).toEqual([field]);
        expect(await countRows(s.db, 'equipment')).toBe(before);
      });
    }
  });

  describe('change', () => {
    it('keeps the members left out and sets modifiedAt', async () => {
      const item = await insertEquipment(s.db, deskId, { name: 'Partial', description: 'old', type: 'MOUSE' });
      s.t.clock.advance(60_000);
      const changed = s.ok<EquipmentBody>(await s.send('PUT', itemUrl(item.id), s.admin, { description: '' }));
      expect(changed).toEqual({ id: item.id, name: 'Partial', description: '', type: 'MOUSE' });
      expect((await modifiedAt(s.db, 'equipment', item.id)).toISOString()).toBe(s.t.clock.now().toISOString());
      expect(s.ok(await s.send('PUT', itemUrl(item.id), s.admin, { name: ' New ', type: 'KEYBOARD' }))).toEqual({ ...changed, name: 'New', type: 'KEYBOARD' });
    });

    it('refuses unknown members and nulls in a change, changing nothing', async () => {
      const item = await insertEquipment(s.db, deskId, { name: 'Strict', description: 'same', type: 'MOUSE' });
      expect(fieldsOf(expectProblem(await s.send('PUT', itemUrl(item.id), s.admin, { deskId: otherDeskId }), 400))).toEqual(['deskId']);
      expect(fieldsOf(expectProblem(await s.send('PUT', itemUrl(item.id), s.admin, { type: null }), 400))).toEqual(['type']);
      expect(s.ok(await s.get(itemUrl(item.id), s.admin))).toEqual({ id: item.id, name: 'Strict', description: 'same', type: 'MOUSE' });
    });
  });
});
