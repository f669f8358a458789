import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { desks as desksTable, floorPlanPositions } from '../../../src/db/schema.js';
import { createTestApp, expectProblem, type TestApp } from '../../helpers/app.js';
import { createTestDatabase, StatementCounter } from '../../helpers/database.js';
import { solidImage } from '../../helpers/images.js';
import { insertDepartment, insertDesk, insertReservation, insertRoom } from '../../helpers/fixtures.js';
import { DeskAvailability, FloorPlanAvailability, Position } from '../../../src/modules/floor-plans/floor-plans.schemas.js';
import { createAjv } from '../../../src/plugins/validation.js';

/**
 * Floor plans (docs/behaviour.md#floor-plans): positions of desks on the department image,
 * replaced whole with If-Match, removed with their desk, and availability drawn on them.
 */

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';
const PASSWORD = 'floor-plan-password-1';

interface Plan {
  departmentId: string;
  etag: string;
  image: { url: string; etag: string } | null;
  desks: { id: string; name: string; roomName: string; position: { x: number; y: number; width: number; height: number; rotation: number } | null }[];
}
interface Availability {
  desks: {
    id: string;
    name: string;
    state: string;
    position: object;
    longestFree: { startTime: string; endTime: string } | null;
  }[];
}

const planUrl = (departmentId: string) => `/api/departments/${departmentId}/floor-plan`;
const at = (time: string) => new Date(`2030-03-04T${time}Z`);
const shape = (deskId: string, x = 0.1, y = 0.2) => ({ deskId, x, y, width: 0.05, height: 0.04, rotation: 0 });

