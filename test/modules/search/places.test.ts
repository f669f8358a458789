import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, expectProblem, type TestApp } from '../../helpers/app.js';
import { PAGEABLE_KEYS, PAGE_KEYS, type Page } from '../../helpers/contract.js';
import { insertDepartment, insertDesk, insertEquipment, insertReservation, insertRoom } from '../../helpers/fixtures.js';

/**
 * POST /api/search/rooms and /api/search/departments (docs/behaviour.md#search) over a hand-built
 * inventory whose answers are known: every criterion alone, combined, text escaping, the
 * reservation windows at their edges, partlyBetween in each of its forms, paging and refusals.
 */

interface DeskItem {
  id: string;
  name: string;
  type: string;
  roomId: string;
  departmentId: string;
}
interface RoomItem {
  id: string;
  name: string;
  departmentId: string;
  available: boolean;
  desks: DeskItem[];
}
interface DepartmentItem {
  id: string;
  location: string;
  building: string;
  floor: number;
}

const ROOM_KEYS = ['available', 'departmentId', 'desks', 'id', 'name'];
const DESK_KEYS = ['departmentId', 'id', 'name', 'roomId', 'type'];
const DEPARTMENT_KEYS = ['building', 'floor', 'id', 'location'];
const PASSWORD = 'search-user-password-1';

const DAY = '2030-01-07';
const at = (time: string) => new Date(`${DAY}T${time}Z`);
/** The window most tests search: 09:00 to 17:00 UTC. */
const WINDOW = { start: `${DAY}T09:00:00Z`, end: `${DAY}T17:00:00Z` };

