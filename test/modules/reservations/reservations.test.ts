import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows, type Database } from '../../../src/db/client.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, createTestApp, expectProblem, ISO_UTC, TestClock, UUID, type TestApp, type UserBody } from '../../helpers/app.js';
import { PAGE_KEYS, type Page } from '../../helpers/contract.js';
import { insertDepartment, insertDesk, insertDeskInNewRoom, insertReservation, insertRoom } from '../../helpers/fixtures.js';

/**
 * Reservations (docs/api.md#reservation, docs/api.md#roles, docs/behaviour.md#reservations): shapes, the half-open rule,
 * UTC normalisation, overlap per desk and per user (409 with `conflicts`), the booking rules that
 * bind USERs and not admins, ownership (another's id is 404), and derived room/department.
 */

const RESERVATION_KEYS = ['departmentId', 'deskId', 'endTime', 'id', 'roomId', 'startTime', 'type', 'userId'];
const PASSWORD = 'reserve-password-1';
// A Monday morning; the clock stays there unless a test moves it.
const NOW = new Date('2030-03-04T08:00:00.000Z');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

interface ReservationBody {
  id: string;
  userId: string;
  deskId: string;
  roomId: string;
  departmentId: string;
  startTime: string;
  endTime: string;
  type: string;
}

const at = (offsetMs: number) => new Date(NOW.getTime() + offsetMs).toISOString();

async function overlappingPairs(db: Database): Promise<number> {
  const [row] = await queryRows<{ pairs: number }>(
    db,
    sql`select count(*)::int as pairs from reservations a join reservations b on a.id < b.id
        and tstzrange(a.start_time, a.end_time, '[)') && tstzrange(b.start_time, b.end_time, '[)')
        and (a.desk_id = b.desk_id or (a.user_id = b.user_id and a.user_exclusive and b.user_exclusive))`,
  );
  return row!.pairs;
}

