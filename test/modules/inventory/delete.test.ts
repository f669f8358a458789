import { eq } from 'drizzle-orm';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../src/db/client.js';
import { departmentImages, reports } from '../../../src/db/schema.js';
import { expectProblem } from '../../helpers/app.js';
import { insertDepartment, insertDesk, insertEquipment, insertReport, insertReservation, insertRoom } from '../../helpers/fixtures.js';
import {
  TABLES,
  UNKNOWN_ID,
  countRows,
  departmentUrl,
  deskUrl,
  equipmentItemUrl,
  inventoryTest,
  roomUrl,
  type InventoryTest,
  type Table,
} from './inventory-helpers.js';

/** Deleting departments, rooms, desks and equipment: 409 while something is beneath, ?force=true (docs/behaviour.md#inventory-departments-rooms-desks-equipment). */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * A department with two rooms; the first holds two desks, the first desk carries an equipment
 * item, a past and a future reservation, and every level is named by a defect report.
 */
async function buildTree(s: InventoryTest) {
  const db = s.db;
  const now = s.t.clock.now().getTime();
  const department = await insertDepartment(db, { location: 'Tree' });
  const room = await insertRoom(db, department.id, { name: 'Busy' });
  const emptyRoom = await insertRoom(db, department.id, { name: 'Empty' });
  const desk = await insertDesk(db, room.id, { name: 'Equipped' });
  const bareDesk = await insertDesk(db, room.id, { name: 'Bare' });
  const item = await insertEquipment(db, desk.id);
  const past = await insertReservation(db, {
    userId: s.userId,
    deskId: desk.id,
    startTime: new Date(now - 2 * DAY),
    endTime: new Date(now - DAY),
    userExclusive: false,
  });
  const future = await insertReservation(db, {
    userId: s.userId,
    deskId: desk.id,
    startTime: new Date(now + DAY),
    endTime: new Date(now + DAY + HOUR),
    userExclusive: false,
  });
  await db
    .insert(departmentImages)
    .values({ departmentId: department.id, contentType: 'image/png', data: Buffer.from('png'), etag: '"tree"', updatedAt: new Date(now) });
  const report = await insertReport(db, { reportedBy: s.userId, departmentId: department.id, roomId: room.id, deskId: desk.id, equipmentId: item.id });
  return { department, room, emptyRoom, desk, bareDesk, item, past, future, report };
}

async function totals(db: Database): Promise<Record<Table, number>> {
  const result = {} as Record<Table, number>;
  for (const table of TABLES) result[table] = await countRows(db, table);
  return result;
}

async function reportRefs(db: Database, id: string) {
  const [row] = await db.select().from(reports).where(eq(reports.id, id));
  return row && { departmentId: row.departmentId, roomId: row.roomId, deskId: row.deskId, equipmentId: row.equipmentId };
}