describe('floor plans', () => {
  let t: TestApp;
  let admin: string;
  let user: string;
  let userId: string;
  let otherUserId: string;
  const counter = new StatementCounter();

  beforeAll(async () => {
    const database = await createTestDatabase({ onQuery: counter.onQuery });
    t = await createTestApp({ database, timedJobs: false });
    admin = await t.adminToken();
    userId = (await t.createUser({ email: 'fp-user@example.test', password: PASSWORD })).id;
    otherUserId = (await t.createUser({ email: 'fp-other@example.test', password: PASSWORD })).id;
    user = (await t.login('fp-user@example.test', PASSWORD)).accessToken;
  });
  // The app does not own a database it was given: dispose of it here.
  afterAll(async () => {
    await t?.close();
    await t?.database.dispose();
  });

  async function office(deskNames = ['A', 'B', 'C'], roomName = 'Open space') {
    const db = t.database.handle.db;
    const department = await insertDepartment(db);
    const room = await insertRoom(db, department.id, { name: roomName });
    const deskRows = [];
    for (const name of deskNames) deskRows.push(await insertDesk(db, room.id, { name }));
    return { department, room, desks: deskRows };
  }

  async function readPlan(departmentId: string, token = admin): Promise<Plan> {
    const response = await t.request({ method: 'GET', url: planUrl(departmentId), token });
    expect(response.statusCode).toBe(200);
    expect(response.headers.etag).toBe(response.json<Plan>().etag);
    return response.json<Plan>();
  }

  const put = (departmentId: string, positions: object[], ifMatch: string | undefined, token = admin) =>
    t.request({ method: 'PUT', url: planUrl(departmentId), token, payload: { positions }, headers: ifMatch === undefined ? {} : { 'if-match': ifMatch } });

  describe('positions', () => {
    it('lists every desk of the department, unplaced ones with a null position; 404 for an unknown department', async () => {
      const { department, desks } = await office();
      const plan = await readPlan(department.id, user);
      expect(plan.departmentId).toBe(department.id);
      expect(plan.image).toBeNull();
      expect(plan.desks.map((desk) => [desk.id, desk.position])).toEqual(desks.map((desk) => [desk.id, null]));
      expectProblem(await t.request({ method: 'GET', url: planUrl(UNKNOWN_ID), token: user }), 404, 'NOT_FOUND');
    });

    it('replaces the whole plan in one request; a new ETag each time, the same for the same plan', async () => {
      const { department, desks } = await office();
      const empty = await readPlan(department.id);
      const first = await put(department.id, [shape(desks[0]!.id), { ...shape(desks[1]!.id, 0.5, 0.5), rotation: 90.5 }], empty.etag);
      expect(first.statusCode).toBe(200);
      const placed = first.json<Plan>();
      expect(first.headers.etag).toBe(placed.etag);
      expect(placed.etag).not.toBe(empty.etag);
      expect(placed.desks.map((desk) => desk.position)).toEqual([
        { x: 0.1, y: 0.2, width: 0.05, height: 0.04, rotation: 0 },
        { x: 0.5, y: 0.5, width: 0.05, height: 0.04, rotation: 90.5 },
        null,
      ]);
      // The whole plan: the desk left out is taken off.
      const second = await put(department.id, [shape(desks[2]!.id)], placed.etag);
      expect(second.statusCode).toBe(200);
      expect(second.json<Plan>().desks.map((desk) => desk.position !== null)).toEqual([false, false, true]);
      // Back to empty: the ETag of an empty plan again.
      const cleared = await put(department.id, [], second.json<Plan>().etag);
      expect(cleared.json<Plan>().etag).toBe(empty.etag);
      // The image, once there is one, is named with its own ETag.
      const png = await solidImage('png', 40, 30);
      const upload = await t.request({
        method: 'PUT',
        url: `/api/departments/${department.id}/image`,
        token: admin,
        payload: png,
        headers: { 'content-type': 'image/png' },
      });
      expect(upload.statusCode).toBe(200);
      const withImage = await readPlan(department.id);
      expect(withImage.image?.url).toBe(`/api/departments/${department.id}/image`);
      expect(withImage.image?.etag).toMatch(/^".+"$/);
    });

    it('refuses bad positions with 400 naming them, and writes nothing', async () => {
      const { department, desks } = await office();
      const other = await office(['Elsewhere']);
      const { etag } = await readPlan(department.id);
      const cases: [object[], string][] = [
        [[{ ...shape(desks[0]!.id), x: 1.5 }], 'positions.0.x'],
        [[{ ...shape(desks[0]!.id), width: 0 }], 'positions.0.width'],
        [[{ ...shape(desks[0]!.id), rotation: 360 }], 'positions.0.rotation'],
        [[{ ...shape(desks[0]!.id), rotation: -1 }], 'positions.0.rotation'],
        [[{ ...shape(desks[0]!.id), x: 0.99 }], 'positions.0.width'],
        [[{ ...shape(desks[0]!.id), y: 0.97 }], 'positions.0.height'],
        [[shape(desks[0]!.id), shape(desks[0]!.id, 0.5)], 'positions.1.deskId'],
        [[{ ...shape(desks[0]!.id), colour: 'red' }], 'positions.0.colour'],
        [[shape(desks[0]!.id), shape(UNKNOWN_ID)], 'positions.1.deskId'],
        [[shape(desks[0]!.id), shape(other.desks[0]!.id)], 'positions.1.deskId'],
      ];
      for (const [positions, field] of cases) {
        const body = expectProblem(await put(department.id, positions, etag), 400, 'VALIDATION_FAILED');
        expect(body.errors?.map((error) => error.field)).toContain(field);
      }
      const named = expectProblem(await put(department.id, [shape(other.desks[0]!.id), shape(UNKNOWN_ID)], etag), 400);
      expect(named.detail).toContain(other.desks[0]!.id);
      expect(named.detail).toContain(UNKNOWN_ID);
      expect(named.detail).toContain('another department');
      expect((await readPlan(department.id)).etag).toBe(etag);
      expect((await readPlan(department.id)).desks.every((desk) => desk.position === null)).toBe(true);
    });

    it('is for admins to change (403), needs If-Match (428), and 404 for an unknown department', async () => {
      const { department, desks } = await office();
      const { etag } = await readPlan(department.id);
      expectProblem(await put(department.id, [shape(desks[0]!.id)], etag, user), 403, 'FORBIDDEN');
      expectProblem(await put(department.id, [shape(desks[0]!.id)], undefined), 428, 'PRECONDITION_REQUIRED');
      expectProblem(await put(UNKNOWN_ID, [], '*'), 404, 'NOT_FOUND');
      expect((await put(department.id, [shape(desks[0]!.id)], '*')).statusCode).toBe(200);
    });

    it('two admins editing at once: the second save is refused with 412 and changes nothing', async () => {
      const { department, desks } = await office();
      const { etag } = await readPlan(department.id);
      const saved = await put(department.id, [shape(desks[0]!.id)], etag);
      expect(saved.statusCode).toBe(200);
      expectProblem(await put(department.id, [shape(desks[1]!.id)], etag), 412, 'PLAN_CHANGED');
      expect((await readPlan(department.id)).desks.map((desk) => desk.position !== null)).toEqual([true, false, false]);

      // Sent at the same moment with the same ETag: exactly one wins.
      const current = (await readPlan(department.id)).etag;
      const racing = await Promise.all(desks.map((desk) => put(department.id, [shape(desk.id, 0.3)], current)));
      expect(racing.map((response) => response.statusCode).sort()).toEqual([200, 412, 412]);
      expect((await readPlan(department.id)).desks.filter((desk) => desk.position !== null)).toHaveLength(1);
    });

    it('a deleted desk, a desk moved to another department and a room moved away leave the plan; a move within the department does not', async () => {
      const { department, room, desks } = await office(['A', 'B', 'C', 'D']);
      const otherRoomHere = await insertRoom(t.database.handle.db, department.id, { name: 'Quiet room' });
      // Another room name: room names are unique within a department (docs/behaviour.md#names-of-rooms-and-desks).
      const elsewhere = await office(['X'], 'Far room');
      const { etag } = await readPlan(department.id);
      expect(
        (
          await put(
            department.id,
            desks.map((desk, index) => shape(desk.id, index * 0.1)),
            etag,
          )
        ).statusCode,
      ).toBe(200);
      const before = (await readPlan(department.id)).etag;

      const deskUrl = (roomId: string, deskId: string) => `/api/departments/${department.id}/rooms/${roomId}/desks/${deskId}`;
      expect((await t.request({ method: 'DELETE', url: deskUrl(room.id, desks[0]!.id), token: admin })).statusCode).toBeLessThan(300);
      const moved = await t.request({ method: 'PUT', url: deskUrl(room.id, desks[1]!.id), token: admin, payload: { roomId: elsewhere.room.id } });
      expect(moved.statusCode).toBe(200);
      const movedHere = await t.request({ method: 'PUT', url: deskUrl(room.id, desks[2]!.id), token: admin, payload: { roomId: otherRoomHere.id } });
      expect(movedHere.statusCode).toBe(200);

      const after = await readPlan(department.id);
      expect(after.etag).not.toBe(before);
      expect(after.desks.filter((desk) => desk.position !== null).map((desk) => desk.id)).toEqual([desks[3]!.id, desks[2]!.id]);
      expect((await readPlan(elsewhere.department.id)).desks.every((desk) => desk.position === null)).toBe(true);

      const roomMove = await t.request({
        method: 'PUT',
        url: `/api/departments/${department.id}/rooms/${room.id}`,
        token: admin,
        payload: { departmentId: elsewhere.department.id },
      });
      expect(roomMove.statusCode).toBe(200);
      const rows = await t.database.handle.db.select().from(floorPlanPositions);
      expect(rows.filter((row) => row.departmentId === department.id).map((row) => row.deskId)).toEqual([desks[2]!.id]);
      expect(rows.some((row) => row.deskId === desks[3]!.id)).toBe(false);
    });
  });

  describe('availability', () => {
    const window = { from: '2030-03-04T09:00:00Z', to: '2030-03-04T12:00:00Z' };
    const availability = (departmentId: string, query: Record<string, string> = window, token = user) =>
      t.request({ method: 'GET', url: `${planUrl(departmentId)}/availability`, token, query });

    it('gives each placed desk its state for the half-open window, in one statement', async () => {
      const db = t.database.handle.db;
      const names = ['before', 'after', 'partly', 'covered', 'mine', 'fixed', 'closed-room', 'unplaced'];
      const { department, room, desks } = await office(names.slice(0, 6));
      const closedRoom = await insertRoom(db, department.id, { name: 'Closed', available: false });
      const closedDesk = await insertDesk(db, closedRoom.id, { name: 'closed-room' });
      const unplaced = await insertDesk(db, room.id, { name: 'unplaced' });
      const [ending, starting, partly, covered, mine, fixed] = desks;
      await db.update(desksTable).set({ type: 'FIXED' }).where(eq(desksTable.id, fixed!.id));
      const other = { userId: otherUserId, userExclusive: false };
      // Touching the window's edges only: not counted (half-open).
      await insertReservation(db, { ...other, deskId: ending!.id, startTime: at('07:00:00'), endTime: at('09:00:00') });
      await insertReservation(db, { ...other, deskId: starting!.id, startTime: at('12:00:00'), endTime: at('14:00:00') });
      // 09:30–10:00 and 11:00–11:30 booked: free 09:00–09:30, 10:00–11:00 (the longest), 11:30–12:00.
      await insertReservation(db, { ...other, deskId: partly!.id, startTime: at('09:30:00'), endTime: at('10:00:00') });
      await insertReservation(db, { ...other, deskId: partly!.id, startTime: at('11:00:00'), endTime: at('11:30:00') });
      // Two back-to-back reservations cover it all.
      await insertReservation(db, { ...other, deskId: covered!.id, startTime: at('08:00:00'), endTime: at('10:30:00') });
      await insertReservation(db, { ...other, deskId: covered!.id, startTime: at('10:30:00'), endTime: at('12:00:01') });
      await insertReservation(db, { userId, deskId: mine!.id, startTime: at('11:59:00'), endTime: at('13:00:00') });

      const { etag } = await readPlan(department.id);
      const placed = [...desks, closedDesk].map((desk, index) => shape(desk.id, index * 0.1));
      expect((await put(department.id, placed, etag)).statusCode).toBe(200);

      const { result: response, statements } = await counter.count(() => availability(department.id));
      expect(response.statusCode).toBe(200);
      // The session lookup, then one statement.
      expect(statements).toBe(2);
      const states = Object.fromEntries(response.json<Availability>().desks.map((desk) => [desk.name, desk.state]));
      expect(states).toEqual({
        before: 'FREE',
        after: 'FREE',
        partly: 'PARTLY_FREE',
        covered: 'BOOKED',
        mine: 'MINE',
        fixed: 'NOT_BOOKABLE',
        'closed-room': 'NOT_BOOKABLE',
      });
      expect(response.json<Availability>().desks.some((desk) => desk.id === unplaced.id)).toBe(false);
      const partlyDesk = response.json<Availability>().desks.find((desk) => desk.name === 'partly')!;
      expect(partlyDesk.longestFree).toEqual({ startTime: '2030-03-04T10:00:00.000Z', endTime: '2030-03-04T11:00:00.000Z' });
      const freeDesk = response.json<Availability>().desks.find((desk) => desk.name === 'before')!;
      expect(freeDesk.longestFree).toEqual({ startTime: '2030-03-04T09:00:00.000Z', endTime: '2030-03-04T12:00:00.000Z' });
      expect(response.json<Availability>().desks.find((desk) => desk.name === 'covered')!.longestFree).toBeNull();
      // Serialised by JSON.stringify (floor-plans.routes.ts): still exactly the documented shape, members in its order.
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      const validate = createAjv({}).compile(FloorPlanAvailability);
      expect(validate(response.json()), JSON.stringify(validate.errors)).toBe(true);
      expect(Object.keys(response.json<object>())).toEqual(Object.keys(FloorPlanAvailability.properties));
      expect(Object.keys(partlyDesk)).toEqual(Object.keys(DeskAvailability.properties));
      expect(Object.keys(response.json<Availability>().desks[0]!.position)).toEqual(Object.keys(Position.properties));
      expect(Object.keys(partlyDesk.longestFree!)).toEqual(['startTime', 'endTime']);

      // The other user sees "mine" as partly free (09:00–11:59 free).
      const asAdmin = await availability(department.id, window, admin);
      const seenByOthers = asAdmin.json<Availability>().desks.find((desk) => desk.name === 'mine')!;
      expect(seenByOthers.state).toBe('PARTLY_FREE');
      expect(seenByOthers.longestFree).toEqual({ startTime: '2030-03-04T09:00:00.000Z', endTime: '2030-03-04T11:59:00.000Z' });
    });

    it('counts the one reservation reaching in from before the window, and takes the earliest of equally long free stretches', async () => {
      const names = ['reaching-in', 'spanning', 'tie', 'edges', 'mine-from-before'];
      const { department, desks } = await office(names);
      const db = t.database.handle.db;
      const [reachingIn, spanning, tie, edges, mineFromBefore] = desks;
      const other = { userId: otherUserId, userExclusive: false };
      const book = (deskId: string, from: string, to: string, by: { userId: string; userExclusive: boolean } = other) =>
        insertReservation(db, { ...by, deskId, startTime: at(from), endTime: at(to) });
      // An earlier reservation ends before the window; the last one before it reaches in to 10:00.
      // Free 10:00–11:00 (the longest) and 11:15–12:00.
      await book(reachingIn!.id, '07:00:00', '08:00:00');
      await book(reachingIn!.id, '08:30:00', '10:00:00');
      await book(reachingIn!.id, '11:00:00', '11:15:00');
      // One reservation from before the window to after it.
      await book(spanning!.id, '08:00:00', '13:00:00');
      // Free 09:00–10:00 and 11:00–12:00, equally long: the earlier one.
      await book(tie!.id, '10:00:00', '11:00:00');
      // Back to back at the start, one at the very end, one touching `from` from before: free 09:30–11:45.
      await book(edges!.id, '08:00:00', '09:00:00');
      await book(edges!.id, '09:00:00', '09:15:00');
      await book(edges!.id, '09:15:00', '09:30:00');
      await book(edges!.id, '11:45:00', '12:00:00');
      // The caller's own reservation, reaching in from before the window (after another user's).
      await book(mineFromBefore!.id, '07:00:00', '07:30:00');
      await book(mineFromBefore!.id, '08:00:00', '09:01:00', { userId, userExclusive: false });

      const { etag } = await readPlan(department.id);
      expect(
        (
          await put(
            department.id,
            desks.map((desk, index) => shape(desk.id, index * 0.1)),
            etag,
          )
        ).statusCode,
      ).toBe(200);
      const response = await availability(department.id);
      expect(response.statusCode).toBe(200);
      const byName = Object.fromEntries(response.json<Availability>().desks.map((desk) => [desk.name, { state: desk.state, longestFree: desk.longestFree }]));
      const stretch = (from: string, to: string) => ({ startTime: `2030-03-04T${from}.000Z`, endTime: `2030-03-04T${to}.000Z` });
      expect(byName).toEqual({
        'reaching-in': { state: 'PARTLY_FREE', longestFree: stretch('10:00:00', '11:00:00') },
        spanning: { state: 'BOOKED', longestFree: null },
        tie: { state: 'PARTLY_FREE', longestFree: stretch('09:00:00', '10:00:00') },
        edges: { state: 'PARTLY_FREE', longestFree: stretch('09:30:00', '11:45:00') },
        'mine-from-before': { state: 'MINE', longestFree: stretch('09:01:00', '12:00:00') },
      });
    });

    it('a department without placed desks answers an empty list; bad windows are 400; unknown departments 404', async () => {
      const { department } = await office();
      const empty = await availability(department.id);
      expect(empty.statusCode).toBe(200);
      expect(empty.json<Availability>().desks).toEqual([]);
      expectProblem(await availability(UNKNOWN_ID), 404, 'NOT_FOUND');
      expectProblem(await availability(department.id, { from: window.to, to: window.from }), 400, 'VALIDATION_FAILED');
      expectProblem(await availability(department.id, { from: window.from, to: window.from }), 400, 'VALIDATION_FAILED');
      expectProblem(await availability(department.id, { from: window.from, to: '2030-05-04T09:00:00Z' }), 400, 'VALIDATION_FAILED');
      expectProblem(await availability(department.id, { from: 'tomorrow', to: window.to }), 400, 'VALIDATION_FAILED');
      expectProblem(await availability(department.id, { from: window.from }), 400, 'VALIDATION_FAILED');
    });
  });
});
