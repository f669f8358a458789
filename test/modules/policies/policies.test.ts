import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows, type Database } from '../../../src/db/client.js';
import { createTestApp, expectProblem, TestClock, type TestApp, type UserBody } from '../../helpers/app.js';
import { insertDepartment, insertDesk, insertReservation, insertRoom } from '../../helpers/fixtures.js';
import { addMember, insertTeam } from '../../helpers/teams.js';

/**
 * Booking policies over HTTP (docs/policies.md): each limit kind refuses what it should with a
 * problem that names the rule and its figures (docs/errors.md), areas reserved for
 * teams, precedence, admins, moves and cancellations, series skipping refused occurrences, the
 * preview and the allowance, and the administration's refusals of bad or contradictory rules.
 */

// A Monday morning (UTC); the office's zone is UTC unless a test says otherwise.
const NOW = new Date('2030-03-04T08:00:00.000Z');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const PASSWORD = 'policy-password-1';
const at = (ms: number) => new Date(NOW.getTime() + ms).toISOString();
/** Day `d` after NOW's Monday (0 = Monday), from `h` o'clock for `len` hours. */
const slot = (d: number, h = 9, len = 8) => ({ startTime: at(d * DAY + (h - 8) * HOUR), endTime: at(d * DAY + (h - 8 + len) * HOUR) });