describe('search of rooms and departments', () => {
  let t: TestApp;
  let token: string;
  let userToken: string;

  // Departments, rooms, desks: see beforeAll for what each one holds.
  const dep: Record<'berlinHq' | 'hamburg' | 'munich' | 'berlinLab', string> = { berlinHq: '', hamburg: '', munich: '', berlinLab: '' };
  const room: Record<'alpha' | 'bravo' | 'charlie' | 'delta' | 'echo' | 'foxtrot' | 'golf', string> = {
    alpha: '',
    bravo: '',
    charlie: '',
    delta: '',
    echo: '',
    foxtrot: '',
    golf: '',
  };
  const desk: Record<'window' | 'door' | 'corner' | 'bravoWindow' | 'solo' | 'quiet' | 'foxtrotBench' | 'golfBench', string> = {
    window: '',
    door: '',
    corner: '',
    bravoWindow: '',
    solo: '',
    quiet: '',
    foxtrotBench: '',
    golfBench: '',
  };

  const post = (url: string, payload: unknown, options: { query?: Record<string, string | string[]>; token?: string | null } = {}) =>
    t.request({
      method: 'POST',
      url,
      ...(payload === undefined ? {} : { payload: payload as object }),
      ...(options.query ? { query: options.query } : {}),
      token: options.token === null ? undefined : (options.token ?? token),
    });

  async function ok<T>(response: LightMyRequestResponse): Promise<Page<T>> {
    if (response.statusCode !== 200) throw new Error(`expected 200, got ${response.statusCode}: ${response.body}`);
    return response.json<Page<T>>();
  }

  const searchRooms = async (criteria: unknown, query?: Record<string, string | string[]>) =>
    ok<RoomItem>(await post('/api/search/rooms', criteria, { query }));
  const searchDepartments = async (criteria: unknown, query?: Record<string, string | string[]>) =>
    ok<DepartmentItem>(await post('/api/search/departments', criteria, { query }));

  /** Each room as [room id, [its listed desk ids]], in answer order. */
  const listing = (page: Page<RoomItem>) => page.content.map((item) => [item.id, item.desks.map((listed) => listed.id)]);
  /** Every desk listed, as a sorted id list. */
  const deskIds = (page: Page<RoomItem>) => page.content.flatMap((item) => item.desks.map((listed) => listed.id)).sort();
  const sorted = (...ids: string[]) => [...ids].sort();
  const roomIds = (page: Page<RoomItem>) => page.content.map((item) => item.id);
  const departmentIds = (page: Page<DepartmentItem>) => page.content.map((item) => item.id);
  const fieldsOf = (problem: { errors?: { field: string }[] }) => problem.errors?.map((error) => error.field) ?? [];

  beforeAll(async () => {
    t = await createTestApp({ env: { LOGIN_MAX_ATTEMPTS_PER_ADDRESS: '100000' } });
    token = await t.adminToken();
    await t.createUser({ email: 'searcher@example.test', password: PASSWORD });
    userToken = (await t.login('searcher@example.test', PASSWORD)).accessToken;
    const ownerId = (await t.request({ method: 'GET', url: '/api/self', token })).json<{ id: string }>().id;
    const db = t.database.handle.db;

    dep.berlinHq = (await insertDepartment(db, { location: 'Berlin', building: 'HQ', floor: 1 })).id;
    dep.hamburg = (await insertDepartment(db, { location: 'Hamburg', building: 'Annex', floor: 2 })).id;
    dep.munich = (await insertDepartment(db, { location: 'Munich', building: 'Tower', floor: 3 })).id; // no rooms
    dep.berlinLab = (await insertDepartment(db, { location: 'Berlin', building: 'Lab', floor: 4 })).id;

    room.alpha = (await insertRoom(db, dep.berlinHq, { name: 'Alpha' })).id;
    room.bravo = (await insertRoom(db, dep.berlinHq, { name: 'Bravo 50%', available: false })).id;
    room.charlie = (await insertRoom(db, dep.berlinHq, { name: 'Charlie 500' })).id;
    room.delta = (await insertRoom(db, dep.hamburg, { name: 'Delta_1' })).id;
    room.echo = (await insertRoom(db, dep.hamburg, { name: 'Echo aX1' })).id; // no desks
    room.foxtrot = (await insertRoom(db, dep.berlinLab, { name: 'Foxtrot\\Quiet' })).id;
    room.golf = (await insertRoom(db, dep.berlinLab, { name: 'Golf tQ' })).id;

    desk.window = (await insertDesk(db, room.alpha, { name: 'Window' })).id;
    desk.door = (await insertDesk(db, room.alpha, { name: 'Door', type: 'FIXED' })).id;
    desk.corner = (await insertDesk(db, room.alpha, { name: 'Corner' })).id;
    desk.bravoWindow = (await insertDesk(db, room.bravo, { name: 'Window' })).id;
    desk.solo = (await insertDesk(db, room.charlie, { name: 'Solo' })).id;
    desk.quiet = (await insertDesk(db, room.delta, { name: 'Quiet' })).id;
    desk.foxtrotBench = (await insertDesk(db, room.foxtrot, { name: 'Bench' })).id;
    desk.golfBench = (await insertDesk(db, room.golf, { name: 'Bench', type: 'FIXED' })).id;

    await insertEquipment(db, desk.window, { type: 'DOCKING_STATION', name: 'Dell Dock' });
    await insertEquipment(db, desk.window, { type: 'MONITOR', name: 'LG 27' });
    await insertEquipment(db, desk.door, { type: 'MONITOR', name: 'Samsung' });
    await insertEquipment(db, desk.bravoWindow, { type: 'DOCKING_STATION', name: 'HP Dock' });
    await insertEquipment(db, desk.quiet, { type: 'MONITOR', name: 'Dell U2720' });
    await insertEquipment(db, desk.quiet, { type: 'KEYBOARD', name: 'Logitech' });

    const reserve = (deskId: string, start: string, end: string) =>
      insertReservation(db, { userId: ownerId, deskId, startTime: at(start), endTime: at(end), userExclusive: false });
    // Window: back to back with the window at both edges, free inside it.
    await reserve(desk.window, '07:00:00', '09:00:00');
    await reserve(desk.window, '17:00:00', '18:00:00');
    // Door: overlaps the window's start by 1 ms.
    await reserve(desk.door, '08:00:00', '09:00:00.001');
    // Corner: the whole window, covered by two reservations back to back.
    await reserve(desk.corner, '08:00:00', '13:00:00');
    await reserve(desk.corner, '13:00:00', '18:00:00');
    // Bravo's window desk: reserved but for a 30-minute gap (12:00–12:30).
    await reserve(desk.bravoWindow, '09:00:00', '12:00:00');
    await reserve(desk.bravoWindow, '12:30:00', '17:00:00');
    // Solo: overlaps the window's end by 1 ms.
    await reserve(desk.solo, '16:59:59.999', '17:30:00');
    // Quiet: a free gap of exactly two hours (11:00–13:00).
    await reserve(desk.quiet, '09:00:00', '11:00:00');
    await reserve(desk.quiet, '13:00:00', '17:00:00');
  });
  afterAll(() => t.close());

  describe('no criteria', () => {
    it('lists every room by name with all its desks (by name), a room without desks included, with exact item shapes', async () => {
      const page = await searchRooms({});
      expect(page.totalElements).toBe(7);
      expect(listing(page)).toEqual([
        [room.alpha, [desk.corner, desk.door, desk.window]],
        [room.bravo, [desk.bravoWindow]],
        [room.charlie, [desk.solo]],
        [room.delta, [desk.quiet]],
        [room.echo, []],
        [room.foxtrot, [desk.foxtrotBench]],
        [room.golf, [desk.golfBench]],
      ]);
      for (const item of page.content) {
        expect(Object.keys(item).sort()).toEqual(ROOM_KEYS);
        for (const listed of item.desks) expect(Object.keys(listed).sort()).toEqual(DESK_KEYS);
      }
      expect(page.content[0]).toEqual({
        id: room.alpha,
        name: 'Alpha',
        departmentId: dep.berlinHq,
        available: true,
        desks: [
          { id: desk.corner, name: 'Corner', type: 'FLEX', roomId: room.alpha, departmentId: dep.berlinHq },
          { id: desk.door, name: 'Door', type: 'FIXED', roomId: room.alpha, departmentId: dep.berlinHq },
          { id: desk.window, name: 'Window', type: 'FLEX', roomId: room.alpha, departmentId: dep.berlinHq },
        ],
      });
      expect(page.content[1]).toMatchObject({ name: 'Bravo 50%', available: false });
    });

    it('treats a missing body, empty members and an empty equipment list as no criteria', async () => {
      const all = listing(await searchRooms({}));
      const noBody = await post('/api/search/rooms', undefined);
      expect(listing(await ok<RoomItem>(noBody))).toEqual(all);
      expect(listing(await searchRooms({ department: {}, room: {}, desk: {}, equipment: [], reservation: {} }))).toEqual(all);
    });

    it('is open to a USER as well as an ADMIN, and to nobody without a token', async () => {
      const asUser = await post('/api/search/rooms', {}, { token: userToken });
      expect(asUser.statusCode).toBe(200);
      expect(asUser.json<Page<RoomItem>>().totalElements).toBe(7);
      const departments = await post('/api/search/departments', { room: { name: 'echo' } }, { token: userToken });
      expect(departmentIds(await ok<DepartmentItem>(departments))).toEqual([dep.hamburg]);
      for (const url of ['/api/search/rooms', '/api/search/departments']) {
        expectProblem(await post(url, {}, { token: null }), 401, 'UNAUTHENTICATED');
        expectProblem(await post(url, {}, { token: 'not-a-token' }), 401, 'INVALID_TOKEN');
      }
    });
  });

  describe('room and department criteria', () => {
    it('matches room names as substrings in any case', async () => {
      expect(roomIds(await searchRooms({ room: { name: 'ALPHA' } }))).toEqual([room.alpha]);
      expect(roomIds(await searchRooms({ room: { name: 'pHa' } }))).toEqual([room.alpha]);
      expect(roomIds(await searchRooms({ room: { name: 'o' } }))).toEqual([room.bravo, room.echo, room.foxtrot, room.golf]);
    });

    it('takes %, _ and \\ literally', async () => {
      expect(roomIds(await searchRooms({ room: { name: '50%' } }))).toEqual([room.bravo]);
      expect(roomIds(await searchRooms({ room: { name: 'a_1' } }))).toEqual([room.delta]);
      expect(roomIds(await searchRooms({ room: { name: 't\\Q' } }))).toEqual([room.foxtrot]);
      expect(roomIds(await searchRooms({ room: { name: '%' } }))).toEqual([room.bravo]);
      expect(roomIds(await searchRooms({ room: { name: '_' } }))).toEqual([room.delta]);
    });

    it('matches room id and available exactly', async () => {
      expect(listing(await searchRooms({ room: { id: room.delta } }))).toEqual([[room.delta, [desk.quiet]]]);
      expect(roomIds(await searchRooms({ room: { available: false } }))).toEqual([room.bravo]);
      expect((await searchRooms({ room: { available: true } })).totalElements).toBe(6);
      expect((await searchRooms({ room: { id: '00000000-0000-4000-8000-000000000000' } })).totalElements).toBe(0);
    });

    it('filters rooms by their department: location and building as substrings, floor exactly', async () => {
      expect(roomIds(await searchRooms({ department: { location: 'BERLIN' } }))).toEqual([room.alpha, room.bravo, room.charlie, room.foxtrot, room.golf]);
      expect(roomIds(await searchRooms({ department: { building: 'nne' } }))).toEqual([room.delta, room.echo]);
      expect(roomIds(await searchRooms({ department: { floor: 4 } }))).toEqual([room.foxtrot, room.golf]);
      expect(roomIds(await searchRooms({ department: { location: 'berlin', floor: 1 } }))).toEqual([room.alpha, room.bravo, room.charlie]);
      expect((await searchRooms({ department: { location: 'Munich' } })).totalElements).toBe(0);
      expect((await searchRooms({ department: { floor: 1 }, room: { name: 'delta' } })).totalElements).toBe(0);
    });
  });

  describe('desk and equipment criteria', () => {
    it('lists only the matching desks of each room, and leaves out rooms with none', async () => {
      expect(listing(await searchRooms({ desk: { name: 'WINDOW' } }))).toEqual([
        [room.alpha, [desk.window]],
        [room.bravo, [desk.bravoWindow]],
      ]);
      expect(listing(await searchRooms({ desk: { type: 'FIXED' } }))).toEqual([
        [room.alpha, [desk.door]],
        [room.golf, [desk.golfBench]],
      ]);
      expect(listing(await searchRooms({ desk: { id: desk.quiet } }))).toEqual([[room.delta, [desk.quiet]]]);
      expect(listing(await searchRooms({ desk: { name: 'bench', type: 'FLEX' } }))).toEqual([[room.foxtrot, [desk.foxtrotBench]]]);
    });

    it('matches an equipment element by type exactly and by name as a substring', async () => {
      expect(listing(await searchRooms({ equipment: [{ type: 'DOCKING_STATION' }] }))).toEqual([
        [room.alpha, [desk.window]],
        [room.bravo, [desk.bravoWindow]],
      ]);
      expect(listing(await searchRooms({ equipment: [{ name: 'DELL' }] }))).toEqual([
        [room.alpha, [desk.window]],
        [room.delta, [desk.quiet]],
      ]);
      // One item must carry both: Window's Dell is a dock, its monitor an LG.
      expect(listing(await searchRooms({ equipment: [{ type: 'MONITOR', name: 'dell' }] }))).toEqual([[room.delta, [desk.quiet]]]);
      expect((await searchRooms({ equipment: [{ type: 'HEADSET' }] })).totalElements).toBe(0);
    });

    it('needs ALL listed equipment on one desk', async () => {
      expect(listing(await searchRooms({ equipment: [{ type: 'MONITOR' }, { name: 'dock' }] }))).toEqual([[room.alpha, [desk.window]]]);
      expect(listing(await searchRooms({ equipment: [{ name: 'logitech' }, { name: 'dell' }] }))).toEqual([[room.delta, [desk.quiet]]]);
      expect((await searchRooms({ equipment: [{ name: 'Samsung' }, { name: 'dock' }] })).totalElements).toBe(0);
      // An element naming nothing asks for a desk with any equipment.
      expect(deskIds(await searchRooms({ equipment: [{}] }))).toEqual(sorted(desk.window, desk.door, desk.bravoWindow, desk.quiet));
    });

    it('combines room, department, desk and equipment criteria with AND', async () => {
      expect(listing(await searchRooms({ room: { available: true }, equipment: [{ type: 'DOCKING_STATION' }] }))).toEqual([[room.alpha, [desk.window]]]);
      expect(listing(await searchRooms({ department: { location: 'berlin' }, desk: { type: 'FIXED' }, room: { name: 'golf' } }))).toEqual([
        [room.golf, [desk.golfBench]],
      ]);
      expect((await searchRooms({ department: { building: 'annex' }, desk: { type: 'FIXED' } })).totalElements).toBe(0);
    });
  });

  describe('reservation windows', () => {
    it('free: no reservation overlaps [start, end); back to back at either edge is free, 1 ms of overlap is not', async () => {
      const page = await searchRooms({ reservation: { free: WINDOW } });
      expect(listing(page)).toEqual([
        [room.alpha, [desk.window]],
        [room.foxtrot, [desk.foxtrotBench]],
        [room.golf, [desk.golfBench]],
      ]);
      expect(page.totalElements).toBe(3);
      // Shifting the window by 1 ms away from each overlap frees those desks.
      expect(deskIds(await searchRooms({ desk: { name: 'door' }, reservation: { free: { start: `${DAY}T09:00:00.001Z`, end: WINDOW.end } } }))).toEqual([
        desk.door,
      ]);
      expect(deskIds(await searchRooms({ desk: { name: 'solo' }, reservation: { free: { start: WINDOW.start, end: `${DAY}T16:59:59.999Z` } } }))).toEqual([
        desk.solo,
      ]);
    });

    it('free looks at reservations only: available and type filter separately, when given', async () => {
      expect(listing(await searchRooms({ desk: { type: 'FLEX' }, reservation: { free: WINDOW } }))).toEqual([
        [room.alpha, [desk.window]],
        [room.foxtrot, [desk.foxtrotBench]],
      ]);
      const bravoFree = { start: `${DAY}T12:00:00Z`, end: `${DAY}T12:30:00Z` };
      expect(deskIds(await searchRooms({ room: { id: room.bravo }, reservation: { free: bravoFree } }))).toEqual([desk.bravoWindow]);
      expect((await searchRooms({ room: { id: room.bravo, available: true }, reservation: { free: bravoFree } })).totalElements).toBe(0);
    });

    it('full: reservations cover the whole window, several back to back included; a gap fails', async () => {
      expect(listing(await searchRooms({ reservation: { full: WINDOW } }))).toEqual([[room.alpha, [desk.corner]]]);
      // Bravo's window desk is covered on either side of its gap, not across it; Quiet only until 11:00.
      expect(deskIds(await searchRooms({ reservation: { full: { start: `${DAY}T09:00:00Z`, end: `${DAY}T12:00:00Z` } } }))).toEqual(
        sorted(desk.corner, desk.bravoWindow),
      );
      expect(deskIds(await searchRooms({ reservation: { full: { start: `${DAY}T13:00:00Z`, end: `${DAY}T17:00:00Z` } } }))).toEqual(
        sorted(desk.corner, desk.bravoWindow, desk.quiet),
      );
      expect(deskIds(await searchRooms({ reservation: { full: { start: `${DAY}T11:59:00Z`, end: `${DAY}T12:31:00Z` } } }))).toEqual([desk.corner]);
      // Corner's cover begins at 08:00: a window from 07:59:59.999 is not covered.
      expect(deskIds(await searchRooms({ desk: { id: desk.corner }, reservation: { full: { start: `${DAY}T07:59:59.999Z`, end: WINDOW.end } } }))).toEqual([]);
      expect((await searchRooms({ desk: { type: 'FIXED' }, reservation: { full: WINDOW } })).totalElements).toBe(0);
    });

    it('free and full together must both hold', async () => {
      const morning = { start: `${DAY}T09:00:00Z`, end: `${DAY}T11:00:00Z` };
      const midday = { start: `${DAY}T11:00:00Z`, end: `${DAY}T12:00:00Z` };
      // Quiet is reserved 09–11 and free 11–13; Bravo's window desk is reserved in both.
      expect(deskIds(await searchRooms({ reservation: { full: morning, free: midday } }))).toEqual([desk.quiet]);
    });

    it('partlyReserved without partlyBetween: every desk not reserved for the whole window', async () => {
      const page = await searchRooms({ reservation: { free: { ...WINDOW, partlyReserved: true } } });
      expect(listing(page)).toEqual([
        [room.alpha, [desk.door, desk.window]],
        [room.bravo, [desk.bravoWindow]],
        [room.charlie, [desk.solo]],
        [room.delta, [desk.quiet]],
        [room.foxtrot, [desk.foxtrotBench]],
        [room.golf, [desk.golfBench]],
      ]);
    });

    const whollyFree = () => [desk.window, desk.foxtrotBench, desk.golfBench];
    const partly = (partlyBetween: unknown) => searchRooms({ reservation: { free: { ...WINDOW, partlyReserved: true, partlyBetween } } });

    it('partlyBetween as an ISO 8601 string: one continuous free stretch at least that long (a 2 h gap matches PT2H, not PT2H1S)', async () => {
      const withTwoHours = sorted(...whollyFree(), desk.door, desk.solo, desk.quiet);
      expect(deskIds(await partly('PT2H'))).toEqual(withTwoHours);
      expect(deskIds(await partly('PT120M'))).toEqual(withTwoHours);
      expect(deskIds(await partly('PT1H60M'))).toEqual(withTwoHours);
      expect(deskIds(await partly('pt7200s'))).toEqual(withTwoHours);
      expect(deskIds(await partly('PT2H1S'))).toEqual(sorted(...whollyFree(), desk.door, desk.solo));
      expect(deskIds(await partly('PT30M'))).toEqual(sorted(...whollyFree(), desk.door, desk.solo, desk.quiet, desk.bravoWindow));
      expect(deskIds(await partly('PT30M0.001S'))).toEqual(withTwoHours);
      // Door and Solo are free for 8 h less 1 ms: PT8H leaves the wholly free desks only.
      expect(deskIds(await partly('PT7H59M59.999S'))).toEqual(sorted(...whollyFree(), desk.door, desk.solo));
      expect(deskIds(await partly('PT8H'))).toEqual(sorted(...whollyFree()));
      // Longer than the window: a wholly free desk still matches.
      expect(deskIds(await partly('P1D'))).toEqual(sorted(...whollyFree()));
      expect(deskIds(await partly(`P${'9'.repeat(30)}D`))).toEqual(sorted(...whollyFree()));
      expect(deskIds(await partly(1e300))).toEqual(sorted(...whollyFree()));
    });

    it('partlyBetween as a number of seconds and as a duration object', async () => {
      expect(deskIds(await partly(7200))).toEqual(sorted(...whollyFree(), desk.door, desk.solo, desk.quiet));
      expect(deskIds(await partly(7200.5))).toEqual(sorted(...whollyFree(), desk.door, desk.solo));
      expect(deskIds(await partly(7201))).toEqual(sorted(...whollyFree(), desk.door, desk.solo));
      const springDuration = {
        seconds: 7200,
        nano: 0,
        zero: false,
        negative: false,
        positive: true,
        units: [{ durationEstimated: false, timeBased: true, dateBased: false }],
      };
      expect(deskIds(await partly(springDuration))).toEqual(sorted(...whollyFree(), desk.door, desk.solo, desk.quiet));
      expect(deskIds(await partly({ seconds: 7200, nano: 1 }))).toEqual(sorted(...whollyFree(), desk.door, desk.solo));
      expect(deskIds(await partly({ seconds: 1799, nano: 999_999_999 }))).toContain(desk.bravoWindow);
      expect(deskIds(await partly({}))).toEqual(deskIds(await partly(0)));
    });

    it('partlyBetween without partlyReserved true has no effect', async () => {
      const plainFree = deskIds(await searchRooms({ reservation: { free: WINDOW } }));
      expect(plainFree).toEqual(sorted(...whollyFree()));
      expect(deskIds(await searchRooms({ reservation: { free: { ...WINDOW, partlyBetween: 'PT1M' } } }))).toEqual(plainFree);
      expect(deskIds(await searchRooms({ reservation: { free: { ...WINDOW, partlyBetween: 60, partlyReserved: false } } }))).toEqual(plainFree);
    });

    it('accepts start and end with any offset and compares them as instants', async () => {
      const plus2 = { start: `${DAY}T11:00:00+02:00`, end: `${DAY}T19:00:00+02:00` };
      const minus5 = { start: `${DAY}T04:00:00-05:00`, end: `${DAY}T12:00:00-05:00` };
      const free = listing(await searchRooms({ reservation: { free: WINDOW } }));
      expect(listing(await searchRooms({ reservation: { free: plus2 } }))).toEqual(free);
      expect(listing(await searchRooms({ reservation: { free: minus5 } }))).toEqual(free);
      expect(listing(await searchRooms({ reservation: { full: plus2 } }))).toEqual([[room.alpha, [desk.corner]]]);
      // 10:00+01:00 is 09:00Z: Door's 1 ms overlap still blocks it.
      expect(deskIds(await searchRooms({ desk: { name: 'door' }, reservation: { free: { start: `${DAY}T10:00:00+01:00`, end: WINDOW.end } } }))).toEqual([]);
      expect(deskIds(await searchRooms({ desk: { name: 'door' }, reservation: { free: { start: `${DAY}T10:00:00.001+01:00`, end: WINDOW.end } } }))).toEqual([
        desk.door,
      ]);
    });
  });

  describe('department search', () => {
    it('without criteria lists every department by location, building, floor, without rooms', async () => {
      const page = await searchDepartments({});
      expect(departmentIds(page)).toEqual([dep.berlinHq, dep.berlinLab, dep.hamburg, dep.munich]);
      for (const item of page.content) expect(Object.keys(item).sort()).toEqual(DEPARTMENT_KEYS);
      expect(page.content[0]).toEqual({ id: dep.berlinHq, location: 'Berlin', building: 'HQ', floor: 1 });
      expect(departmentIds(await ok<DepartmentItem>(await post('/api/search/departments', undefined)))).toEqual(departmentIds(page));
    });

    it('matches on its own criteria alone', async () => {
      expect(departmentIds(await searchDepartments({ department: { location: 'BERLIN' } }))).toEqual([dep.berlinHq, dep.berlinLab]);
      expect(departmentIds(await searchDepartments({ department: { building: 'ow' } }))).toEqual([dep.munich]);
      expect(departmentIds(await searchDepartments({ department: { floor: 2 } }))).toEqual([dep.hamburg]);
      // Munich has no rooms, but no room criteria were given.
      expect(departmentIds(await searchDepartments({ department: { location: 'mun' }, room: {} }))).toEqual([dep.munich]);
    });

    it('with room, desk, equipment or reservation criteria needs one matching room', async () => {
      expect(departmentIds(await searchDepartments({ room: { name: 'echo' } }))).toEqual([dep.hamburg]);
      expect(departmentIds(await searchDepartments({ room: { available: true } }))).toEqual([dep.berlinHq, dep.berlinLab, dep.hamburg]);
      expect(departmentIds(await searchDepartments({ desk: { type: 'FIXED' } }))).toEqual([dep.berlinHq, dep.berlinLab]);
      expect(departmentIds(await searchDepartments({ equipment: [{ type: 'KEYBOARD' }] }))).toEqual([dep.hamburg]);
      expect(departmentIds(await searchDepartments({ reservation: { free: WINDOW } }))).toEqual([dep.berlinHq, dep.berlinLab]);
      expect(departmentIds(await searchDepartments({ reservation: { full: WINDOW } }))).toEqual([dep.berlinHq]);
      expect(departmentIds(await searchDepartments({ department: { location: 'berlin' }, desk: { type: 'FLEX' }, reservation: { free: WINDOW } }))).toEqual([
        dep.berlinHq,
        dep.berlinLab,
      ]);
      // The room and its desk must match together: Bravo is unavailable, and the available rooms hold no dock but Alpha's.
      expect(departmentIds(await searchDepartments({ room: { available: false }, equipment: [{ type: 'DOCKING_STATION' }] }))).toEqual([dep.berlinHq]);
      expect(departmentIds(await searchDepartments({ room: { available: false }, equipment: [{ type: 'KEYBOARD' }] }))).toEqual([]);
      expect(departmentIds(await searchDepartments({ department: { floor: 2 }, desk: { type: 'FIXED' } }))).toEqual([]);
    });
  });

  describe('paging', () => {
    it('pages room search with the exact envelope and the total of all matches', async () => {
      const response = await post('/api/search/rooms', {}, { query: { page: '1', size: '2' } });
      const page = await ok<RoomItem>(response);
      expect(Object.keys(page).sort()).toEqual(PAGE_KEYS);
      expect(Object.keys(page.pageable).sort()).toEqual(PAGEABLE_KEYS);
      expect(page).toMatchObject({
        totalElements: 7,
        totalPages: 4,
        size: 2,
        number: 1,
        first: false,
        last: false,
        numberOfElements: 2,
        empty: false,
        sort: [],
      });
      expect(page.pageable).toEqual({ offset: 2, sort: [], pageSize: 2, pageNumber: 1, paged: true, unpaged: false });
      expect(roomIds(page)).toEqual([room.charlie, room.delta]);
      const last = await searchRooms({}, { page: '3', size: '2' });
      expect(roomIds(last)).toEqual([room.golf]);
      expect(last).toMatchObject({ last: true, numberOfElements: 1 });
      const past = await searchRooms({}, { page: '9', size: '2' });
      expect(past).toMatchObject({ content: [], empty: true, first: false, last: true, totalElements: 7 });
    });

    it('counts matches, not desks, and pages filtered results', async () => {
      const page = await searchRooms({ reservation: { free: { ...WINDOW, partlyReserved: true } } }, { size: '4' });
      expect(page).toMatchObject({ totalElements: 6, totalPages: 2, numberOfElements: 4 });
      expect(roomIds(page)).toEqual([room.alpha, room.bravo, room.charlie, room.delta]);
      const empty = await searchRooms({ desk: { name: 'nothing like this' } });
      expect(empty).toMatchObject({ totalElements: 0, totalPages: 0, content: [], empty: true, first: true, last: true });
    });

    it('sorts rooms by id, name or available on request, and refuses other properties', async () => {
      const byNameDesc = await searchRooms({}, { sort: 'name,desc' });
      expect(roomIds(byNameDesc)).toEqual([room.golf, room.foxtrot, room.echo, room.delta, room.charlie, room.bravo, room.alpha]);
      expect(byNameDesc.sort).toEqual([{ direction: 'DESC', nullHandling: 'NATIVE', ascending: false, property: 'name', ignoreCase: false }]);
      expect(roomIds(await searchRooms({}, { sort: 'available' }))[0]).toBe(room.bravo);
      expect(roomIds(await searchRooms({}, { sort: 'id' }))).toEqual(Object.values(room).sort());
      expect(roomIds(await searchRooms({}, { pageable: JSON.stringify({ page: 0, size: 1, sort: ['name,desc'] }) }))).toEqual([room.golf]);
      const refused = expectProblem(await post('/api/search/rooms', {}, { query: { sort: 'floor' } }), 400, 'VALIDATION_FAILED');
      expect(fieldsOf(refused)).toEqual(['sort']);
    });

    it('pages and sorts department search', async () => {
      const page = await searchDepartments({}, { size: '3', page: '1' });
      expect(Object.keys(page).sort()).toEqual(PAGE_KEYS);
      expect(page).toMatchObject({ totalElements: 4, totalPages: 2, number: 1, numberOfElements: 1 });
      expect(departmentIds(page)).toEqual([dep.munich]);
      expect(departmentIds(await searchDepartments({}, { sort: 'floor,desc' }))).toEqual([dep.berlinLab, dep.munich, dep.hamburg, dep.berlinHq]);
      expect(departmentIds(await searchDepartments({}, { sort: 'building' }))).toEqual([dep.hamburg, dep.berlinHq, dep.berlinLab, dep.munich]);
      expectProblem(await post('/api/search/departments', {}, { query: { sort: 'name' } }), 400, 'VALIDATION_FAILED');
    });
  });

  describe('refusals', () => {
    const refuse = async (criteria: unknown, field: string) => {
      for (const url of ['/api/search/rooms', '/api/search/departments']) {
        const problem = expectProblem(await post(url, criteria), 400, 'VALIDATION_FAILED');
        expect(fieldsOf(problem)).toContain(field);
      }
    };

    it('refuses a window whose start is not before its end, naming its end', async () => {
      await refuse({ reservation: { free: { start: WINDOW.end, end: WINDOW.start } } }, 'reservation.free.end');
      await refuse({ reservation: { free: { start: WINDOW.start, end: WINDOW.start } } }, 'reservation.free.end');
      await refuse({ reservation: { full: { start: WINDOW.end, end: WINDOW.start } } }, 'reservation.full.end');
      // The same instant written with two offsets is still an empty window.
      await refuse({ reservation: { full: { start: `${DAY}T09:00:00Z`, end: `${DAY}T11:00:00+02:00` } } }, 'reservation.full.end');
    });

    it('refuses a window without start or end, and malformed date-times', async () => {
      await refuse({ reservation: { free: { start: WINDOW.start } } }, 'reservation.free.end');
      await refuse({ reservation: { full: { end: WINDOW.end } } }, 'reservation.full.start');
      await refuse({ reservation: { free: { start: 'tomorrow', end: WINDOW.end } } }, 'reservation.free.start');
      await refuse({ reservation: { free: { start: `${DAY}T09:00:00`, end: WINDOW.end } } }, 'reservation.free.start');
      await refuse({ reservation: { free: { start: '0000-12-31T23:00:00Z', end: WINDOW.end } } }, 'reservation.free.start');
    });

    it('refuses a partlyBetween that is negative or not a duration', async () => {
      for (const partlyBetween of [
        'PT2X',
        '2 hours',
        'P1M',
        'P1Y',
        'PT',
        'P',
        'P1DT',
        '-PT1H',
        'PT-1H',
        -1,
        { seconds: -1 },
        { seconds: 1, nano: -1 },
        { seconds: 1, minutes: 2 },
        true,
      ]) {
        await refuse({ reservation: { free: { ...WINDOW, partlyReserved: true, partlyBetween } } }, 'reservation.free.partlyBetween');
      }
      // Checked even where it would have no effect.
      await refuse({ reservation: { free: { ...WINDOW, partlyBetween: 'soon' } } }, 'reservation.free.partlyBetween');
      // Too long to be a number at all: a 400, never a database error.
      await refuse({ reservation: { free: { ...WINDOW, partlyReserved: true, partlyBetween: `PT${'9'.repeat(400)}S` } } }, 'reservation.free.partlyBetween');
      const overflowing = `{"reservation":{"free":{"start":"${WINDOW.start}","end":"${WINDOW.end}","partlyReserved":true,"partlyBetween":1e400}}}`;
      const problem = expectProblem(
        await t.request({ method: 'POST', url: '/api/search/rooms', token, payload: overflowing, headers: { 'content-type': 'application/json' } }),
        400,
        'VALIDATION_FAILED',
      );
      expect(fieldsOf(problem)).toContain('reservation.free.partlyBetween');
    });

    it('refuses unknown members, naming them', async () => {
      await refuse({ room: { colour: 'red' } }, 'room.colour');
      await refuse({ rooms: {} }, 'rooms');
      await refuse({ equipment: [{ type: 'MONITOR', size: 27 }] }, 'equipment.0.size');
      await refuse({ reservation: { free: { ...WINDOW, partly: true } } }, 'reservation.free.partly');
    });

    it('refuses malformed ids, wrong types and unknown enum values', async () => {
      await refuse({ room: { id: 'not-a-uuid' } }, 'room.id');
      await refuse({ desk: { id: '1234' } }, 'desk.id');
      await refuse({ desk: { type: 'STANDING' } }, 'desk.type');
      await refuse({ equipment: [{ type: 'LAMP' }] }, 'equipment.0.type');
      await refuse({ room: { available: 'yes' } }, 'room.available');
      await refuse({ department: { floor: '1' } }, 'department.floor');
      await refuse({ department: { floor: 1.5 } }, 'department.floor');
      await refuse({ department: { floor: 3_000_000_000 } }, 'department.floor');
      await refuse({ equipment: { type: 'MONITOR' } }, 'equipment');
      expectProblem(
        await t.request({ method: 'POST', url: '/api/search/rooms', token, payload: '{"room":', headers: { 'content-type': 'application/json' } }),
        400,
        'MALFORMED_JSON',
      );
    });
  });
});
