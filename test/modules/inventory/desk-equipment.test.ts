import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem } from '../../helpers/app.js';
import type { Page } from '../../helpers/contract.js';
import { insertDepartment, insertDesk, insertEquipment, insertRoom } from '../../helpers/fixtures.js';
import {
  EQUIPMENT_KEYS,
  UNKNOWN_ID,
  departmentUrl,
  expectEnvelope,
  inventoryTest,
  sortedKeys,
  type EquipmentBody,
  type InventoryTest,
} from './inventory-helpers.js';

/**
 * GET /api/departments/{departmentId}/desk-equipment (docs/api.md#desk-equipment): every desk of
 * the department with what it has, so that people see a desk's equipment where they choose it.
 */

interface DeskEquipmentBody {
  deskId: string;
  roomId: string;
  equipment: EquipmentBody[];
}

describe('desk equipment of a department', () => {
  let s: InventoryTest;
  let departmentId: string;
  let roomA: string;
  let roomB: string;
  let bare: string;
  let kitted: string;
  let second: string;
  const url = () => `${departmentUrl(departmentId)}/desk-equipment`;

  beforeAll(async () => {
    s = await inventoryTest();
    departmentId = (await insertDepartment(s.db, { location: 'Kit' })).id;
    // Rooms and desks inserted out of order: the answer orders them by room name, then desk name.
    roomB = (await insertRoom(s.db, departmentId, { name: 'B room' })).id;
    roomA = (await insertRoom(s.db, departmentId, { name: 'A room' })).id;
    second = (await insertDesk(s.db, roomB, { name: 'B1' })).id;
    kitted = (await insertDesk(s.db, roomA, { name: 'A2' })).id;
    bare = (await insertDesk(s.db, roomA, { name: 'A1', type: 'FIXED' })).id;
    await insertEquipment(s.db, kitted, { name: 'Screen right', description: '27"', type: 'MONITOR' });
    await insertEquipment(s.db, kitted, { name: 'Dock', description: 'USB-C', type: 'DOCKING_STATION' });
    await insertEquipment(s.db, kitted, { name: 'Screen left', description: '27"', type: 'MONITOR' });
    await insertEquipment(s.db, second, { name: 'Headset', description: '', type: 'HEADSET' });
    // Another department's desk is not listed.
    const other = await insertDepartment(s.db, { location: 'Elsewhere' });
    await insertEquipment(s.db, (await insertDesk(s.db, (await insertRoom(s.db, other.id)).id)).id);
  });
  afterAll(() => s.t.close());

  it('answers a page with one item per desk, equipment or not, to users, in room and desk name order', async () => {
    const page = s.ok<Page<DeskEquipmentBody>>(await s.get(url(), s.user));
    expectEnvelope(page);
    expect(page.totalElements).toBe(3);
    expect(page.content.map((item) => [item.deskId, item.roomId])).toEqual([
      [bare, roomA],
      [kitted, roomA],
      [second, roomB],
    ]);
    for (const item of page.content) expect(sortedKeys(item)).toEqual(['deskId', 'equipment', 'roomId']);
    expect(page.content[0]!.equipment).toEqual([]);
    // Whole Equipment items (the interface's resource, no member more), by type, then name.
    expect(page.content[1]!.equipment.map((item) => sortedKeys(item))).toEqual([EQUIPMENT_KEYS, EQUIPMENT_KEYS, EQUIPMENT_KEYS]);
    expect(page.content[1]!.equipment.map((item) => [item.type, item.name])).toEqual([
      ['DOCKING_STATION', 'Dock'],
      ['MONITOR', 'Screen left'],
      ['MONITOR', 'Screen right'],
    ]);
    expect(page.content[2]!.equipment).toEqual([{ id: expect.any(String), name: 'Headset', description: '', type: 'HEADSET' }]);
  });

  it('pages: size and page as everywhere, a page past the end is empty', async () => {
    const first = s.ok<Page<DeskEquipmentBody>>(await s.get(url(), s.user, { size: '2' }));
    expect(first.content.map((item) => item.deskId)).toEqual([bare, kitted]);
    expect(first).toMatchObject({ totalElements: 3, totalPages: 2, last: false });
    const next = s.ok<Page<DeskEquipmentBody>>(await s.get(url(), s.user, { size: '2', page: '1' }));
    expect(next.content.map((item) => item.deskId)).toEqual([second]);
    const past = s.ok<Page<DeskEquipmentBody>>(await s.get(url(), s.user, { size: '2', page: '5' }));
    expect(past).toMatchObject({ content: [], empty: true, totalElements: 3 });
  });

  it('refuses sorting (400), an unknown department (404) and anonymous callers (401)', async () => {
    expectProblem(await s.get(url(), s.user, { sort: 'name' }), 400);
    expectProblem(await s.get(`${departmentUrl(UNKNOWN_ID)}/desk-equipment`, s.user), 404);
    expectProblem(await s.get(`${departmentUrl('not-a-uuid')}/desk-equipment`, s.user), 400);
    expectProblem(await s.get(url()), 401);
  });

  it('lists a department with no desks as an empty page', async () => {
    const empty = await insertDepartment(s.db, { location: 'Empty' });
    const page = s.ok<Page<DeskEquipmentBody>>(await s.get(`${departmentUrl(empty.id)}/desk-equipment`, s.user));
    expect(page).toMatchObject({ content: [], totalElements: 0, totalPages: 0, empty: true });
  });
});