describe('booking policies', () => {
  let t: TestApp;
  let db: Database;
  let admin: string;
  let alice: UserBody;
  let aliceToken: string;
  let bob: UserBody;
  let bobToken: string;
  let carolToken: string;
  let dave: UserBody;
  let daveToken: string;
  let departmentId: string;
  let roomId: string;

  const newDesk = async (room = roomId) => (await insertDesk(db, room)).id;
  const book = (token: string, deskId: string, span: { startTime: string; endTime: string }, extra: Record<string, unknown> = {}) =>
    t.request({ method: 'POST', url: '/api/reservation', token, payload: { deskId, ...span, ...extra } });
  const createRule = async (body: Record<string, unknown>) => {
    const response = await t.request({ method: 'POST', url: '/api/admin/policies/rules', token: admin, payload: body });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ id: string }>().id;
  };
  const removeRule = (id: string) => t.request({ method: 'DELETE', url: `/api/admin/policies/rules/${id}`, token: admin });
  /** Runs `fn` with a rule in force, removed afterwards (so tests do not see each other's rules). */
  async function withRule(body: Record<string, unknown>, fn: (id: string) => Promise<void>) {
    const id = await createRule(body);
    try {
      await fn(id);
    } finally {
      await removeRule(id);
    }
  }
  const everyone = { scope: { kind: 'EVERYWHERE' }, who: { kind: 'EVERYONE' } };

  beforeAll(async () => {
    t = await createTestApp({ clock: new TestClock(NOW) });
    db = t.database.handle.db;
    admin = await t.adminToken();
    alice = await t.createUser({ email: 'alice@example.test', firstName: 'Alice', password: PASSWORD });
    bob = await t.createUser({ email: 'bob@example.test', firstName: 'Bob', password: PASSWORD });
    aliceToken = (await t.login(alice.email, PASSWORD)).accessToken;
    bobToken = (await t.login(bob.email, PASSWORD)).accessToken;
    const carol = await t.createUser({ email: 'carol@example.test', firstName: 'Carol', password: PASSWORD });
    carolToken = (await t.login(carol.email, PASSWORD)).accessToken;
    dave = await t.createUser({ email: 'dave@example.test', firstName: 'Dave', password: PASSWORD });
    daveToken = (await t.login(dave.email, PASSWORD)).accessToken;
    departmentId = (await insertDepartment(db)).id;
    roomId = (await insertRoom(db, departmentId)).id;
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('administration', () => {
    it('refuses bad values with a 400 naming the member, and writes nothing', async () => {
      const cases: [Record<string, unknown>, string][] = [
        [{ ...everyone, limit: { kind: 'BOOKING_WINDOW', days: 0 } }, 'limit.days'],
        [{ ...everyone, limit: { kind: 'BOOKING_WINDOW' } }, 'limit.days'],
        [{ ...everyone, limit: { kind: 'MAX_BOOKINGS', count: 2 } }, 'limit.per'],
        [{ ...everyone, limit: { kind: 'MAX_BOOKINGS', count: 2, per: 'WEEK', days: 3 } }, 'limit.days'],
        [{ ...everyone, limit: { kind: 'WEEKDAYS_HOURS', weekdays: ['MO'], from: '18:00', to: '09:00' } }, 'limit.to'],
        [{ ...everyone, limit: { kind: 'WEEKDAYS_HOURS', weekdays: ['MO'], from: '25:00' } }, 'limit.from'],
        [{ ...everyone, limit: { kind: 'CAPACITY', percent: 50, count: 3 } }, 'limit.percent'],
        [{ scope: { kind: 'ROOM' }, who: { kind: 'EVERYONE' }, limit: { kind: 'MAX_CONCURRENT', count: 1 } }, 'scope.roomId'],
        [{ scope: { kind: 'ROOM', roomId: departmentId }, who: { kind: 'EVERYONE' }, limit: { kind: 'MAX_CONCURRENT', count: 1 } }, 'scope.roomId'],
        [{ scope: { kind: 'EVERYWHERE' }, who: { kind: 'TEAM', teamId: departmentId }, limit: { kind: 'MAX_CONCURRENT', count: 1 } }, 'who.teamId'],
        [{ scope: { kind: 'EVERYWHERE' }, who: { kind: 'ROLE' }, limit: { kind: 'MAX_CONCURRENT', count: 1 } }, 'who.role'],
      ];
      for (const [body, field] of cases) {
        const problem = expectProblem(await t.request({ method: 'POST', url: '/api/admin/policies/rules', token: admin, payload: body }), 400);
        expect(JSON.stringify(problem.errors), JSON.stringify(body)).toContain(field);
      }
      const list = await t.request({ method: 'GET', url: '/api/admin/policies/rules', token: admin });
      expect(list.json<{ items: unknown[] }>().items).toEqual([]);
    });

    it('refuses a second rule for the same slot, and a minimum above the maximum, with 409 POLICY_RULE_CONFLICT', async () => {
      await withRule({ ...everyone, limit: { kind: 'MAX_BOOKINGS', count: 2, per: 'WEEK' } }, async () => {
        const again = await t.request({
          method: 'POST',
          url: '/api/admin/policies/rules',
          token: admin,
          payload: { ...everyone, limit: { kind: 'MAX_BOOKINGS', count: 3, per: 'WEEK' } },
        });
        expect(expectProblem(again, 409, 'POLICY_RULE_CONFLICT').errors).toEqual([{ field: 'limit.kind', message: expect.any(String) }]);
        // Another period is another slot.
        await withRule({ ...everyone, limit: { kind: 'MAX_BOOKINGS', count: 1, per: 'DAY' } }, async () => undefined);
      });
      await withRule({ ...everyone, limit: { kind: 'MAX_DURATION', minutes: 60 } }, async () => {
        const min = await t.request({
          method: 'POST',
          url: '/api/admin/policies/rules',
          token: admin,
          payload: { ...everyone, limit: { kind: 'MIN_DURATION', minutes: 90 } },
        });
        expect(expectProblem(min, 409, 'POLICY_RULE_CONFLICT').errors).toEqual([{ field: 'limit.minutes', message: expect.any(String) }]);
      });
      // The reverse: a maximum below a minimum in force, and a rule changed into a taken slot.
      await withRule({ ...everyone, limit: { kind: 'MIN_DURATION', minutes: 120 } }, async () => {
        const max = await t.request({
          method: 'POST',
          url: '/api/admin/policies/rules',
          token: admin,
          payload: { ...everyone, limit: { kind: 'MAX_DURATION', minutes: 60 } },
        });
        expect(expectProblem(max, 409, 'POLICY_RULE_CONFLICT').errors).toEqual([{ field: 'limit.minutes', message: expect.any(String) }]);
      });
      await withRule({ ...everyone, limit: { kind: 'BOOKING_WINDOW', days: 14 } }, async () => {
        await withRule({ ...everyone, limit: { kind: 'MAX_CONCURRENT', count: 3 } }, async (other) => {
          const changed = await t.request({
            method: 'PUT',
            url: `/api/admin/policies/rules/${other}`,
            token: admin,
            payload: { ...everyone, limit: { kind: 'BOOKING_WINDOW', days: 30 } },
          });
          expect(expectProblem(changed, 409, 'POLICY_RULE_CONFLICT').errors).toEqual([{ field: 'limit.kind', message: expect.any(String) }]);
        });
      });
      const left = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from policy_rules`);
      expect(left[0]!.n).toBe(0);
    });

    it('is for admins only', async () => {
      expectProblem(await t.request({ method: 'GET', url: '/api/admin/policies/rules', token: aliceToken }), 403);
      expectProblem(await t.request({ method: 'POST', url: '/api/admin/policies/areas', token: aliceToken, payload: {} }), 403);
    });
  });

  describe('each limit kind', () => {
    it('BOOKING_WINDOW per who: everyone 14 days, team managers 30; the refusal names the rule and its figures', async () => {
      const team = await insertTeam(db);
      await addMember(db, team.id, bob.id, 'MANAGER');
      const desk = await newDesk();
      await withRule({ ...everyone, name: 'Two weeks ahead', limit: { kind: 'BOOKING_WINDOW', days: 14 } }, async (everyoneRule) => {
        await withRule(
          { scope: { kind: 'EVERYWHERE' }, who: { kind: 'ROLE', role: 'TEAM_MANAGER' }, limit: { kind: 'BOOKING_WINDOW', days: 30 } },
          async () => {
            const problem = expectProblem(await book(aliceToken, desk, slot(20)), 403, 'POLICY_VIOLATION');
            expect(problem.rule).toEqual({ id: everyoneRule, kind: 'BOOKING_WINDOW', name: 'Two weeks ahead' });
            expect(problem.limit).toEqual({ name: 'BOOKING_WINDOW', max: 14, current: 21, requested: 1 });
            expect(problem.detail).toBe('You may book at most 14 days ahead');
            expect((await book(bobToken, desk, slot(20))).statusCode).toBe(200);
            expect((await book(aliceToken, desk, slot(6))).statusCode).toBe(200);
          },
        );
      });
    });

    it('MIN_DURATION and MAX_DURATION', async () => {
      const desk = await newDesk();
      await withRule({ ...everyone, limit: { kind: 'MIN_DURATION', minutes: 60 } }, async () => {
        await withRule({ ...everyone, limit: { kind: 'MAX_DURATION', minutes: 240 } }, async () => {
          expect(expectProblem(await book(aliceToken, desk, slot(1, 9, 0.5)), 403, 'POLICY_VIOLATION').rule).toMatchObject({ kind: 'MIN_DURATION' });
          expect(expectProblem(await book(aliceToken, desk, slot(1, 9, 5)), 403, 'POLICY_VIOLATION').rule).toMatchObject({ kind: 'MAX_DURATION' });
          expect((await book(aliceToken, desk, slot(1, 9, 4))).statusCode).toBe(200);
        });
      });
    });

    it('GRANULARITY: whole hours, and whole days', async () => {
      const desk = await newDesk();
      await withRule({ ...everyone, limit: { kind: 'GRANULARITY', unit: 'HOUR' } }, async () => {
        expectProblem(await book(aliceToken, desk, { startTime: at(2 * DAY + 30 * 60_000), endTime: at(2 * DAY + 2 * HOUR) }), 403, 'POLICY_VIOLATION');
        expect((await book(aliceToken, desk, slot(2, 9, 2))).statusCode).toBe(200);
      });
      await withRule({ ...everyone, limit: { kind: 'GRANULARITY', unit: 'DAY' } }, async () => {
        expectProblem(await book(aliceToken, desk, slot(3, 9, 2)), 403, 'POLICY_VIOLATION');
        expect((await book(aliceToken, desk, slot(3, 0, 24))).statusCode).toBe(200);
      });
    });

    it('WEEKDAYS_HOURS: Monday to Friday, 07:00 to 19:00 local', async () => {
      const desk = await newDesk();
      await withRule({ ...everyone, limit: { kind: 'WEEKDAYS_HOURS', weekdays: ['MO', 'TU', 'WE', 'TH', 'FR'], from: '07:00', to: '19:00' } }, async () => {
        expect(expectProblem(await book(aliceToken, desk, slot(5)), 403, 'POLICY_VIOLATION').detail).toContain('Mondays, Tuesdays');
        expect(expectProblem(await book(aliceToken, desk, slot(4, 6, 3)), 403, 'POLICY_VIOLATION').detail).toContain('between 07:00 and 19:00');
        expect(expectProblem(await book(aliceToken, desk, slot(4, 17, 3)), 403, 'POLICY_VIOLATION').detail).toContain('between 07:00 and 19:00');
        expect((await book(aliceToken, desk, slot(4, 7, 12))).statusCode).toBe(200);
      });
    });

    it('MAX_BOOKINGS per week: "You have booked 2 of your 2 bookings this week", with the window; the next week is free', async () => {
      await withRule({ ...everyone, name: 'Office days', limit: { kind: 'MAX_BOOKINGS', count: 2, per: 'WEEK' } }, async (rule) => {
        const desk = await newDesk();
        expect((await book(aliceToken, desk, slot(8))).statusCode).toBe(200);
        const second = await book(aliceToken, desk, slot(9));
        expect(second.statusCode, second.body).toBe(200);
        const problem = expectProblem(await book(aliceToken, desk, slot(10)), 409, 'POLICY_LIMIT_REACHED');
        expect(problem).toMatchObject({
          detail: 'You have booked 2 of your 2 bookings this week',
          rule: { id: rule, kind: 'MAX_BOOKINGS', name: 'Office days' },
          limit: { name: 'MAX_BOOKINGS', max: 2, current: 2, requested: 1 },
          used: 2,
          window: { from: '2030-03-11T00:00:00.000Z', to: '2030-03-18T00:00:00.000Z', period: 'WEEK' },
        });
        expect((await book(aliceToken, desk, slot(14))).statusCode).toBe(200);
        // Bob's bookings are his own.
        expect((await book(bobToken, desk, slot(11))).statusCode).toBe(200);
      });
    });

    it('MAX_HOURS per day, counted in the office’s zone', async () => {
      const tokyo = await insertDepartment(db, { location: 'Tokyo' });
      await db.execute(sql`insert into department_settings (department_id, time_zone) values (${tokyo.id}, 'Asia/Tokyo')`);
      const desk = await newDesk((await insertRoom(db, tokyo.id)).id);
      await withRule(
        { scope: { kind: 'DEPARTMENT', departmentId: tokyo.id }, who: { kind: 'EVERYONE' }, limit: { kind: 'MAX_HOURS', hours: 6, per: 'DAY' } },
        async () => {
          // 2030-03-05 00:00–04:00Z is 09:00–13:00 in Tokyo; 2030-03-04 20:00Z is 05:00 on the 5th there too.
          expect((await book(aliceToken, desk, { startTime: '2030-03-05T00:00:00Z', endTime: '2030-03-05T04:00:00Z' })).statusCode).toBe(200);
          const problem = expectProblem(
            await book(aliceToken, desk, { startTime: '2030-03-04T20:00:00Z', endTime: '2030-03-04T23:00:00Z' }),
            409,
            'POLICY_LIMIT_REACHED',
          );
          expect(problem.window).toEqual({ from: '2030-03-04T15:00:00.000Z', to: '2030-03-05T15:00:00.000Z', period: 'DAY' });
          expect(problem.detail).toBe('You have booked 4 of your 6 hours this day and asked for 3 more');
          expect((await book(aliceToken, desk, { startTime: '2030-03-04T21:00:00Z', endTime: '2030-03-04T23:00:00Z' })).statusCode).toBe(200);
        },
      );
    });

    it('MAX_CONCURRENT: bookings not ended held at once', async () => {
      const desk = await newDesk();
      await withRule({ ...everyone, limit: { kind: 'MAX_CONCURRENT', count: 1 } }, async () => {
        expect((await book(carolToken, desk, slot(15))).statusCode).toBe(200);
        expect(expectProblem(await book(carolToken, desk, slot(16)), 409, 'POLICY_LIMIT_REACHED').limit).toEqual({
          name: 'MAX_CONCURRENT',
          max: 1,
          current: 1,
          requested: 1,
        });
      });
    });

    it('CAPACITY: at most 50 % of a room’s desks per day, whoever books them', async () => {
      const room = (await insertRoom(db, departmentId)).id;
      const desks = [await newDesk(room), await newDesk(room), await newDesk(room), await newDesk(room)];
      await withRule({ scope: { kind: 'ROOM', roomId: room }, who: { kind: 'EVERYONE' }, limit: { kind: 'CAPACITY', percent: 50 } }, async () => {
        expect((await book(aliceToken, desks[0]!, slot(22, 9, 2))).statusCode).toBe(200);
        expect((await book(bobToken, desks[1]!, slot(22, 14, 2))).statusCode).toBe(200);
        const problem = expectProblem(await book(bobToken, desks[2]!, slot(22, 9, 2)), 409, 'POLICY_LIMIT_REACHED');
        expect(problem.limit).toEqual({ name: 'CAPACITY', max: 2, current: 2, requested: 1 });
        // A desk already booked that day does not count twice.
        expect((await book(bobToken, desks[0]!, slot(22, 12, 1))).statusCode).toBe(200);
        expect((await book(bobToken, desks[2]!, slot(23, 9, 2))).statusCode).toBe(200);
      });
    });

    it('CANCEL_LEAD: a USER may not cancel within the lead time; an admin may', async () => {
      const desk = await newDesk();
      const soon = (await book(aliceToken, desk, { startTime: at(2 * HOUR), endTime: at(4 * HOUR) })).json<{ id: string }>().id;
      const later = (await book(aliceToken, desk, { startTime: at(2 * DAY), endTime: at(2 * DAY + HOUR) })).json<{ id: string }>().id;
      await withRule({ ...everyone, limit: { kind: 'CANCEL_LEAD', minutes: 24 * 60 } }, async () => {
        const problem = expectProblem(await t.request({ method: 'DELETE', url: `/api/reservation/${soon}`, token: aliceToken }), 403, 'POLICY_VIOLATION');
        expect(problem.rule).toMatchObject({ kind: 'CANCEL_LEAD' });
        expect((await t.request({ method: 'DELETE', url: `/api/reservation/${later}`, token: aliceToken })).statusCode).toBe(204);
        expect((await t.request({ method: 'DELETE', url: `/api/reservation/${soon}`, token: admin })).statusCode).toBe(204);
      });
    });

    it('CANCEL_LEAD holds for a series too: a USER cancelling it keeps the occurrences within the lead time, listed; an admin cancels them all', async () => {
      // docs/policies.md#cancelling-a-series
      const desk = await newDesk();
      const payload = { deskId: desk, startTime: at(11 * HOUR), endTime: at(12 * HOUR), timeZone: 'UTC', rule: { frequency: 'DAILY', count: 4 } };
      const create = async () => {
        const created = await t.request({ method: 'POST', url: '/api/reservation/series', token: carolToken, payload });
        expect(created.statusCode, created.body).toBe(200);
        return created.json<{ id: string; occurrences: { reservationId: string; startTime: string }[] }>();
      };
      const series = await create();
      expect(series.occurrences).toHaveLength(4);
      await withRule({ ...everyone, limit: { kind: 'CANCEL_LEAD', minutes: 36 * 60 } }, async (rule) => {
        const cancelled = await t.request({ method: 'DELETE', url: `/api/reservation/series/${series.id}`, token: carolToken });
        expect(cancelled.statusCode, cancelled.body).toBe(200);
        const body = cancelled.json<{
          occurrences: { reservationId: string }[];
          kept: { reservationId: string; startTime: string; rule: { id: string; kind: string }; message: string }[];
        }>();
        // Today's (in 11 h) and tomorrow's (in 35 h) start within 36 h: they stay; the other two go.
        expect(body.kept.map((kept) => kept.reservationId)).toEqual(series.occurrences.slice(0, 2).map((o) => o.reservationId));
        expect(body.kept[0]).toMatchObject({
          startTime: at(11 * HOUR),
          rule: { id: rule, kind: 'CANCEL_LEAD' },
          message: 'A booking here may be cancelled up to 2160 minutes before it starts',
        });
        expect(body.occurrences.map((o) => o.reservationId)).toEqual(series.occurrences.slice(0, 2).map((o) => o.reservationId));
        const left = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from reservations where series_id = ${series.id}`);
        expect(left[0]!.n).toBe(2);

        // An admin is not held to it.
        const byAdmin = await t.request({ method: 'DELETE', url: `/api/reservation/series/${series.id}`, token: admin });
        expect(byAdmin.statusCode, byAdmin.body).toBe(200);
        expect(byAdmin.json<{ occurrences: unknown[]; kept: unknown[] }>()).toMatchObject({ occurrences: [], kept: [] });
      });
      // Without the rule everything goes, and `kept` is empty.
      const again = await create();
      const free = await t.request({ method: 'DELETE', url: `/api/reservation/series/${again.id}`, token: carolToken });
      expect(free.json<{ occurrences: unknown[]; kept: unknown[] }>()).toMatchObject({ occurrences: [], kept: [] });
    });
  });

  describe('areas', () => {
    it('an exclusive area is its teams’ on its weekdays: others are refused there then, its members are not', async () => {
      const sales = await insertTeam(db, 'Sales');
      await addMember(db, sales.id, alice.id);
      const room = (await insertRoom(db, departmentId)).id;
      const desk = await newDesk(room);
      const created = await t.request({
        method: 'POST',
        url: '/api/admin/policies/areas',
        token: admin,
        payload: { name: 'Sales floor', kind: 'ROOM', roomId: room, teamIds: [sales.id], weekdays: ['TU', 'TH'] },
      });
      expect(created.statusCode, created.body).toBe(200);
      const area = created.json<{ id: string; weekdays: string[] }>();
      expect(area.weekdays).toEqual(['TU', 'TH']);
      const problem = expectProblem(await book(bobToken, desk, slot(29)), 403, 'POLICY_VIOLATION');
      expect(problem.rule).toEqual({ id: area.id, kind: 'AREA_RESERVED', name: 'Sales floor' });
      expect(problem.detail).toBe('Sales floor is reserved for Sales on Tuesdays, Thursdays (2030-04-02)');
      expect((await book(bobToken, desk, slot(30))).statusCode).toBe(200);
      expect((await book(aliceToken, desk, slot(29))).statusCode).toBe(200);
      // Admins book there (for themselves) all the same.
      expect((await book(admin, desk, slot(31))).statusCode).toBe(200);
      // The allowance names the area closed to Bob.
      const allowance = (await t.request({ method: 'GET', url: '/api/self/allowance?week=2030-W14', token: bobToken })).json<{
        closedAreas: { id: string; teams: string[] }[];
      }>();
      expect(allowance.closedAreas).toContainEqual(expect.objectContaining({ id: area.id, teams: ['Sales'], weekdays: ['TU', 'TH'] }));
      const aliceAllowance = (await t.request({ method: 'GET', url: '/api/self/allowance?week=2030-W14', token: aliceToken })).json<{
        closedAreas: { id: string }[];
      }>();
      expect(aliceAllowance.closedAreas.map((a) => a.id)).not.toContain(area.id);
      await t.request({ method: 'DELETE', url: `/api/admin/policies/areas/${area.id}`, token: admin });
    });

    it('OWN_AREAS_ONLY: a team may book only in its areas', async () => {
      const support = await insertTeam(db, 'Support');
      await addMember(db, support.id, bob.id);
      const ownDesk = await newDesk();
      const otherDesk = await newDesk();
      const area = (
        await t.request({
          method: 'POST',
          url: '/api/admin/policies/areas',
          token: admin,
          payload: { name: 'Support corner', kind: 'DESKS', deskIds: [ownDesk], teamIds: [support.id], exclusive: false },
        })
      ).json<{ id: string }>();
      await withRule({ scope: { kind: 'EVERYWHERE' }, who: { kind: 'TEAM', teamId: support.id }, limit: { kind: 'OWN_AREAS_ONLY' } }, async () => {
        expect(expectProblem(await book(bobToken, otherDesk, slot(9)), 403, 'POLICY_VIOLATION').rule).toMatchObject({ kind: 'OWN_AREAS_ONLY' });
        expect((await book(bobToken, ownDesk, slot(9))).statusCode).toBe(200);
        // Not exclusive: Alice may book there.
        expect((await book(aliceToken, ownDesk, slot(10))).statusCode).toBe(200);
      });
      await t.request({ method: 'DELETE', url: `/api/admin/policies/areas/${area.id}`, token: admin });
    });
  });

  describe('precedence, admins, moves', () => {
    it('the most specific rule wins: a room’s 3 a week over everywhere’s 1', async () => {
      const room = (await insertRoom(db, departmentId)).id;
      const roomDesk = await newDesk(room);
      const elsewhere = await newDesk();
      await withRule({ ...everyone, limit: { kind: 'MAX_BOOKINGS', count: 1, per: 'WEEK' } }, async () => {
        await withRule(
          { scope: { kind: 'ROOM', roomId: room }, who: { kind: 'EVERYONE' }, limit: { kind: 'MAX_BOOKINGS', count: 3, per: 'WEEK' } },
          async (roomRule) => {
            for (const d of [71, 72, 73]) expect((await book(aliceToken, roomDesk, slot(d))).statusCode).toBe(200);
            expect(expectProblem(await book(aliceToken, roomDesk, slot(74)), 409, 'POLICY_LIMIT_REACHED').rule).toMatchObject({ id: roomRule });
            // Elsewhere the everywhere rule holds, counting every booking of the week.
            expect(expectProblem(await book(aliceToken, elsewhere, slot(74)), 409, 'POLICY_LIMIT_REACHED').limit).toMatchObject({ max: 1, current: 3 });
          },
        );
      });
    });

    it('admins pass unless the rule applies to admins; admins booking for a person are held to the person’s rules', async () => {
      const desk = await newDesk();
      await withRule({ ...everyone, limit: { kind: 'BOOKING_WINDOW', days: 7 } }, async () => {
        expect((await book(admin, desk, slot(36))).statusCode).toBe(200);
        expectProblem(await book(admin, desk, slot(37), { userId: alice.id }), 403, 'POLICY_VIOLATION');
      });
      await withRule({ ...everyone, appliesToAdmins: true, limit: { kind: 'BOOKING_WINDOW', days: 7 } }, async () => {
        expectProblem(await book(admin, desk, slot(38)), 403, 'POLICY_VIOLATION');
      });
    });

    it('a move is judged without the reservation it moves', async () => {
      const desk = await newDesk();
      await withRule({ ...everyone, limit: { kind: 'MAX_BOOKINGS', count: 1, per: 'WEEK' } }, async () => {
        const id = (await book(bobToken, desk, slot(43))).json<{ id: string }>().id;
        const moved = await t.request({ method: 'PUT', url: `/api/reservation/${id}`, token: bobToken, payload: slot(44) });
        expect(moved.statusCode, moved.body).toBe(200);
        expectProblem(await book(bobToken, desk, slot(45)), 409, 'POLICY_LIMIT_REACHED');
      });
    });
  });

  describe('series, preview, allowance', () => {
    it('a series skips the occurrences a rule refuses, listed with the reason, like conflicts', async () => {
      const desk = await newDesk();
      await withRule({ ...everyone, limit: { kind: 'MAX_BOOKINGS', count: 2, per: 'WEEK' } }, async (rule) => {
        const first = slot(49); // a Monday
        const payload = { deskId: desk, ...first, timeZone: 'UTC', rule: { frequency: 'DAILY', count: 5 } };
        const refused = expectProblem(await t.request({ method: 'POST', url: '/api/reservation/series', token: aliceToken, payload }), 409, 'SERIES_CONFLICT');
        expect((refused.occurrences as unknown[]).length).toBe(3);
        const created = await t.request({ method: 'POST', url: '/api/reservation/series', token: aliceToken, payload: { ...payload, skipConflicts: true } });
        expect(created.statusCode, created.body).toBe(200);
        const body = created.json<{ occurrences: unknown[]; skipped: { date: string; reason: string; rule: { id: string }; message: string }[] }>();
        expect(body.occurrences).toHaveLength(2);
        expect(body.skipped.map((s) => [s.date, s.reason, s.rule.id])).toEqual([
          ['2030-04-24', 'POLICY', rule],
          ['2030-04-25', 'POLICY', rule],
          ['2030-04-26', 'POLICY', rule],
        ]);
        expect(body.skipped[0]!.message).toBe('You have booked 2 of your 2 bookings this week');
      });
    });

    it('the preview says what the rules would, writing nothing', async () => {
      const desk = await newDesk();
      await withRule({ ...everyone, limit: { kind: 'MAX_BOOKINGS', count: 1, per: 'DAY' } }, async (rule) => {
        await insertReservation(db, { userId: bob.id, deskId: desk, startTime: new Date(slot(57).startTime), endTime: new Date(slot(57).endTime) });
        const preview = await t.request({
          method: 'POST',
          url: '/api/admin/policies/preview',
          token: admin,
          payload: { userId: bob.id, deskId: await newDesk(), ...slot(57, 18, 1) },
        });
        expect(preview.statusCode, preview.body).toBe(200);
        expect(preview.json()).toMatchObject({
          allowed: false,
          refusal: { code: 'POLICY_LIMIT_REACHED', rule: { id: rule } },
          rules: [{ id: rule, kind: 'MAX_BOOKINGS' }],
        });
        const free = await t.request({
          method: 'POST',
          url: '/api/admin/policies/preview',
          token: admin,
          payload: { userId: bob.id, deskId: desk, ...slot(58) },
        });
        expect(free.json()).toMatchObject({ allowed: true, refusal: null });
        const [row] = await queryRows<{ n: number }>(
          db,
          sql`select count(*)::int as n from reservations where user_id = ${bob.id} and start_time >= ${slot(57).startTime}::timestamptz`,
        );
        expect(row!.n).toBe(1);
      });
    });

    it('the allowance answers what is left of each counted limit in the week asked, and refuses a week that does not exist', async () => {
      const desk = await newDesk();
      await withRule({ ...everyone, name: 'Office days', limit: { kind: 'MAX_BOOKINGS', count: 3, per: 'WEEK' } }, async (rule) => {
        await book(aliceToken, desk, slot(63));
        const response = await t.request({ method: 'GET', url: '/api/self/allowance?week=2030-W19', token: aliceToken });
        expect(response.statusCode, response.body).toBe(200);
        expect(response.json()).toMatchObject({
          week: '2030-W19',
          from: '2030-05-06T00:00:00.000Z',
          to: '2030-05-13T00:00:00.000Z',
          limits: [{ rule: { id: rule, kind: 'MAX_BOOKINGS', name: 'Office days' }, limit: 3, used: 1, remaining: 2, window: { period: 'WEEK' } }],
        });
        expectProblem(await t.request({ method: 'GET', url: '/api/self/allowance?week=2030-W60', token: aliceToken }), 400);
        expectProblem(await t.request({ method: 'GET', url: '/api/self/allowance?week=next', token: aliceToken }), 400);
      });
    });
  });

  it('a walk-in is held to the rules too', async () => {
    const desk = await newDesk();
    await withRule({ ...everyone, limit: { kind: 'MAX_CONCURRENT', count: 1 } }, async () => {
      await insertReservation(db, { userId: dave.id, deskId: await newDesk(), startTime: new Date(at(100 * DAY)), endTime: new Date(at(100 * DAY + HOUR)) });
      const walkIn = await t.request({ method: 'POST', url: `/api/desks/${desk}/walk-in`, token: daveToken });
      expectProblem(walkIn, 409, 'POLICY_LIMIT_REACHED');
    });
  });
});