describe('delete', () => {
  let s: InventoryTest;

  beforeAll(async () => {
    s = await inventoryTest();
  });
  afterAll(() => s.t.close());

  describe('refused while something is beneath (409 HAS_DEPENDENTS)', () => {
    it('refuses a department with rooms and counts what is in the way; nothing is deleted', async () => {
      const tree = await buildTree(s);
      const before = await totals(s.db);
      for (const url of [departmentUrl(tree.department.id), `${departmentUrl(tree.department.id)}?force=false`]) {
        const problem = expectProblem(await s.send('DELETE', url, s.admin), 409, 'HAS_DEPENDENTS');
        expect(problem.detail).toBe(
          `Department ${tree.department.id} still has 2 rooms, 2 desks, 1 equipment item and 1 future reservation; remove them first or delete with ?force=true`,
        );
        expect(problem.dependents).toEqual({ rooms: 2, desks: 2, equipment: 1, futureReservations: 1 });
      }
      expect(await totals(s.db)).toEqual(before);
    });

    it('refuses a department whose only room is empty', async () => {
      const department = await insertDepartment(s.db);
      await insertRoom(s.db, department.id);
      const problem = expectProblem(await s.send('DELETE', departmentUrl(department.id), s.admin), 409, 'HAS_DEPENDENTS');
      expect(problem.detail).toMatch(/still has 1 room;/);
      expect(problem.dependents).toEqual({ rooms: 1, desks: 0, equipment: 0, futureReservations: 0 });
      expect(await countRows(s.db, 'departments', { column: 'id', value: department.id })).toBe(1);
    });

    it('refuses a room with desks', async () => {
      const tree = await buildTree(s);
      const before = await totals(s.db);
      const problem = expectProblem(await s.send('DELETE', roomUrl(tree.department.id, tree.room.id), s.admin), 409, 'HAS_DEPENDENTS');
      expect(problem.detail).toBe(
        `Room ${tree.room.id} still has 2 desks, 1 equipment item and 1 future reservation; remove them first or delete with ?force=true`,
      );
      expect(problem.dependents).toEqual({ rooms: 0, desks: 2, equipment: 1, futureReservations: 1 });
      expect(await totals(s.db)).toEqual(before);
    });

    it('refuses a desk with equipment', async () => {
      const department = await insertDepartment(s.db);
      const room = await insertRoom(s.db, department.id);
      const desk = await insertDesk(s.db, room.id);
      await insertEquipment(s.db, desk.id);
      await insertEquipment(s.db, desk.id);
      const problem = expectProblem(await s.send('DELETE', deskUrl(department.id, room.id, desk.id), s.admin), 409, 'HAS_DEPENDENTS');
      expect(problem.detail).toMatch(/still has 2 equipment items;/);
      expect(problem.dependents).toEqual({ rooms: 0, desks: 0, equipment: 2, futureReservations: 0 });
      expect(await countRows(s.db, 'desks', { column: 'id', value: desk.id })).toBe(1);
      expect(await countRows(s.db, 'equipment', { column: 'desk_id', value: desk.id })).toBe(2);
    });

    it('refuses a desk with a future reservation, also one that is under way', async () => {
      const now = s.t.clock.now().getTime();
      for (const [start, end] of [
        [now + DAY, now + DAY + HOUR],
        [now - HOUR, now + HOUR],
      ] as const) {
        const department = await insertDepartment(s.db);
        const room = await insertRoom(s.db, department.id);
        const desk = await insertDesk(s.db, room.id);
        await insertReservation(s.db, { userId: s.userId, deskId: desk.id, startTime: new Date(start), endTime: new Date(end), userExclusive: false });
        const problem = expectProblem(await s.send('DELETE', deskUrl(department.id, room.id, desk.id), s.admin), 409, 'HAS_DEPENDENTS');
        expect(problem.detail).toBe(`Desk ${desk.id} still has 1 future reservation; remove them first or delete with ?force=true`);
        expect(problem.dependents).toEqual({ rooms: 0, desks: 0, equipment: 0, futureReservations: 1 });
        expect(await countRows(s.db, 'reservations', { column: 'desk_id', value: desk.id })).toBe(1);
      }
    });
  });

  describe('past reservations never block', () => {
    it('deletes a desk whose reservations have all ended (at the latest now), and them with it', async () => {
      const now = s.t.clock.now().getTime();
      const department = await insertDepartment(s.db);
      const room = await insertRoom(s.db, department.id);
      const desk = await insertDesk(s.db, room.id);
      await insertReservation(s.db, {
        userId: s.userId,
        deskId: desk.id,
        startTime: new Date(now - 3 * DAY),
        endTime: new Date(now - 2 * DAY),
        userExclusive: false,
      });
      await insertReservation(s.db, { userId: s.userId, deskId: desk.id, startTime: new Date(now - HOUR), endTime: new Date(now), userExclusive: false });
      expect((await s.send('DELETE', deskUrl(department.id, room.id, desk.id), s.admin)).statusCode).toBe(204);
      expect(await countRows(s.db, 'desks', { column: 'id', value: desk.id })).toBe(0);
      expect(await countRows(s.db, 'reservations', { column: 'desk_id', value: desk.id })).toBe(0);
      // The room is empty now, and so deletable; then the department.
      expect((await s.send('DELETE', roomUrl(department.id, room.id), s.admin)).statusCode).toBe(204);
      expect((await s.send('DELETE', departmentUrl(department.id), s.admin)).statusCode).toBe(204);
      expect(await countRows(s.db, 'departments', { column: 'id', value: department.id })).toBe(0);
    });
  });

  describe('force=true removes the whole subtree', () => {
    it('deletes a department with rooms, desks, equipment, reservations and image; reports stay with null references', async () => {
      const tree = await buildTree(s);
      const control = await buildTree(s);
      const before = await totals(s.db);
      expect((await s.send('DELETE', `${departmentUrl(tree.department.id)}?force=true`, s.admin)).statusCode).toBe(204);
      expect(await totals(s.db)).toEqual({
        ...before,
        departments: before.departments - 1,
        rooms: before.rooms - 2,
        desks: before.desks - 2,
        equipment: before.equipment - 1,
        reservations: before.reservations - 2,
        department_images: before.department_images - 1,
      });
      expect(await countRows(s.db, 'rooms', { column: 'department_id', value: tree.department.id })).toBe(0);
      for (const room of [tree.room, tree.emptyRoom]) expect(await countRows(s.db, 'desks', { column: 'room_id', value: room.id })).toBe(0);
      expect(await countRows(s.db, 'equipment', { column: 'desk_id', value: tree.desk.id })).toBe(0);
      expect(await countRows(s.db, 'reservations', { column: 'desk_id', value: tree.desk.id })).toBe(0);
      expect(await reportRefs(s.db, tree.report.id)).toEqual({ departmentId: null, roomId: null, deskId: null, equipmentId: null });
      expect(await reportRefs(s.db, control.report.id)).toEqual({
        departmentId: control.department.id,
        roomId: control.room.id,
        deskId: control.desk.id,
        equipmentId: control.item.id,
      });
      expectProblem(await s.get(departmentUrl(tree.department.id), s.admin), 404, 'NOT_FOUND');
    });

    it('deletes a room with its desks, equipment and reservations; the department and its other room stay', async () => {
      const tree = await buildTree(s);
      const before = await totals(s.db);
      expect((await s.send('DELETE', `${roomUrl(tree.department.id, tree.room.id)}?force=true`, s.admin)).statusCode).toBe(204);
      expect(await totals(s.db)).toEqual({
        ...before,
        rooms: before.rooms - 1,
        desks: before.desks - 2,
        equipment: before.equipment - 1,
        reservations: before.reservations - 2,
      });
      expect(await reportRefs(s.db, tree.report.id)).toEqual({ departmentId: tree.department.id, roomId: null, deskId: null, equipmentId: null });
      expect(s.ok<{ rooms: string[] }>(await s.get(departmentUrl(tree.department.id), s.admin)).rooms).toEqual([tree.emptyRoom.id]);
    });

    it('deletes a desk with its equipment and reservations; its room and the other desk stay', async () => {
      const tree = await buildTree(s);
      const before = await totals(s.db);
      expect((await s.send('DELETE', `${deskUrl(tree.department.id, tree.room.id, tree.desk.id)}?force=true`, s.admin)).statusCode).toBe(204);
      expect(await totals(s.db)).toEqual({ ...before, desks: before.desks - 1, equipment: before.equipment - 1, reservations: before.reservations - 2 });
      expect(await reportRefs(s.db, tree.report.id)).toEqual({ departmentId: tree.department.id, roomId: tree.room.id, deskId: null, equipmentId: null });
      expect(await countRows(s.db, 'desks', { column: 'id', value: tree.bareDesk.id })).toBe(1);
    });

    it('deletes equipment, which never has dependents; its report stays with equipmentId null', async () => {
      const tree = await buildTree(s);
      expect((await s.send('DELETE', equipmentItemUrl(tree.department.id, tree.room.id, tree.desk.id, tree.item.id), s.admin)).statusCode).toBe(204);
      expect(await countRows(s.db, 'equipment', { column: 'id', value: tree.item.id })).toBe(0);
      expect(await reportRefs(s.db, tree.report.id)).toEqual({
        departmentId: tree.department.id,
        roomId: tree.room.id,
        deskId: tree.desk.id,
        equipmentId: null,
      });
    });

    it('is for admins only (403 for a USER, nothing deleted) and refuses a force that is not a boolean', async () => {
      const tree = await buildTree(s);
      const before = await totals(s.db);
      expectProblem(await s.send('DELETE', `${departmentUrl(tree.department.id)}?force=true`, s.user), 403, 'FORBIDDEN');
      expectProblem(await s.send('DELETE', `${roomUrl(tree.department.id, tree.room.id)}?force=true`, s.user), 403, 'FORBIDDEN');
      expectProblem(await s.send('DELETE', `${deskUrl(tree.department.id, tree.room.id, tree.desk.id)}?force=true`, s.user), 403, 'FORBIDDEN');
      const problem = expectProblem(await s.send('DELETE', `${departmentUrl(tree.department.id)}?force=yes`, s.admin), 400, 'VALIDATION_FAILED');
      expect(problem.errors?.map((error) => error.field)).toContain('force');
      expect(await totals(s.db)).toEqual(before);
    });
  });

  describe('unknown ids', () => {
    it('answers 404 at every level, forced or not', async () => {
      const tree = await buildTree(s);
      for (const force of ['', '?force=true']) {
        expectProblem(await s.send('DELETE', `${departmentUrl(UNKNOWN_ID)}${force}`, s.admin), 404, 'NOT_FOUND');
        expectProblem(await s.send('DELETE', `${roomUrl(tree.department.id, UNKNOWN_ID)}${force}`, s.admin), 404, 'NOT_FOUND');
        expectProblem(await s.send('DELETE', `${deskUrl(tree.department.id, tree.room.id, UNKNOWN_ID)}${force}`, s.admin), 404, 'NOT_FOUND');
        expectProblem(await s.send('DELETE', `${deskUrl(tree.department.id, tree.emptyRoom.id, tree.desk.id)}${force}`, s.admin), 404, 'NOT_FOUND');
        expectProblem(
          await s.send('DELETE', `${equipmentItemUrl(tree.department.id, tree.room.id, tree.desk.id, UNKNOWN_ID)}${force}`, s.admin),
          404,
          'NOT_FOUND',
        );
      }
      expect(await countRows(s.db, 'desks', { column: 'id', value: tree.desk.id })).toBe(1);
    });
  });

  describe('concurrency (PostgreSQL)', () => {
    /**
     * A child is inserted in another transaction (its foreign key check holds a key-share lock on
     * the parent until commit); the delete must wait for it and then see it: 409, child kept.
     * Without the delete's FOR UPDATE lock it would count nothing, then cascade the child away.
     */
    const cases: {
      level: string;
      insert: (tree: { departmentId: string; roomId: string; deskId: string }, userId: string, start: Date) => string;
      url: (tree: { departmentId: string; roomId: string; deskId: string }) => string;
      table: Table;
      expected: RegExp;
    }[] = [
      {
        level: 'a department while a room is being added to it',
        insert: (tree) => `insert into rooms (department_id, name) values ('${tree.departmentId}', 'Late')`,
        url: (tree) => departmentUrl(tree.departmentId),
        table: 'rooms',
        expected: /still has 1 room;/,
      },
      {
        level: 'a room while a desk is being added to it',
        insert: (tree) => `insert into desks (room_id, name) values ('${tree.roomId}', 'Late')`,
        url: (tree) => roomUrl(tree.departmentId, tree.roomId),
        table: 'desks',
        expected: /still has 1 desk;/,
      },
      {
        level: 'a desk while a reservation of it is being booked',
        insert: (tree, userId, start) =>
          `insert into reservations (user_id, desk_id, start_time, end_time, user_exclusive) values ('${userId}', '${tree.deskId}', '${start.toISOString()}', '${new Date(start.getTime() + HOUR).toISOString()}', false)`,
        url: (tree) => deskUrl(tree.departmentId, tree.roomId, tree.deskId),
        table: 'reservations',
        expected: /still has 1 future reservation;/,
      },
    ];

    for (const { level, insert, url, table, expected } of cases) {
      it(`refuses to delete ${level}: the delete waits for the insert's commit, then counts it (409, nothing lost)`, async () => {
        // Empty nodes: only the concurrent insert can block the delete.
        const department = await insertDepartment(s.db);
        const room = table === 'rooms' ? undefined : await insertRoom(s.db, department.id);
        const desk = table === 'reservations' ? await insertDesk(s.db, room!.id) : undefined;
        const tree = { departmentId: department.id, roomId: room?.id ?? UNKNOWN_ID, deskId: desk?.id ?? UNKNOWN_ID };
        const before = await countRows(s.db, table);
        const other = postgres(s.t.database.url!, { max: 2, onnotice: () => {} });
        const writer = await other.reserve();
        try {
          await writer`begin`;
          await writer.unsafe(insert(tree, s.userId, new Date(s.t.clock.now().getTime() + DAY)));
          const deleting = s.send('DELETE', url(tree), s.admin);
          await waitFor(async () => {
            const [row] = await other`select count(*)::int as waiting from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`;
            return row!.waiting > 0;
          });
          await writer`commit`;
          const problem = expectProblem(await deleting, 409, 'HAS_DEPENDENTS');
          expect(problem.detail).toMatch(expected);
          expect(await countRows(s.db, table)).toBe(before + 1);
        } finally {
          writer.release();
          await other.end();
        }
      });
    }
  });
});

async function waitFor(condition: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
