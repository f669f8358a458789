import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { departmentSettings } from '../../../src/db/schema.js';
import { createTestApp, expectProblem, TestClock, type TestApp, type UserBody } from '../../helpers/app.js';
import { insertDepartment, insertDesk, insertReservation, insertRoom } from '../../helpers/fixtures.js';

/**
 * Favourite desks, home office and default window, "Book my usual" and free desks near my team
 * (docs/favourites.md): bounds and 4xx answers naming the field, the pattern week in the office's
 * zone (and across a daylight-saving change), every day booked through the one writer with its
 * rules (a taken desk, a closed day, an approval), and the ranking's order and counts, never names.
 */

const PASSWORD = 'favourites-password-1';
// Wednesday 6 March 2030, 11:00 in Berlin (UTC+1 until 31 March).
const NOW = new Date('2030-03-06T10:00:00.000Z');
const iso = (text: string) => new Date(text);

interface Desk {
  id: string;
  name: string;
}

describe('favourites, home office, book my usual, near my team', () => {
  let t: TestApp;
  let admin: string;
  const users: Record<string, UserBody & { token: string }> = {};
  let berlin: string;
  let munich: string;
  const desks: Record<string, Desk> = {};
  const rooms: Record<string, string> = {};

  const call = (token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
    t.request({ method, url, token, ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });

  beforeAll(async () => {
    t = await createTestApp({ clock: new TestClock(NOW) });
    admin = await t.adminToken();
    for (const name of ['me', 'mia', 'otto', 'ola', 'solo']) {
      const user = await t.createUser({
        email: `${name}@example.test`,
        firstName: name[0]!.toUpperCase() + name.slice(1),
        lastName: 'Fav',
        password: PASSWORD,
      });
      users[name] = { ...user, token: (await t.login(user.email, PASSWORD)).accessToken };
    }
    const db = t.database.handle.db;
    berlin = (await insertDepartment(db, { location: 'Berlin', building: 'Spree House', floor: 3 })).id;
    munich = (await insertDepartment(db, { location: 'Munich', building: 'Isar', floor: 1 })).id;
    await db.insert(departmentSettings).values([
      { departmentId: berlin, timeZone: 'Europe/Berlin' },
      { departmentId: munich, timeZone: 'Europe/Berlin' },
    ]);
    for (const [room, department, names] of [
      ['Atlas', berlin, ['A1', 'A2', 'A3']],
      ['Borealis', berlin, ['B1', 'B2']],
      ['Cosmos', berlin, ['C1']],
      ['Isar', munich, ['M1']],
    ] as const) {
      rooms[room] = (await insertRoom(db, department, { name: room })).id;
      for (const name of names) desks[name] = { id: (await insertDesk(db, rooms[room]!, { name })).id, name };
    }
    // Sales: me, mia and otto. ola is in no team of mine.
    const sales = (await call(admin, 'POST', '/api/teams', { name: 'Sales' })).json<{ id: string }>();
    expect((await call(admin, 'POST', `/api/teams/${sales.id}/members`, { userIds: [users.me!.id, users.mia!.id, users.otto!.id] })).statusCode).toBe(204);
    // Cosmos is Sales's area (docs/policies.md#areas), not exclusive.
    const area = await call(admin, 'POST', '/api/admin/policies/areas', {
      name: 'North wing',
      kind: 'ROOM',
      roomId: rooms.Cosmos,
      teamIds: [sales.id],
      exclusive: false,
    });
    expect(area.statusCode, area.body).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('favourite desks (docs/favourites.md#favourite-desks)', () => {
    it('stars, lists oldest first, stars again without change, unstars; 404 for an unknown desk or a desk not starred', async () => {
      const me = users.me!.token;
      expect((await call(me, 'GET', '/api/self/favourite-desks')).json()).toEqual({ content: [], max: 50 });
      const starred = await call(me, 'PUT', `/api/self/favourite-desks/${desks.A2!.id}`);
      expect(starred.statusCode, starred.body).toBe(200);
      expect(starred.json()).toMatchObject({ deskId: desks.A2!.id, deskName: 'A2', roomId: rooms.Atlas, roomName: 'Atlas', departmentId: berlin });
      t.clock.advance(1000);
      expect((await call(me, 'PUT', `/api/self/favourite-desks/${desks.B1!.id}`)).statusCode).toBe(200);
      expect((await call(me, 'PUT', `/api/self/favourite-desks/${desks.A2!.id}`)).statusCode).toBe(200);
      const list = (await call(me, 'GET', '/api/self/favourite-desks')).json<{ content: { deskId: string }[] }>();
      expect(list.content.map((favourite) => favourite.deskId)).toEqual([desks.A2!.id, desks.B1!.id]);
      // Someone else's favourites are their own.
      expect((await call(users.mia!.token, 'GET', '/api/self/favourite-desks')).json<{ content: unknown[] }>().content).toEqual([]);
      expectProblem(await call(me, 'PUT', '/api/self/favourite-desks/00000000-0000-4000-8000-000000000000'), 404, 'NOT_FOUND');
      expectProblem(await call(me, 'PUT', '/api/self/favourite-desks/not-a-uuid'), 400, 'VALIDATION_FAILED');
      expect((await call(me, 'DELETE', `/api/self/favourite-desks/${desks.B1!.id}`)).statusCode).toBe(204);
      expectProblem(await call(me, 'DELETE', `/api/self/favourite-desks/${desks.B1!.id}`), 404, 'NOT_FOUND');
      expect((await call(me, 'GET', '/api/self/favourite-desks')).json<{ content: { deskId: string }[] }>().content.map((f) => f.deskId)).toEqual([
        desks.A2!.id,
      ]);
    });

    it('bounds the stars per person at 50 with 409 TOO_MANY_FAVOURITES, writing nothing', async () => {
      const solo = users.solo!.token;
      const room = await insertRoom(t.database.handle.db, munich, { name: 'Many' });
      const many: string[] = [];
      for (let i = 0; i < 51; i++) many.push((await insertDesk(t.database.handle.db, room.id, { name: `Many ${i}` })).id);
      for (const id of many.slice(0, 50)) expect((await call(solo, 'PUT', `/api/self/favourite-desks/${id}`)).statusCode).toBe(200);
      const problem = expectProblem(await call(solo, 'PUT', `/api/self/favourite-desks/${many[50]}`), 409, 'TOO_MANY_FAVOURITES');
      expect(problem.limit).toMatchObject({ max: 50 });
      // Starring one already starred is no new star.
      expect((await call(solo, 'PUT', `/api/self/favourite-desks/${many[0]}`)).statusCode).toBe(200);
      expect((await call(solo, 'GET', '/api/self/favourite-desks')).json<{ content: unknown[] }>().content).toHaveLength(50);
      // A deleted desk takes its stars with it.
      expect((await call(admin, 'DELETE', `/api/departments/${munich}/rooms/${room.id}?force=true`)).statusCode).toBeLessThan(300);
      expect((await call(solo, 'GET', '/api/self/favourite-desks')).json<{ content: unknown[] }>().content).toHaveLength(0);
    });
  });

  describe('home office and default window (docs/favourites.md#home-office-and-default-window)', () => {
    it('answers nothing chosen, saves a home office and 09:00–17:00 in its zone, or the whole day', async () => {
      const mia = users.mia!.token;
      expect((await call(mia, 'GET', '/api/self/booking-defaults')).json()).toEqual({
        homeDepartmentId: null,
        window: 'NONE',
        startTime: null,
        endTime: null,
        timeZone: 'UTC',
      });
      const saved = await call(mia, 'PUT', '/api/self/booking-defaults', { homeDepartmentId: berlin, window: 'HOURS', startTime: '09:00', endTime: '17:00' });
      expect(saved.statusCode, saved.body).toBe(200);
      expect(saved.json()).toEqual({ homeDepartmentId: berlin, window: 'HOURS', startTime: '09:00', endTime: '17:00', timeZone: 'Europe/Berlin' });
      expect((await call(mia, 'GET', '/api/self/booking-defaults')).json()).toMatchObject({ homeDepartmentId: berlin, startTime: '09:00' });
      const whole = await call(mia, 'PUT', '/api/self/booking-defaults', { homeDepartmentId: berlin, window: 'WHOLE_DAY', startTime: null, endTime: null });
      expect(whole.json()).toMatchObject({ window: 'WHOLE_DAY', startTime: null, endTime: null });
      // Only the caller's own: another person still has none.
      expect((await call(users.otto!.token, 'GET', '/api/self/booking-defaults')).json()).toMatchObject({ homeDepartmentId: null });
    });

    it('refuses, naming the field and writing nothing: an unknown office, an end not after the start, times with NONE', async () => {
      const otto = users.otto!.token;
      const cases: [Record<string, unknown>, string][] = [
        [{ homeDepartmentId: '00000000-0000-4000-8000-000000000000', window: 'NONE', startTime: null, endTime: null }, 'homeDepartmentId'],
        [{ homeDepartmentId: null, window: 'HOURS', startTime: '17:00', endTime: '09:00' }, 'endTime'],
        [{ homeDepartmentId: null, window: 'HOURS', startTime: null, endTime: '09:00' }, 'startTime'],
        [{ homeDepartmentId: null, window: 'NONE', startTime: '09:00', endTime: null }, 'startTime'],
        [{ homeDepartmentId: null, window: 'HOURS', startTime: '9:00', endTime: '17:00' }, 'startTime'],
      ];
      for (const [payload, field] of cases) {
        const problem = expectProblem(await call(otto, 'PUT', '/api/self/booking-defaults', payload), 400, 'VALIDATION_FAILED');
        expect(JSON.stringify(problem.errors), JSON.stringify(payload)).toContain(field);
      }
      expect((await call(otto, 'GET', '/api/self/booking-defaults')).json()).toMatchObject({ homeDepartmentId: null, window: 'NONE' });
      // 24:00 ends a window at midnight.
      expect(
        (await call(otto, 'PUT', '/api/self/booking-defaults', { homeDepartmentId: null, window: 'HOURS', startTime: '18:00', endTime: '24:00' })).statusCode,
      ).toBe(200);
    });

    it('forgets a home office that is deleted, keeping the window', async () => {
      const otto = users.otto!.token;
      const gone = await insertDepartment(t.database.handle.db, { location: 'Hamburg', building: 'Elbe', floor: 2 });
      const saved = await call(otto, 'PUT', '/api/self/booking-defaults', { homeDepartmentId: gone.id, window: 'HOURS', startTime: '08:30', endTime: '16:30' });
      expect(saved.statusCode, saved.body).toBe(200);
      const deleted = await call(admin, 'DELETE', `/api/departments/${gone.id}`);
      expect(deleted.statusCode, deleted.body).toBeLessThan(300);
      expect((await call(otto, 'GET', '/api/self/booking-defaults')).json()).toEqual({
        homeDepartmentId: null,
        window: 'HOURS',
        startTime: '08:30',
        endTime: '16:30',
        timeZone: 'UTC',
      });
    });
  });

  describe('book my usual (docs/favourites.md#book-my-usual)', () => {
    interface Day {
      date: string;
      weekday: string;
      deskId: string;
      startTime: string;
      endTime: string;
      conflict?: string | null;
      reason?: string;
      code?: string;
      awaitingApproval?: boolean;
    }

    beforeAll(async () => {
      const db = t.database.handle.db;
      const me = users.me!.id;
      // The pattern week, Monday 4 – Sunday 10 March 2030 in Berlin.
      for (const [desk, start, end] of [
        ['A1', '2030-03-04T08:00:00Z', '2030-03-04T16:00:00Z'],
        ['B1', '2030-03-05T08:00:00Z', '2030-03-05T16:00:00Z'],
        ['A1', '2030-03-07T08:00:00Z', '2030-03-07T12:00:00Z'],
        ['A2', '2030-03-08T08:00:00Z', '2030-03-08T16:00:00Z'],
        // Monday 00:30 in Berlin, still Sunday in UTC: of the pattern week in the office's zone.
        ['B2', '2030-03-03T23:30:00Z', '2030-03-04T01:00:00Z'],
        // The week before: not repeated.
        ['A3', '2030-03-01T08:00:00Z', '2030-03-01T16:00:00Z'],
        // Monday 25 March, 09:00–17:00 in Berlin before daylight saving (UTC+1).
        ['A3', '2030-03-25T08:00:00Z', '2030-03-25T16:00:00Z'],
      ] as const) {
        await insertReservation(db, { userId: me, deskId: desks[desk]!.id, startTime: iso(start), endTime: iso(end) });
      }
      // Someone else's reservation of my usual desk on the Tuesday to come.
      await insertReservation(db, {
        userId: users.ola!.id,
        deskId: desks.B1!.id,
        startTime: iso('2030-03-12T10:00:00Z'),
        endTime: iso('2030-03-12T11:00:00Z'),
      });
      // The office is closed on Friday 15 March.
      const closure = await call(admin, 'POST', '/api/closures', {
        scope: 'DEPARTMENT',
        departmentId: berlin,
        reason: 'Move',
        dates: ['2030-03-15'],
        onExisting: 'keep',
      });
      expect(closure.statusCode, closure.body).toBe(200);
      // Borealis needs an approval (docs/policies.md#approvals).
      const requirement = await call(admin, 'POST', '/api/approval-requirements', { scope: 'ROOM', roomId: rooms.Borealis });
      expect(requirement.statusCode, requirement.body).toBe(200);
    });

    it('previews the coming week from last week in the office zone, with each conflict, booking nothing', async () => {
      const preview = await call(users.me!.token, 'GET', '/api/self/usual');
      expect(preview.statusCode, preview.body).toBe(200);
      const body = preview.json<{ week: string; patternWeek: string; days: Day[] }>();
      expect(body).toMatchObject({ week: '2030-03-11', patternWeek: '2030-03-04' });
      expect(body.days.map((day) => [day.date, day.weekday, day.deskId, day.startTime, day.endTime, day.conflict])).toEqual([
        ['2030-03-11', 'MO', desks.B2!.id, '2030-03-10T23:30:00.000Z', '2030-03-11T01:00:00.000Z', null],
        ['2030-03-11', 'MO', desks.A1!.id, '2030-03-11T08:00:00.000Z', '2030-03-11T16:00:00.000Z', null],
        ['2030-03-12', 'TU', desks.B1!.id, '2030-03-12T08:00:00.000Z', '2030-03-12T16:00:00.000Z', 'DESK_RESERVED'],
        ['2030-03-14', 'TH', desks.A1!.id, '2030-03-14T08:00:00.000Z', '2030-03-14T12:00:00.000Z', null],
        ['2030-03-15', 'FR', desks.A2!.id, '2030-03-15T08:00:00.000Z', '2030-03-15T16:00:00.000Z', 'CLOSED'],
      ]);
      expect(body.days[4]).toMatchObject({ code: 'CLOSED_DAY' });
      const mine = await call(users.me!.token, 'GET', `/api/reservation?userId=${users.me!.id}&size=100`);
      expect(mine.json<{ totalElements: number }>().totalElements).toBe(7);
    });

    it('keeps the wall clock across daylight saving: 09:00 Berlin is 08:00Z in March, 07:00Z in April', async () => {
      const body = (await call(users.me!.token, 'GET', '/api/self/usual?week=2030-04-03')).json<{ week: string; days: Day[] }>();
      expect(body.week).toBe('2030-04-01');
      expect(body.days.map((day) => [day.date, day.startTime, day.endTime])).toEqual([['2030-04-01', '2030-04-01T07:00:00.000Z', '2030-04-01T15:00:00.000Z']]);
      expectProblem(await call(users.me!.token, 'GET', '/api/self/usual?week=2030-02-30'), 400, 'VALIDATION_FAILED');
    });

    it('books the free days through the one writer (an approval holds one), lists the refused ones per day, and refuses them all a second time', async () => {
      const booked = await call(users.me!.token, 'POST', '/api/self/usual', {});
      expect(booked.statusCode, booked.body).toBe(200);
      const body = booked.json<{ booked: (Day & { reservationId: string })[]; refused: Day[] }>();
      expect(body.booked.map((day) => [day.date, day.deskId, day.awaitingApproval])).toEqual([
        ['2030-03-11', desks.B2!.id, true],
        ['2030-03-11', desks.A1!.id, false],
        ['2030-03-14', desks.A1!.id, false],
      ]);
      expect(body.refused.map((day) => [day.date, day.reason, day.code])).toEqual([
        ['2030-03-12', 'DESK_RESERVED', 'RESERVATION_CONFLICT'],
        ['2030-03-15', 'CLOSED', 'CLOSED_DAY'],
      ]);
      // Ordinary reservations, readable as such.
      const one = await call(users.me!.token, 'GET', `/api/reservation/${body.booked[1]!.reservationId}`);
      expect(one.json()).toMatchObject({ deskId: desks.A1!.id, startTime: '2030-03-11T08:00:00.000Z', endTime: '2030-03-11T16:00:00.000Z', type: 'shared' });
      const again = (await call(users.me!.token, 'POST', '/api/self/usual', {})).json<{ booked: Day[]; refused: Day[] }>();
      expect(again.booked).toEqual([]);
      expect(again.refused).toHaveLength(5);
      const mine = await call(users.me!.token, 'GET', `/api/reservation?userId=${users.me!.id}&size=100`);
      expect(mine.json<{ totalElements: number }>().totalElements).toBe(10);
    });

    it("holds the caller's booking policies: a weekly limit refuses the second day in the preview and in the booking (docs/policies.md#series)", async () => {
      const db = t.database.handle.db;
      // ola's pattern: Wednesday and Thursday at M1 in Munich, where one booking a week is the rule.
      for (const day of ['2030-03-06', '2030-03-07']) {
        await insertReservation(db, { userId: users.ola!.id, deskId: desks.M1!.id, startTime: iso(`${day}T08:00:00Z`), endTime: iso(`${day}T12:00:00Z`) });
      }
      const rule = await call(admin, 'POST', '/api/admin/policies/rules', {
        name: 'Munich once a week',
        scope: { kind: 'DEPARTMENT', departmentId: munich },
        who: { kind: 'EVERYONE' },
        limit: { kind: 'MAX_BOOKINGS', count: 1, per: 'WEEK' },
      });
      expect(rule.statusCode, rule.body).toBe(200);
      try {
        const preview = (await call(users.ola!.token, 'GET', '/api/self/usual')).json<{ days: Day[] }>();
        expect(preview.days.map((day) => [day.date, day.conflict])).toEqual([
          ['2030-03-13', null],
          ['2030-03-14', 'POLICY'],
        ]);
        const booked = (await call(users.ola!.token, 'POST', '/api/self/usual', {})).json<{ booked: Day[]; refused: Day[] }>();
        expect(booked.booked.map((day) => day.date)).toEqual(['2030-03-13']);
        expect(booked.refused.map((day) => [day.date, day.reason, day.code])).toEqual([['2030-03-14', 'POLICY', 'POLICY_LIMIT_REACHED']]);
      } finally {
        expect((await call(admin, 'DELETE', `/api/admin/policies/rules/${rule.json<{ id: string }>().id}`)).statusCode).toBe(204);
      }
    });

    it('answers two empty lists to someone with nothing to repeat, and refuses a body with unknown members', async () => {
      expect((await call(users.solo!.token, 'POST', '/api/self/usual', {})).json()).toMatchObject({ booked: [], refused: [] });
      expectProblem(await call(users.solo!.token, 'POST', '/api/self/usual', { week: '2030-03-11', userId: users.me!.id }), 400, 'VALIDATION_FAILED');
    });
  });

  describe('near my team (docs/favourites.md#book-near-my-team)', () => {
    const window = { startTime: '2030-03-20T08:00:00Z', endTime: '2030-03-20T16:00:00Z' };
    const near = (token: string, query: Record<string, string> = {}) =>
      t.request({ method: 'GET', url: '/api/self/near-my-team', token, query: { ...window, ...query } });

    beforeAll(async () => {
      const db = t.database.handle.db;
      // Wednesday 20 March: mia and otto in Atlas (A1, A2), ola (not of Sales) in Borealis, mia not at all elsewhere.
      await insertReservation(db, {
        userId: users.mia!.id,
        deskId: desks.A1!.id,
        startTime: iso('2030-03-20T08:00:00Z'),
        endTime: iso('2030-03-20T12:00:00Z'),
      });
      await insertReservation(db, {
        userId: users.otto!.id,
        deskId: desks.A2!.id,
        startTime: iso('2030-03-20T13:00:00Z'),
        endTime: iso('2030-03-20T17:00:00Z'),
      });
      await insertReservation(db, {
        userId: users.ola!.id,
        deskId: desks.B1!.id,
        startTime: iso('2030-03-20T08:00:00Z'),
        endTime: iso('2030-03-20T16:00:00Z'),
      });
      // Another day: does not count.
      await insertReservation(db, {
        userId: users.mia!.id,
        deskId: desks.M1!.id,
        startTime: iso('2030-03-21T08:00:00Z'),
        endTime: iso('2030-03-21T16:00:00Z'),
      });
    });

    it('ranks free desks: same room, then the team’s area, then the same office; says why in counts, never names', async () => {
      const response = await near(users.me!.token);
      expect(response.statusCode, response.body).toBe(200);
      const body = response.json<{ teams: number; desks: { deskId: string; nearness: string; teammates: number; reason: string }[] }>();
      expect(body.teams).toBe(1);
      expect(body.desks.map((desk) => [desk.deskId, desk.nearness, desk.teammates, desk.reason])).toEqual([
        [desks.A3!.id, 'ROOM', 2, '2 of Sales are in Atlas'],
        [desks.C1!.id, 'AREA', 0, 'In Sales’s area North wing'],
        [desks.B2!.id, 'DEPARTMENT', 2, '2 of Sales are in Berlin · Spree House, floor 3'],
      ]);
      // Taken desks (A1, A2, B1) and the other office's (M1) are not listed; nobody is named.
      for (const person of ['mia', 'otto', 'Mia', 'Otto', users.mia!.id, users.otto!.id]) expect(response.body).not.toContain(person);
    });

    it('narrows to one office and bounds the answer; the teammates themselves see the caller counted', async () => {
      expect((await near(users.me!.token, { departmentId: munich })).json<{ desks: unknown[] }>().desks).toEqual([]);
      expect((await near(users.me!.token, { limit: '1' })).json<{ desks: { deskId: string }[] }>().desks.map((desk) => desk.deskId)).toEqual([desks.A3!.id]);
      // mia sees otto (one of Sales) in Atlas: herself is never counted.
      const mia = (await near(users.mia!.token)).json<{ desks: { deskId: string; reason: string }[] }>();
      expect(mia.desks[0]).toMatchObject({ deskId: desks.A3!.id, reason: '1 of Sales is in Atlas' });
    });

    it('leaves out where a teammate who hides their bookings or books anonymously sits (docs/people.md#a-persons-switches)', async () => {
      const privacy = (token: string, body: object) => t.request({ method: 'PUT', url: '/api/self/privacy', token, payload: body });
      const reasons = async () =>
        (await near(users.me!.token)).json<{ desks: { deskId: string; reason: string }[] }>().desks.map((desk) => [desk.deskId, desk.reason]);
      const mia = (await t.request({ method: 'GET', url: '/api/self/privacy', token: users.mia!.token })).json<Record<string, unknown>>();
      try {
        expect((await privacy(users.mia!.token, { ...mia, hideBookings: true })).statusCode).toBe(200);
        expect(await reasons()).toContainEqual([desks.A3!.id, '1 of Sales is in Atlas']);
        expect((await privacy(users.mia!.token, { ...mia, hideBookings: false, bookAnonymously: true })).statusCode).toBe(200);
        expect(await reasons()).toContainEqual([desks.A3!.id, '1 of Sales is in Atlas']);
      } finally {
        await privacy(users.mia!.token, mia);
      }
      expect(await reasons()).toContainEqual([desks.A3!.id, '2 of Sales are in Atlas']);
    });

    it('answers an empty list to someone in no team, and 400 for a window of more than 24 hours or reversed', async () => {
      expect((await near(users.ola!.token)).json()).toEqual({ teams: 0, desks: [] });
      expectProblem(await near(users.me!.token, { endTime: '2030-03-21T09:00:00Z' }), 400, 'VALIDATION_FAILED');
      expectProblem(await near(users.me!.token, { endTime: '2030-03-20T07:00:00Z' }), 400, 'VALIDATION_FAILED');
      expectProblem(await near(users.me!.token, { limit: '500' }), 400, 'VALIDATION_FAILED');
    });
  });
});

describe('book my usual under the cap on reservations not yet ended (docs/favourites.md#book-my-usual)', () => {
  let t: TestApp;
  afterAll(async () => {
    await t?.close();
  });

  it('refuses the days past RESERVATION_MAX_FUTURE, counted in time order, alike in the preview and the booking', async () => {
    // Saturday 9 March 2030: the pattern week has ended.
    t = await createTestApp({ clock: new TestClock(new Date('2030-03-09T10:00:00.000Z')), env: { RESERVATION_MAX_FUTURE: '2' } });
    const user = await t.createUser({ email: 'capped@example.test', password: PASSWORD });
    const token = (await t.login(user.email, PASSWORD)).accessToken;
    const db = t.database.handle.db;
    const department = await insertDepartment(db);
    const desk = await insertDesk(db, (await insertRoom(db, department.id, { name: 'Capped' })).id, { name: 'K1' });
    for (const day of ['2030-03-04', '2030-03-05', '2030-03-06']) {
      await insertReservation(db, { userId: user.id, deskId: desk.id, startTime: iso(`${day}T08:00:00Z`), endTime: iso(`${day}T16:00:00Z`) });
    }
    const preview = (await t.request({ method: 'GET', url: '/api/self/usual', token })).json<{
      days: { date: string; conflict: string | null; code?: string }[];
    }>();
    expect(preview.days.map((day) => [day.date, day.conflict, day.code ?? null])).toEqual([
      ['2030-03-11', null, null],
      ['2030-03-12', null, null],
      ['2030-03-13', 'NOT_ALLOWED', 'RESERVATION_LIMIT_REACHED'],
    ]);
    const booked = (await t.request({ method: 'POST', url: '/api/self/usual', token, payload: {} })).json<{
      booked: { date: string }[];
      refused: { date: string; reason: string; code: string }[];
    }>();
    expect(booked.booked.map((day) => day.date)).toEqual(['2030-03-11', '2030-03-12']);
    expect(booked.refused.map((day) => [day.date, day.reason, day.code])).toEqual([['2030-03-13', 'NOT_ALLOWED', 'RESERVATION_LIMIT_REACHED']]);
  });
});
