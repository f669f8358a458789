import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { createTestDatabase, type TestDatabase } from '../../helpers/database.js';
import { insertDepartment, insertDesk, insertRoom } from '../../helpers/fixtures.js';
import { roomsUrl } from './inventory-helpers.js';

/**
 * The children embedded in list items (a department's room ids, a room's desks) come from one
 * extra query per page, never one per item: the statement count does not grow with the page.
 */

describe('statements per list request', () => {
  let database: TestDatabase;
  let t: TestApp;
  let admin: string;
  const statements: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase({ onQuery: (sql) => statements.push(sql) });
    t = await createTestApp({ database });
    admin = await t.adminToken();
  });
  afterAll(async () => {
    await t.close();
    await database.dispose();
  });

  async function statementsOf(url: string, query: Record<string, string> = {}): Promise<number> {
    statements.length = 0;
    const response = await t.request({ method: 'GET', url, token: admin, query });
    expect(response.statusCode).toBe(200);
    return statements.length;
  }

  it('lists one department or five, each with rooms, in the same number of statements', async () => {
    const db = t.database.handle.db;
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const department = await insertDepartment(db, { location: `Count ${i}` });
      for (let j = 0; j < 3; j++) await insertRoom(db, department.id, { name: `Room ${j}` });
      ids.push(department.id);
    }
    const one = await statementsOf('/api/departments', { ids: ids[0]! });
    const five = await statementsOf('/api/departments', { ids: ids.join(',') });
    expect(five).toBe(one);
  });

  it('lists one room or five, each with desks, in the same number of statements', async () => {
    const db = t.database.handle.db;
    const single = await insertDepartment(db, { location: 'Single' });
    const many = await insertDepartment(db, { location: 'Many' });
    const fill = async (departmentId: string, rooms: number) => {
      for (let i = 0; i < rooms; i++) {
        const room = await insertRoom(db, departmentId, { name: `Room ${i}` });
        for (let j = 0; j < 3; j++) await insertDesk(db, room.id, { name: `Desk ${j}` });
      }
    };
    await fill(single.id, 1);
    await fill(many.id, 5);
    expect(await statementsOf(roomsUrl(many.id))).toBe(await statementsOf(roomsUrl(single.id)));
  });
});