describe('reservations', () => {
  let t: TestApp;
  let db: Database;
  let admin: string;
  let alice: UserBody;
  let aliceToken: string;
  let bob: UserBody;
  let bobToken: string;
  let place: Awaited<ReturnType<typeof insertDeskInNewRoom>>;
  let deskCounter = 0;

  /** A new flexible desk in the shared room, so tests do not collide with each other. */
  async function freshDesk(type: 'FLEX' | 'FIXED' = 'FLEX') {
    return insertDesk(db, place.room.id, { name: `Desk ${++deskCounter}`, type });
  }

  const book = (token: string, payload: Record<string, unknown>) => t.request({ method: 'POST', url: '/api/reservation', token, payload });

  beforeAll(async () => {
    t = await createTestApp({ clock: new TestClock(NOW) });
    db = t.database.handle.db;
    admin = await t.adminToken();
    alice = await t.createUser({ email: 'alice@example.test', firstName: 'Alice', password: PASSWORD });
    bob = await t.createUser({ email: 'bob@example.test', firstName: 'Bob', password: PASSWORD });
    aliceToken = (await t.login(alice.email, PASSWORD)).accessToken;
    bobToken = (await t.login(bob.email, PASSWORD)).accessToken;
    place = await insertDeskInNewRoom(db);
  });
  afterAll(async () => {
    if (t) {
      expect(await overlappingPairs(db)).toBe(0);
      await t.close();
    }
  });

  describe('booking', () => {
    it('answers the Reservation with exactly its fields, type shared, the caller as user and room/department from the desk', async () => {
      const desk = await freshDesk();
      const response = await book(aliceToken, { deskId: desk.id, startTime: at(DAY + HOUR), endTime: at(DAY + 5 * HOUR) });
      expect(response.statusCode, response.body).toBe(200);
      const body = response.json<ReservationBody>();
      expect(Object.keys(body).sort()).toEqual(RESERVATION_KEYS);
      expect(body).toEqual({
        id: expect.stringMatching(UUID),
        userId: alice.id,
        deskId: desk.id,
        roomId: place.room.id,
        departmentId: place.department.id,
        startTime: at(DAY + HOUR),
        endTime: at(DAY + 5 * HOUR),
        type: 'shared',
      });
      const read = await t.request({ method: 'GET', url: `/api/reservation/${body.id}`, token: aliceToken });
      expect(read.statusCode).toBe(200);
      expect(read.json()).toEqual(body);
    });

    it('accepts times with an offset and answers them normalised to UTC (Z)', async () => {
      const desk = await freshDesk();
      const response = await book(aliceToken, { deskId: desk.id, startTime: '2030-03-06T11:00:00+02:00', endTime: '2030-03-06T13:30:00.000+02:00' });
      expect(response.statusCode, response.body).toBe(200);
      const body = response.json<ReservationBody>();
      expect(body.startTime).toBe('2030-03-06T09:00:00.000Z');
      expect(body.endTime).toBe('2030-03-06T11:30:00.000Z');
      expect(body.startTime).toMatch(ISO_UTC);
      // The same instant written in another zone collides with it.
      const again = await book(bobToken, { deskId: desk.id, startTime: '2030-03-06T04:00:00-05:00', endTime: '2030-03-06T05:00:00-05:00' });
      const problem = expectProblem(again, 409, 'RESERVATION_CONFLICT');
      expect(problem.conflicts).toEqual([{ startTime: '2030-03-06T09:00:00.000Z', endTime: '2030-03-06T11:30:00.000Z' }]);
    });

    it('refuses a time without an offset, a date without a time and an impossible date', async () => {
      const desk = await freshDesk();
      for (const startTime of ['2030-03-06T09:00:00', '2030-03-06', '2030-02-30T09:00:00Z', 'tomorrow']) {
        const response = await book(aliceToken, { deskId: desk.id, startTime, endTime: '2030-03-06T12:00:00Z' });
        const problem = expectProblem(response, 400, 'VALIDATION_FAILED');
        expect(problem.errors?.map((error) => error.field)).toEqual(['startTime']);
      }
    });

    it('refuses instants PostgreSQL cannot store (before 0001, after 9999) with 400 naming the field, also in the list filters', async () => {
      const desk = await freshDesk();
      for (const [startTime, endTime, field] of [
        ['0000-01-01T00:00:00Z', '2030-03-06T12:00:00Z', 'startTime'],
        ['0001-01-01T00:30:00+01:00', '2030-03-06T12:00:00Z', 'startTime'],
        ['2030-03-06T09:00:00Z', '9999-12-31T23:59:59.999-23:59', 'endTime'],
      ]) {
        const response = await book(admin, { deskId: desk.id, startTime, endTime });
        const problem = expectProblem(response, 400, 'VALIDATION_FAILED');
        expect(problem.errors?.map((error) => error.field)).toEqual([field]);
      }
      for (const query of <Record<string, string>[]>[{ from: '0000-01-01T00:00:00Z' }, { to: '9999-12-31T23:00:00-02:00' }]) {
        const response = await t.request({ method: 'GET', url: '/api/reservation', token: admin, query });
        expect(expectProblem(response, 400, 'VALIDATION_FAILED').errors?.map((error) => error.field)).toEqual(Object.keys(query));
      }
      // The extremes themselves are fine.
      const extremes = await t.request({
        method: 'GET',
        url: '/api/reservation',
        token: admin,
        query: { from: '0001-01-01T00:00:00Z', to: '9999-12-31T23:59:59.999Z' },
      });
      expect(extremes.statusCode, extremes.body).toBe(200);
    });

    it('allows back-to-back reservations of one desk (half-open ranges) and refuses an overlap of one millisecond', async () => {
      const desk = await freshDesk();
      const first = await book(aliceToken, { deskId: desk.id, startTime: at(7 * DAY + 2 * HOUR), endTime: at(7 * DAY + 3 * HOUR) });
      expect(first.statusCode, first.body).toBe(200);
      const before = await book(bobToken, { deskId: desk.id, startTime: at(7 * DAY + HOUR), endTime: at(7 * DAY + 2 * HOUR) });
      expect(before.statusCode, before.body).toBe(200);
      const after = await book(bobToken, { deskId: desk.id, startTime: at(7 * DAY + 3 * HOUR), endTime: at(7 * DAY + 4 * HOUR) });
      expect(after.statusCode, after.body).toBe(200);
      const overlap = await book(admin, { deskId: desk.id, startTime: at(7 * DAY + 3 * HOUR - 1), endTime: at(7 * DAY + 5 * HOUR), userId: alice.id });
      const problem = expectProblem(overlap, 409, 'RESERVATION_CONFLICT');
      expect(problem.conflicts).toEqual([
        { startTime: at(7 * DAY + 2 * HOUR), endTime: at(7 * DAY + 3 * HOUR) },
        { startTime: at(7 * DAY + 3 * HOUR), endTime: at(7 * DAY + 4 * HOUR) },
      ]);
    });

    it("names the colliding range without the other user's identity", async () => {
      const desk = await freshDesk();
      const mine = await book(bobToken, { deskId: desk.id, startTime: at(2 * DAY), endTime: at(2 * DAY + 2 * HOUR) });
      expect(mine.statusCode).toBe(200);
      const response = await book(aliceToken, { deskId: desk.id, startTime: at(2 * DAY + HOUR), endTime: at(2 * DAY + 3 * HOUR) });
      const problem = expectProblem(response, 409, 'RESERVATION_CONFLICT');
      expect(problem.reason).toBe('DESK_RESERVED');
      expect(Object.keys(problem.conflicts as object[][0] as object)).toEqual(['0']);
      expect((problem.conflicts as Record<string, string>[])[0]).toEqual({ startTime: at(2 * DAY), endTime: at(2 * DAY + 2 * HOUR) });
      expect(response.body).not.toContain(bob.id);
      expect(response.body).not.toContain(bob.email);
      expect(response.body).not.toContain(mine.json<ReservationBody>().id);
    });

    it('refuses a second reservation of the same user overlapping the first, on another desk (409 with conflicts)', async () => {
      const one = await freshDesk();
      const two = await freshDesk();
      const first = await book(aliceToken, { deskId: one.id, startTime: at(3 * DAY), endTime: at(3 * DAY + 4 * HOUR) });
      expect(first.statusCode).toBe(200);
      const second = await book(aliceToken, { deskId: two.id, startTime: at(3 * DAY + 3 * HOUR), endTime: at(3 * DAY + 6 * HOUR) });
      const problem = expectProblem(second, 409, 'RESERVATION_CONFLICT');
      expect(problem.detail).toMatch(/You already have a reservation/);
      expect(problem.reason).toBe('USER_OVERLAP');
      expect(problem.conflicts).toEqual([{ startTime: at(3 * DAY), endTime: at(3 * DAY + 4 * HOUR) }]);
      // An admin booking for her meets the same rule, worded for a third person.
      const byAdmin = await book(admin, { deskId: two.id, startTime: at(3 * DAY + HOUR), endTime: at(3 * DAY + 2 * HOUR), userId: alice.id });
      expect(expectProblem(byAdmin, 409, 'RESERVATION_CONFLICT').detail).toMatch(/That user already has/);
      // Back to back is fine for a user too.
      const next = await book(aliceToken, { deskId: two.id, startTime: at(3 * DAY + 4 * HOUR), endTime: at(3 * DAY + 6 * HOUR) });
      expect(next.statusCode, next.body).toBe(200);
    });

    it('refuses startTime not before endTime (400 naming endTime)', async () => {
      const desk = await freshDesk();
      for (const [startTime, endTime] of [
        [at(DAY), at(DAY)],
        [at(DAY + HOUR), at(DAY)],
      ]) {
        const problem = expectProblem(await book(admin, { deskId: desk.id, startTime, endTime }), 400, 'VALIDATION_FAILED');
        expect(problem.errors).toEqual([{ field: 'endTime', message: 'must be after startTime' }]);
      }
    });

    it('refuses unknown members, missing members and wrong types (400 naming them), writing nothing', async () => {
      const desk = await freshDesk();
      const valid = { deskId: desk.id, startTime: at(4 * DAY), endTime: at(4 * DAY + HOUR) };
      const cases: [Record<string, unknown>, string][] = [
        [{ ...valid, roomId: place.room.id }, 'roomId'],
        [{ ...valid, id: '00000000-0000-4000-8000-000000000000' }, 'id'],
        [{ startTime: valid.startTime, endTime: valid.endTime }, 'deskId'],
        [{ ...valid, deskId: 'desk-1' }, 'deskId'],
        [{ ...valid, startTime: null }, 'startTime'],
        [{ ...valid, endTime: 1893456000000 }, 'endTime'],
        [{ ...valid, type: 'SHARED' }, 'type'],
      ];
      for (const [payload, field] of cases) {
        const problem = expectProblem(await book(aliceToken, payload), 400, 'VALIDATION_FAILED');
        expect(problem.errors?.map((error) => error.field)).toContain(field);
      }
      const [row] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from reservations where desk_id = ${desk.id}`);
      expect(row!.n).toBe(0);
    });

    it('answers 400 naming deskId for an unknown desk and userId for an unknown user', async () => {
      const unknown = '00000000-0000-4000-8000-000000000001';
      const noDesk = expectProblem(await book(aliceToken, { deskId: unknown, startTime: at(5 * DAY), endTime: at(5 * DAY + HOUR) }), 400, 'VALIDATION_FAILED');
      expect(noDesk.errors).toEqual([{ field: 'deskId', message: 'no such desk' }]);
      const desk = await freshDesk();
      const noUser = expectProblem(
        await book(admin, { deskId: desk.id, userId: unknown, startTime: at(5 * DAY), endTime: at(5 * DAY + HOUR) }),
        400,
        'VALIDATION_FAILED',
      );
      expect(noUser.errors).toEqual([{ field: 'userId', message: 'no such user' }]);
    });

    it('needs a token', async () => {
      const desk = await freshDesk();
      const response = await t.request({ method: 'POST', url: '/api/reservation', payload: { deskId: desk.id, startTime: at(DAY), endTime: at(DAY + HOUR) } });
      expectProblem(response, 401, 'UNAUTHENTICATED');
    });
  });

  describe('rules that bind a USER and not an admin', () => {
    it('a USER cannot book in the past; an admin can', async () => {
      const desk = await freshDesk();
      const past = { deskId: desk.id, startTime: at(-2 * DAY), endTime: at(-2 * DAY + HOUR) };
      const problem = expectProblem(await book(aliceToken, past), 400, 'RESERVATION_NOT_ALLOWED');
      expect(problem.errors?.[0]?.field).toBe('endTime');
      expect(problem.rule).toEqual({ name: 'END_IN_PAST' });
      const started = { deskId: desk.id, startTime: at(-HOUR), endTime: at(HOUR) };
      expect(expectProblem(await book(aliceToken, started), 400, 'RESERVATION_NOT_ALLOWED').errors).toEqual([
        { field: 'startTime', message: 'lies in the past' },
      ]);
      // A few minutes of grace for a form filled in "now".
      const justNow = await book(aliceToken, { deskId: desk.id, startTime: at(-60_000), endTime: at(HOUR) });
      expect(justNow.statusCode, justNow.body).toBe(200);
      const byAdmin = await book(admin, { ...past, userId: bob.id });
      expect(byAdmin.statusCode, byAdmin.body).toBe(200);
      expect(byAdmin.json<ReservationBody>().userId).toBe(bob.id);
    });

    it('a USER may book at most RESERVATION_MAX_LENGTH (24 h by default); an admin longer', async () => {
      const desk = await freshDesk();
      const tooLong = await book(aliceToken, { deskId: desk.id, startTime: at(10 * DAY), endTime: at(11 * DAY + 1) });
      const problem = expectProblem(tooLong, 400, 'RESERVATION_NOT_ALLOWED');
      expect(problem.detail).toContain('24 hours');
      // The rule, for clients to word (docs/errors.md).
      expect(problem.rule).toEqual({ name: 'TOO_LONG', seconds: 86_400 });
      expect(problem.errors?.[0]?.field).toBe('endTime');
      const exactly = await book(aliceToken, { deskId: desk.id, startTime: at(10 * DAY), endTime: at(11 * DAY) });
      expect(exactly.statusCode, exactly.body).toBe(200);
      const week = await book(admin, { deskId: desk.id, startTime: at(12 * DAY), endTime: at(19 * DAY) });
      expect(week.statusCode, week.body).toBe(200);
    });

    it('a USER books at least RESERVATION_MIN_LENGTH (15 min by default): shorter is 400 naming endTime; an admin shorter', async () => {
      const desk = await freshDesk();
      const second = await book(aliceToken, { deskId: desk.id, startTime: at(86 * DAY), endTime: at(86 * DAY + 1000) });
      const problem = expectProblem(second, 400, 'RESERVATION_NOT_ALLOWED');
      expect(problem.errors).toEqual([{ field: 'endTime', message: 'makes the reservation shorter than the 15 minutes required' }]);
      expectProblem(
        await book(aliceToken, { deskId: desk.id, startTime: at(86 * DAY), endTime: at(86 * DAY + 15 * 60_000 - 1) }),
        400,
        'RESERVATION_NOT_ALLOWED',
      );
      const exactly = await book(aliceToken, { deskId: desk.id, startTime: at(86 * DAY), endTime: at(86 * DAY + 15 * 60_000) });
      expect(exactly.statusCode, exactly.body).toBe(200);
      // Moving it to a shorter range is refused too.
      const id = exactly.json<ReservationBody>().id;
      const shorter = await t.request({ method: 'PUT', url: `/api/reservation/${id}`, token: aliceToken, payload: { endTime: at(86 * DAY + 60_000) } });
      expectProblem(shorter, 400, 'RESERVATION_NOT_ALLOWED');
      expect((await book(admin, { deskId: desk.id, startTime: at(87 * DAY), endTime: at(87 * DAY + 1000) })).statusCode).toBe(200);
    });

    it('a USER holds at most RESERVATION_MAX_FUTURE reservations not yet ended: 409 with the limit; series count every occurrence; admins exempt', async () => {
      const capped = await createTestApp({ clock: new TestClock(NOW), env: { RESERVATION_MAX_FUTURE: '3' } });
      try {
        const user = await capped.createUser({ email: 'capped@example.test', password: PASSWORD });
        const token = (await capped.login(user.email, PASSWORD)).accessToken;
        const { desk } = await insertDeskInNewRoom(capped.database.handle.db);
        const post = (payload: object, as = token) => capped.request({ method: 'POST', url: '/api/reservation', token: as, payload });
        // One that has ended does not count.
        const ended = await post({ deskId: desk.id, startTime: at(-2 * HOUR), endTime: at(-HOUR), userId: user.id }, await capped.adminToken());
        expect(ended.statusCode, ended.body).toBe(200);
        for (let i = 1; i <= 3; i++) expect((await post({ deskId: desk.id, startTime: at(i * DAY), endTime: at(i * DAY + HOUR) })).statusCode).toBe(200);
        const fourth = expectProblem(await post({ deskId: desk.id, startTime: at(4 * DAY), endTime: at(4 * DAY + HOUR) }), 409, 'RESERVATION_LIMIT_REACHED');
        expect(fourth.limit).toEqual({ name: 'RESERVATION_MAX_FUTURE', max: 3, current: 3, requested: 1 });
        const rows = await queryRows<{ n: number }>(capped.database.handle.db, sql`select count(*)::int as n from reservations where user_id = ${user.id}`);
        expect(rows[0]!.n).toBe(4);
        // At the cap, a move is not a new reservation, and a walk-in is not counted against it (docs/behaviour.md#reservations).
        const [held] = (await capped.request({ method: 'GET', url: `/api/reservation?userId=${user.id}&sort=startTime`, token }))
          .json<{ content: { id: string }[] }>()
          .content.slice(1);
        const moved = await capped.request({
          method: 'PUT',
          url: `/api/reservation/${held!.id}`,
          token,
          payload: { startTime: at(DAY + 2 * HOUR), endTime: at(DAY + 3 * HOUR) },
        });
        expect(moved.statusCode, moved.body).toBe(200);
        const walkIn = await capped.request({ method: 'POST', url: `/api/desks/${desk.id}/walk-in`, token });
        expect(walkIn.statusCode, walkIn.body).toBe(200);
        // An admin booking for them is not held to it.
        expect(
          (await post({ deskId: desk.id, startTime: at(5 * DAY), endTime: at(5 * DAY + HOUR), userId: user.id }, await capped.adminToken())).statusCode,
        ).toBe(200);

        const other = await capped.createUser({ email: 'series@example.test', password: PASSWORD });
        const otherToken = (await capped.login(other.email, PASSWORD)).accessToken;
        const series = await capped.request({
          method: 'POST',
          url: '/api/reservation/series',
          token: otherToken,
          payload: { deskId: desk.id, startTime: at(10 * DAY), endTime: at(10 * DAY + HOUR), timeZone: 'UTC', rule: { frequency: 'DAILY', count: 4 } },
        });
        expect(expectProblem(series, 409, 'RESERVATION_LIMIT_REACHED').limit).toEqual({ name: 'RESERVATION_MAX_FUTURE', max: 3, current: 0, requested: 4 });
      } finally {
        await capped.close();
      }
    });

    it('a USER may start at most RESERVATION_HORIZON ahead (90 days by default); an admin further', async () => {
      const desk = await freshDesk();
      const far = await book(aliceToken, { deskId: desk.id, startTime: at(90 * DAY + 1), endTime: at(90 * DAY + HOUR) });
      const farProblem = expectProblem(far, 400, 'RESERVATION_NOT_ALLOWED');
      expect(farProblem.errors?.[0]?.field).toBe('startTime');
      expect(farProblem.rule).toEqual({ name: 'TOO_FAR_AHEAD', seconds: 90 * 86_400 });
      const edge = await book(aliceToken, { deskId: desk.id, startTime: at(90 * DAY), endTime: at(90 * DAY + HOUR) });
      expect(edge.statusCode, edge.body).toBe(200);
      const byAdmin = await book(admin, { deskId: desk.id, startTime: at(200 * DAY), endTime: at(200 * DAY + HOUR) });
      expect(byAdmin.statusCode, byAdmin.body).toBe(200);
    });

    it('a USER cannot book a FIXED desk (409); an admin assigns it, also as type fixed', async () => {
      const fixed = await freshDesk('FIXED');
      const slot = { deskId: fixed.id, startTime: at(DAY), endTime: at(DAY + 8 * HOUR) };
      expectProblem(await book(aliceToken, slot), 409, 'DESK_NOT_BOOKABLE');
      const assigned = await book(admin, { ...slot, userId: bob.id, type: 'fixed' });
      expect(assigned.statusCode, assigned.body).toBe(200);
      expect(assigned.json<ReservationBody>().type).toBe('fixed');
    });

    it('a USER cannot book a desk in an unavailable room (409); an admin can', async () => {
      const room = await insertRoom(db, place.department.id, { name: 'Closed', available: false });
      const desk = await insertDesk(db, room.id);
      const slot = { deskId: desk.id, startTime: at(DAY), endTime: at(DAY + HOUR) };
      expect(expectProblem(await book(aliceToken, slot), 409, 'DESK_NOT_BOOKABLE').detail).toMatch(/not available/);
      expect((await book(admin, slot)).statusCode).toBe(200);
    });

    it('a USER books only for themselves (another userId is 403, their own is fine) and only type shared', async () => {
      const desk = await freshDesk();
      const slot = { deskId: desk.id, startTime: at(6 * DAY), endTime: at(6 * DAY + HOUR) };
      expectProblem(await book(aliceToken, { ...slot, userId: bob.id }), 403, 'FORBIDDEN');
      expectProblem(await book(aliceToken, { ...slot, type: 'fixed' }), 403, 'FORBIDDEN');
      const own = await book(aliceToken, { ...slot, userId: alice.id, type: 'shared' });
      expect(own.statusCode, own.body).toBe(200);
    });

    it('the limits are configurable', async () => {
      const strict = await createTestApp({ clock: new TestClock(NOW), env: { RESERVATION_MAX_LENGTH: '4h', RESERVATION_HORIZON: '7d' } });
      try {
        const user = await strict.createUser({ email: 'carol@example.test', password: PASSWORD });
        const token = (await strict.login(user.email, PASSWORD)).accessToken;
        const { desk } = await insertDeskInNewRoom(strict.database.handle.db);
        const long = await strict.request({
          method: 'POST',
          url: '/api/reservation',
          token,
          payload: { deskId: desk.id, startTime: at(DAY), endTime: at(DAY + 5 * HOUR) },
        });
        expect(expectProblem(long, 400, 'RESERVATION_NOT_ALLOWED').detail).toContain('4 hours');
        const far = await strict.request({
          method: 'POST',
          url: '/api/reservation',
          token,
          payload: { deskId: desk.id, startTime: at(8 * DAY), endTime: at(8 * DAY + HOUR) },
        });
        expect(expectProblem(far, 400, 'RESERVATION_NOT_ALLOWED').detail).toContain('7 days');
      } finally {
        await strict.close();
      }
    });

    it('with RESERVATION_ONE_PER_USER=false a user may hold overlapping reservations; a desk still may not', async () => {
      const relaxed = await createTestApp({ clock: new TestClock(NOW), env: { RESERVATION_ONE_PER_USER: 'false' } });
      try {
        const user = await relaxed.createUser({ email: 'dave@example.test', password: PASSWORD });
        const token = (await relaxed.login(user.email, PASSWORD)).accessToken;
        const rdb = relaxed.database.handle.db;
        const { room } = await insertDeskInNewRoom(rdb);
        const one = await insertDesk(rdb, room.id, { name: 'One' });
        const two = await insertDesk(rdb, room.id, { name: 'Two' });
        const slot = { startTime: at(DAY), endTime: at(DAY + 2 * HOUR) };
        const post = (payload: object) => relaxed.request({ method: 'POST', url: '/api/reservation', token, payload });
        expect((await post({ ...slot, deskId: one.id })).statusCode).toBe(200);
        expect((await post({ ...slot, deskId: two.id })).statusCode).toBe(200);
        expectProblem(await post({ ...slot, deskId: two.id }), 409, 'RESERVATION_CONFLICT');
      } finally {
        await relaxed.close();
      }
    });
  });

  describe('reading', () => {
    let mine: ReservationBody;
    let theirs: ReservationBody;
    let listDesk: Awaited<ReturnType<typeof freshDesk>>;
    let otherPlace: Awaited<ReturnType<typeof insertDeskInNewRoom>>;

    beforeAll(async () => {
      listDesk = await freshDesk();
      otherPlace = await insertDeskInNewRoom(db);
      mine = (await book(aliceToken, { deskId: listDesk.id, startTime: at(20 * DAY), endTime: at(20 * DAY + HOUR) })).json();
      theirs = (await book(bobToken, { deskId: otherPlace.desk.id, startTime: at(21 * DAY), endTime: at(21 * DAY + HOUR) })).json();
      expect(mine.id).toMatch(UUID);
      expect(theirs.id).toMatch(UUID);
    });

    const list = (token: string, query: Record<string, string | string[]> = {}) => t.request({ method: 'GET', url: '/api/reservation', token, query });

    it('a USER lists only their own reservations, in the page envelope', async () => {
      const response = await list(aliceToken, { size: '1000' });
      expect(response.statusCode).toBe(200);
      const page = response.json<Page<ReservationBody>>();
      expect(Object.keys(page).sort()).toEqual(PAGE_KEYS);
      expect(page.content.length).toBeGreaterThan(0);
      expect(page.content.every((item) => item.userId === alice.id)).toBe(true);
      expect(page.content.map((item) => item.id)).toContain(mine.id);
      expect(page.content.map((item) => item.id)).not.toContain(theirs.id);
      expect(page.totalElements).toBe(page.content.length);
      for (const item of page.content) expect(Object.keys(item).sort()).toEqual(RESERVATION_KEYS);
    });

    it('a USER asking for another user is 403; for themselves fine', async () => {
      expectProblem(await list(aliceToken, { userId: bob.id }), 403, 'FORBIDDEN');
      const own = await list(aliceToken, { userId: alice.id, size: '1000' });
      expect(own.statusCode).toBe(200);
      expect(own.json<Page<ReservationBody>>().content.every((item) => item.userId === alice.id)).toBe(true);
    });

    it("an admin lists everyone's and filters by user, desk, room, department, type and window", async () => {
      const all = await list(admin, { size: '1000' });
      const ids = all.json<Page<ReservationBody>>().content.map((item) => item.id);
      expect(ids).toEqual(expect.arrayContaining([mine.id, theirs.id]));
      const only = async (query: Record<string, string>) =>
        (await list(admin, { size: '1000', ...query })).json<Page<ReservationBody>>().content.map((item) => item.id);
      expect(await only({ userId: bob.id })).toContain(theirs.id);
      expect(await only({ userId: bob.id })).not.toContain(mine.id);
      expect(await only({ deskId: listDesk.id })).toEqual([mine.id]);
      expect(await only({ roomId: otherPlace.room.id })).toEqual([theirs.id]);
      expect(await only({ departmentId: otherPlace.department.id })).toEqual([theirs.id]);
      expect(await only({ departmentId: place.department.id })).not.toContain(theirs.id);
      expect(await only({ deskId: listDesk.id, from: at(20 * DAY + HOUR), to: at(30 * DAY) })).toEqual([]);
      expect(await only({ deskId: listDesk.id, from: at(20 * DAY + HOUR - 1), to: at(30 * DAY) })).toEqual([mine.id]);
      expect(await only({ deskId: listDesk.id, from: at(DAY), to: at(20 * DAY) })).toEqual([]);
      expect(await only({ deskId: listDesk.id, from: at(DAY), to: at(20 * DAY + 1) })).toEqual([mine.id]);
      expect(await only({ type: 'fixed', userId: alice.id })).toEqual([]);
      expectProblem(await list(admin, { from: at(2 * DAY), to: at(DAY) }), 400, 'VALIDATION_FAILED');
    });

    it('sorts by the allowed properties and refuses others', async () => {
      const response = await list(aliceToken, { sort: 'startTime,desc', size: '1000' });
      const starts = response.json<Page<ReservationBody>>().content.map((item) => item.startTime);
      expect(starts).toEqual([...starts].sort().reverse());
      expect(response.json<Page<ReservationBody>>().sort).toEqual([
        { direction: 'DESC', nullHandling: 'NATIVE', ascending: false, property: 'startTime', ignoreCase: false },
      ]);
      expectProblem(await list(aliceToken, { sort: 'user_exclusive' }), 400, 'VALIDATION_FAILED');
      const byDefault = (await list(aliceToken, { size: '1000' })).json<Page<ReservationBody>>().content.map((item) => item.startTime);
      expect(byDefault).toEqual([...byDefault].sort());
    });

    it("another user's reservation answers 404 to a USER (get, change, cancel) and nothing changes", async () => {
      expectProblem(await t.request({ method: 'GET', url: `/api/reservation/${theirs.id}`, token: aliceToken }), 404, 'NOT_FOUND');
      expectProblem(
        await t.request({ method: 'PUT', url: `/api/reservation/${theirs.id}`, token: aliceToken, payload: { endTime: at(21 * DAY + 2 * HOUR) } }),
        404,
        'NOT_FOUND',
      );
      expectProblem(await t.request({ method: 'DELETE', url: `/api/reservation/${theirs.id}`, token: aliceToken }), 404, 'NOT_FOUND');
      const still = await t.request({ method: 'GET', url: `/api/reservation/${theirs.id}`, token: bobToken });
      expect(still.json()).toEqual(theirs);
      const byAdmin = await t.request({ method: 'GET', url: `/api/reservation/${theirs.id}`, token: admin });
      expect(byAdmin.json()).toEqual(theirs);
    });

    it('an unknown id is 404 and a malformed one 400', async () => {
      expectProblem(await t.request({ method: 'GET', url: '/api/reservation/00000000-0000-4000-8000-000000000009', token: admin }), 404, 'NOT_FOUND');
      expectProblem(await t.request({ method: 'GET', url: '/api/reservation/nope', token: admin }), 400, 'VALIDATION_FAILED');
    });

    it('roomId and departmentId follow the desk when it moves to another room', async () => {
      const desk = await freshDesk();
      const booked = (await book(aliceToken, { deskId: desk.id, startTime: at(30 * DAY), endTime: at(30 * DAY + HOUR) })).json<ReservationBody>();
      const elsewhere = await insertDepartment(db, { location: 'Paris', building: 'Rive', floor: 3 });
      const newRoom = await insertRoom(db, elsewhere.id, { name: 'Moved here' });
      await db.execute(sql`update desks set room_id = ${newRoom.id} where id = ${desk.id}`);
      const read = (await t.request({ method: 'GET', url: `/api/reservation/${booked.id}`, token: aliceToken })).json<ReservationBody>();
      expect(read.roomId).toBe(newRoom.id);
      expect(read.departmentId).toBe(elsewhere.id);
      const listed = (await list(admin, { departmentId: elsewhere.id })).json<Page<ReservationBody>>().content;
      expect(listed.map((item) => item.id)).toEqual([booked.id]);
    });
  });

  describe('changing and cancelling', () => {
    it('PUT changes only the members given, may move to another desk, and keeps the id', async () => {
      const one = await freshDesk();
      const other = await insertDeskInNewRoom(db);
      const created = (await book(aliceToken, { deskId: one.id, startTime: at(40 * DAY), endTime: at(40 * DAY + HOUR) })).json<ReservationBody>();
      const longer = await t.request({
        method: 'PUT',
        url: `/api/reservation/${created.id}`,
        token: aliceToken,
        payload: { endTime: at(40 * DAY + 3 * HOUR) },
      });
      expect(longer.statusCode, longer.body).toBe(200);
      expect(longer.json()).toEqual({ ...created, endTime: at(40 * DAY + 3 * HOUR) });
      const moved = await t.request({ method: 'PUT', url: `/api/reservation/${created.id}`, token: aliceToken, payload: { deskId: other.desk.id } });
      expect(moved.statusCode, moved.body).toBe(200);
      expect(moved.json()).toEqual({
        ...created,
        endTime: at(40 * DAY + 3 * HOUR),
        deskId: other.desk.id,
        roomId: other.room.id,
        departmentId: other.department.id,
      });
      const read = await t.request({ method: 'GET', url: `/api/reservation/${created.id}`, token: aliceToken });
      expect(read.json()).toEqual(moved.json());
    });

    it('PUT may overlap the reservation it changes, but not another one (409 with conflicts)', async () => {
      const desk = await freshDesk();
      const first = (await book(aliceToken, { deskId: desk.id, startTime: at(41 * DAY), endTime: at(41 * DAY + 2 * HOUR) })).json<ReservationBody>();
      const second = (await book(bobToken, { deskId: desk.id, startTime: at(41 * DAY + 3 * HOUR), endTime: at(41 * DAY + 4 * HOUR) })).json<ReservationBody>();
      const shifted = await t.request({
        method: 'PUT',
        url: `/api/reservation/${first.id}`,
        token: aliceToken,
        payload: { startTime: at(41 * DAY + HOUR), endTime: at(41 * DAY + 3 * HOUR) },
      });
      expect(shifted.statusCode, shifted.body).toBe(200);
      const clash = await t.request({
        method: 'PUT',
        url: `/api/reservation/${first.id}`,
        token: aliceToken,
        payload: { endTime: at(41 * DAY + 3 * HOUR + 1) },
      });
      expect(expectProblem(clash, 409, 'RESERVATION_CONFLICT').conflicts).toEqual([{ startTime: second.startTime, endTime: second.endTime }]);
      const unchanged = await t.request({ method: 'GET', url: `/api/reservation/${first.id}`, token: aliceToken });
      expect(unchanged.json<ReservationBody>().endTime).toBe(at(41 * DAY + 3 * HOUR));
    });

    it('PUT refuses members it does not take and applies the USER rules', async () => {
      const desk = await freshDesk();
      const created = (await book(aliceToken, { deskId: desk.id, startTime: at(42 * DAY), endTime: at(42 * DAY + HOUR) })).json<ReservationBody>();
      const put = (payload: object) => t.request({ method: 'PUT', url: `/api/reservation/${created.id}`, token: aliceToken, payload });
      expect(expectProblem(await put({ userId: bob.id }), 400, 'VALIDATION_FAILED').errors?.[0]?.field).toBe('userId');
      expectProblem(await put({ endTime: at(43 * DAY + HOUR) }), 400, 'RESERVATION_NOT_ALLOWED');
      expectProblem(await put({ startTime: at(-DAY) }), 400, 'RESERVATION_NOT_ALLOWED');
      expectProblem(await put({ type: 'fixed' }), 403, 'FORBIDDEN');
      expectProblem(await put({ deskId: (await freshDesk('FIXED')).id }), 409, 'DESK_NOT_BOOKABLE');
      expect((await t.request({ method: 'GET', url: `/api/reservation/${created.id}`, token: aliceToken })).json()).toEqual(created);
    });

    it('a USER may shorten a reservation that has started, but cannot change or cancel one that has ended', async () => {
      const desk = await freshDesk();
      const created = (await book(aliceToken, { deskId: desk.id, startTime: at(50 * DAY), endTime: at(50 * DAY + 4 * HOUR) })).json<ReservationBody>();
      // Tokens expire as the clock moves: sign in anew at each moment.
      t.clock.set(new Date(NOW.getTime() + 50 * DAY + HOUR));
      try {
        let token = (await t.login(alice.email, PASSWORD)).accessToken;
        const shorter = await t.request({ method: 'PUT', url: `/api/reservation/${created.id}`, token, payload: { endTime: at(50 * DAY + 2 * HOUR) } });
        expect(shorter.statusCode, shorter.body).toBe(200);
        t.clock.set(new Date(NOW.getTime() + 50 * DAY + 3 * HOUR));
        token = (await t.login(alice.email, PASSWORD)).accessToken;
        expectProblem(
          await t.request({ method: 'PUT', url: `/api/reservation/${created.id}`, token, payload: { endTime: at(50 * DAY + 5 * HOUR) } }),
          409,
          'CONFLICT',
        );
        expectProblem(await t.request({ method: 'DELETE', url: `/api/reservation/${created.id}`, token }), 409, 'CONFLICT');
        const adminToken = (await t.login(ADMIN_EMAIL, ADMIN_PASSWORD)).accessToken;
        const byAdmin = await t.request({ method: 'DELETE', url: `/api/reservation/${created.id}`, token: adminToken });
        expect(byAdmin.statusCode).toBe(204);
      } finally {
        t.clock.set(NOW);
      }
    });

    it('a USER cannot change or cancel a fixed assignment (403); an admin can', async () => {
      const desk = await freshDesk('FIXED');
      const assigned = (
        await book(admin, { deskId: desk.id, userId: alice.id, type: 'fixed', startTime: at(60 * DAY), endTime: at(60 * DAY + 8 * HOUR) })
      ).json<ReservationBody>();
      expectProblem(await t.request({ method: 'DELETE', url: `/api/reservation/${assigned.id}`, token: aliceToken }), 403, 'FORBIDDEN');
      expectProblem(
        await t.request({ method: 'PUT', url: `/api/reservation/${assigned.id}`, token: aliceToken, payload: { endTime: at(60 * DAY + HOUR) } }),
        403,
        'FORBIDDEN',
      );
      const changed = await t.request({ method: 'PUT', url: `/api/reservation/${assigned.id}`, token: admin, payload: { type: 'shared' } });
      expect(changed.json<ReservationBody>().type).toBe('shared');
    });

    it('DELETE cancels (204), frees the slot, and a second DELETE is 404', async () => {
      const desk = await freshDesk();
      const slot = { deskId: desk.id, startTime: at(70 * DAY), endTime: at(70 * DAY + HOUR) };
      const created = (await book(aliceToken, slot)).json<ReservationBody>();
      const cancelled = await t.request({ method: 'DELETE', url: `/api/reservation/${created.id}`, token: aliceToken });
      expect(cancelled.statusCode).toBe(204);
      expect(cancelled.body).toBe('');
      expectProblem(await t.request({ method: 'DELETE', url: `/api/reservation/${created.id}`, token: aliceToken }), 404, 'NOT_FOUND');
      expect((await book(bobToken, slot)).statusCode).toBe(200);
    });
  });

  describe('concurrency within one process', () => {
    it('of 30 simultaneous overlapping bookings of one desk exactly one succeeds and the rest get 409', async () => {
      const desk = await freshDesk();
      const users = await Promise.all(Array.from({ length: 30 }, (_, i) => t.createUser({ email: `racer${i}@example.test` })));
      const responses = await Promise.all(
        users.map((user, i) => book(admin, { deskId: desk.id, userId: user.id, startTime: at(80 * DAY + i * 60_000), endTime: at(80 * DAY + 2 * HOUR) })),
      );
      const statuses = responses.map((response) => response.statusCode);
      expect(statuses.filter((status) => status === 200)).toHaveLength(1);
      expect(statuses.filter((status) => status === 409)).toHaveLength(29);
      for (const response of responses.filter((r) => r.statusCode === 409)) expect(response.json().conflicts).toHaveLength(1);
      expect(await overlappingPairs(db)).toBe(0);
    });
  });

  it('deleting a user removes their reservations', async () => {
    const user = await t.createUser({ email: 'leaver@example.test' });
    const desk = await freshDesk();
    await insertReservation(db, { userId: user.id, deskId: desk.id, startTime: new Date(at(90 * DAY)), endTime: new Date(at(90 * DAY + HOUR)) });
    expect((await t.request({ method: 'DELETE', url: `/api/users/${user.id}`, token: admin })).statusCode).toBe(204);
    const [row] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from reservations where user_id = ${user.id}`);
    expect(row!.n).toBe(0);
  });
});
