import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows, type Database } from '../../../src/db/client.js';
import { createTestApp, expectProblem, TestClock, UUID, type TestApp, type UserBody } from '../../helpers/app.js';
import { insertDesk, insertDeskInNewRoom, insertReservation } from '../../helpers/fixtures.js';
import { reservations } from '../../../src/db/schema.js';

/**
 * Recurring reservations (docs/behaviour.md#recurring-reservations): occurrences on the wall clock
 * of an IANA zone across daylight saving (exact UTC instants), weekly rules with several weekdays
 * and an interval, until vs count, the all-or-nothing 409 listing every collision, skipConflicts,
 * the USER booking rules per occurrence, reading, listing, cancelling from an occurrence on, and
 * two series racing for one desk.
 */

const PASSWORD = 'series-password-1';
// A Monday morning; the clock stays there unless a test moves it (and puts it back).
const NOW = new Date('2030-03-04T08:00:00.000Z');

interface OccurrenceBody {
  reservationId: string;
  date: string;
  startTime: string;
  endTime: string;
}
interface SeriesBody {
  id: string;
  userId: string;
  deskId: string;
  roomId: string;
  departmentId: string;
  type: string;
  timeZone: string;
  rule: { frequency: string; interval: number; weekdays: string[]; until: string | null; count: number | null };
  startTime: string;
  endTime: string;
  createdAt: string;
  occurrences: OccurrenceBody[];
  skipped?: { date: string; startTime: string; endTime: string; reason: string }[];
}

async function overlappingPairs(db: Database): Promise<number> {
  const [row] = await queryRows<{ pairs: number }>(
    db,
    sql`select count(*)::int as pairs from reservations a join reservations b on a.id < b.id
        and tstzrange(a.start_time, a.end_time, '[)') && tstzrange(b.start_time, b.end_time, '[)')
        and (a.desk_id = b.desk_id or (a.user_id = b.user_id and a.user_exclusive and b.user_exclusive))`,
  );
  return row!.pairs;
}

/** The operations that write a person's reservations: each is marked `config: { writesReservations: true }` (plugins/write-rate.ts). */
const RESERVATION_WRITE_ROUTES = [
  'POST /api/reservation',
  'PUT /api/reservation/:id',
  'DELETE /api/reservation/:id',
  'POST /api/reservation/series',
  'DELETE /api/reservation/series/:id',
  'POST /api/reservation/:id/check-in',
  'POST /api/desks/:deskId/walk-in',
];

const ranges = (series: SeriesBody) => series.occurrences.map((o) => [o.date, o.startTime, o.endTime]);

describe('recurring reservations', () => {
  let t: TestApp;
  let db: Database;
  let admin: string;
  let bob: UserBody;
  let bobToken: string;
  let place: Awaited<ReturnType<typeof insertDeskInNewRoom>>;
  let deskCounter = 0;

  let people = 0;
  /** A fresh USER per test: one user never holds two overlapping reservations, and the tests book the same days. */
  async function person(): Promise<{ me: UserBody; token: string }> {
    const me = await t.createUser({ email: `person${++people}@example.test`, firstName: 'Person', lastName: String(people), password: PASSWORD });
    return { me, token: (await t.login(me.email, PASSWORD)).accessToken };
  }
  const freshDesk = (type: 'FLEX' | 'FIXED' = 'FLEX') => insertDesk(db, place.room.id, { name: `Desk ${++deskCounter}`, type });
  const create = (token: string, payload: Record<string, unknown>) => t.request({ method: 'POST', url: '/api/reservation/series', token, payload });
  async function created(token: string, payload: Record<string, unknown>): Promise<SeriesBody> {
    const response = await create(token, payload);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<SeriesBody>();
  }
  const deskReservations = async (deskId: string) =>
    (await queryRows<{ n: number }>(db, sql`select count(*)::int as n from reservations where desk_id = ${deskId}`))[0]!.n;

  beforeAll(async () => {
    t = await createTestApp({ clock: new TestClock(NOW) });
    db = t.database.handle.db;
    admin = await t.adminToken();
    bob = await t.createUser({ email: 'bob@example.test', firstName: 'Bob', password: PASSWORD });
    bobToken = (await t.login(bob.email, PASSWORD)).accessToken;
    place = await insertDeskInNewRoom(db);
  });
  afterAll(async () => {
    if (t) {
      expect(await overlappingPairs(db)).toBe(0);
      await t.close();
    }
  });

  describe('occurrences on the wall clock of the zone', () => {
    it('Europe/Berlin into summer time: 09:00–17:00 every Monday is 08:00Z, then 07:00Z', async () => {
      const { me, token } = await person();
      const desk = await freshDesk();
      const series = await created(token, {
        deskId: desk.id,
        startTime: '2030-03-25T09:00:00+01:00',
        endTime: '2030-03-25T17:00:00+01:00',
        timeZone: 'Europe/Berlin',
        rule: { frequency: 'WEEKLY', weekdays: ['MO'], count: 2 },
      });
      expect(ranges(series)).toEqual([
        ['2030-03-25', '2030-03-25T08:00:00.000Z', '2030-03-25T16:00:00.000Z'],
        ['2030-04-01', '2030-04-01T07:00:00.000Z', '2030-04-01T15:00:00.000Z'],
      ]);
      expect(series).toMatchObject({
        id: expect.stringMatching(UUID),
        userId: me.id,
        deskId: desk.id,
        roomId: place.room.id,
        departmentId: place.department.id,
        type: 'shared',
        timeZone: 'Europe/Berlin',
        rule: { frequency: 'WEEKLY', interval: 1, weekdays: ['MO'], until: null, count: 2 },
        startTime: '2030-03-25T08:00:00.000Z',
        endTime: '2030-03-25T16:00:00.000Z',
        skipped: [],
      });
      // Each occurrence is an ordinary reservation.
      const one = await t.request({ method: 'GET', url: `/api/reservation/${series.occurrences[1]!.reservationId}`, token });
      expect(one.statusCode).toBe(200);
      expect(one.json()).toMatchObject({ deskId: desk.id, userId: me.id, startTime: '2030-04-01T07:00:00.000Z', endTime: '2030-04-01T15:00:00.000Z' });
    });

    it('Europe/Berlin back to winter time (daily, admin beyond the horizon): 07:00Z, then 08:00Z from 27 October', async () => {
      const { me } = await person();
      const desk = await freshDesk();
      const series = await created(admin, {
        userId: me.id,
        deskId: desk.id,
        startTime: '2030-10-25T09:00:00+02:00',
        endTime: '2030-10-25T17:00:00+02:00',
        timeZone: 'Europe/Berlin',
        rule: { frequency: 'DAILY', until: '2030-10-28' },
      });
      expect(ranges(series)).toEqual([
        ['2030-10-25', '2030-10-25T07:00:00.000Z', '2030-10-25T15:00:00.000Z'],
        ['2030-10-26', '2030-10-26T07:00:00.000Z', '2030-10-26T15:00:00.000Z'],
        ['2030-10-27', '2030-10-27T08:00:00.000Z', '2030-10-27T16:00:00.000Z'],
        ['2030-10-28', '2030-10-28T08:00:00.000Z', '2030-10-28T16:00:00.000Z'],
      ]);
    });

    it('America/New_York both ways: 09:00 local is 14:00Z, 13:00Z after 10 March, 14:00Z again after 3 November', async () => {
      const { me, token } = await person();
      const desk = await freshDesk();
      const spring = await created(token, {
        deskId: desk.id,
        startTime: '2030-03-09T09:00:00-05:00',
        endTime: '2030-03-09T10:30:00-05:00',
        timeZone: 'America/New_York',
        rule: { frequency: 'DAILY', count: 3 },
      });
      expect(ranges(spring)).toEqual([
        ['2030-03-09', '2030-03-09T14:00:00.000Z', '2030-03-09T15:30:00.000Z'],
        ['2030-03-10', '2030-03-10T13:00:00.000Z', '2030-03-10T14:30:00.000Z'],
        ['2030-03-11', '2030-03-11T13:00:00.000Z', '2030-03-11T14:30:00.000Z'],
      ]);
      const autumn = await created(admin, {
        userId: me.id,
        deskId: desk.id,
        startTime: '2030-11-02T13:00:00Z',
        endTime: '2030-11-02T14:00:00Z',
        timeZone: 'America/New_York',
        rule: { frequency: 'DAILY', count: 3 },
      });
      expect(ranges(autumn)).toEqual([
        ['2030-11-02', '2030-11-02T13:00:00.000Z', '2030-11-02T14:00:00.000Z'],
        ['2030-11-03', '2030-11-03T14:00:00.000Z', '2030-11-03T15:00:00.000Z'],
        ['2030-11-04', '2030-11-04T14:00:00.000Z', '2030-11-04T15:00:00.000Z'],
      ]);
    });

    it('a local time skipped in spring moves forward by the gap (02:30 on 31 March in Berlin is 03:30 summer time)', async () => {
      const { token } = await person();
      const desk = await freshDesk();
      const series = await created(token, {
        deskId: desk.id,
        startTime: '2030-03-30T02:30:00+01:00',
        endTime: '2030-03-30T04:00:00+01:00',
        timeZone: 'Europe/Berlin',
        rule: { frequency: 'DAILY', count: 2 },
      });
      expect(ranges(series)).toEqual([
        ['2030-03-30', '2030-03-30T01:30:00.000Z', '2030-03-30T03:00:00.000Z'],
        ['2030-03-31', '2030-03-31T01:30:00.000Z', '2030-03-31T02:00:00.000Z'],
      ]);
    });

    it('a local time repeated in autumn is its earlier instant (01:30 on 3 November in New York is 05:30Z, still daylight time)', async () => {
      const { me } = await person();
      const desk = await freshDesk();
      const series = await created(admin, {
        userId: me.id,
        deskId: desk.id,
        startTime: '2030-11-02T01:30:00-04:00',
        endTime: '2030-11-02T01:45:00-04:00',
        timeZone: 'America/New_York',
        rule: { frequency: 'DAILY', count: 3 },
      });
      expect(ranges(series)).toEqual([
        ['2030-11-02', '2030-11-02T05:30:00.000Z', '2030-11-02T05:45:00.000Z'],
        ['2030-11-03', '2030-11-03T05:30:00.000Z', '2030-11-03T05:45:00.000Z'],
        ['2030-11-04', '2030-11-04T06:30:00.000Z', '2030-11-04T06:45:00.000Z'],
      ]);
    });

    it('refuses a zone that is not an IANA name, or unknown', async () => {
      const { token } = await person();
      const desk = await freshDesk();
      for (const timeZone of ['+01:00', 'Mars/Olympus', 'Europe/../etc']) {
        const response = await create(token, {
          deskId: desk.id,
          startTime: '2030-03-05T09:00:00Z',
          endTime: '2030-03-05T10:00:00Z',
          timeZone,
          rule: { frequency: 'DAILY', count: 2 },
        });
        expect(expectProblem(response, 400, 'VALIDATION_FAILED').errors?.[0]?.field, timeZone).toBe('timeZone');
      }
    });
  });

  describe('rules', () => {
    const weekly = (deskId: string, rule: Record<string, unknown>) => ({
      deskId,
      startTime: '2030-03-05T10:00:00Z',
      endTime: '2030-03-05T12:00:00Z',
      timeZone: 'UTC',
      rule: { frequency: 'WEEKLY', weekdays: ['FR', 'MO', 'WE'], interval: 2, ...rule },
    });

    it('weekly on several weekdays every second week, by count: from the first date on, weeks counted from its week', async () => {
      const { token } = await person();
      const desk = await freshDesk();
      const series = await created(token, weekly(desk.id, { count: 5 }));
      expect(series.occurrences.map((o) => o.date)).toEqual(['2030-03-06', '2030-03-08', '2030-03-18', '2030-03-20', '2030-03-22']);
      expect(series.occurrences[0]!.startTime).toBe('2030-03-06T10:00:00.000Z');
      expect(series.rule).toEqual({ frequency: 'WEEKLY', interval: 2, weekdays: ['MO', 'WE', 'FR'], until: null, count: 5 });
    });

    it('until is an inclusive local date; count and until are exclusive', async () => {
      const { token } = await person();
      const desk = await freshDesk();
      const series = await created(token, weekly(desk.id, { until: '2030-03-20' }));
      expect(series.occurrences.map((o) => o.date)).toEqual(['2030-03-06', '2030-03-08', '2030-03-18', '2030-03-20']);
      expect(series.rule).toMatchObject({ until: '2030-03-20', count: null });
      // A rule without an end, or with two, names the field (docs/behaviour.md#recurring-reservations).
      for (const rule of [{ until: '2030-03-20', count: 2 }, {}]) {
        const problem = expectProblem(await create(token, weekly(desk.id, rule)), 400, 'VALIDATION_FAILED');
        expect(problem.errors?.map((error) => error.field)).toContain('rule');
      }
      const fieldOf = async (rule: Record<string, unknown>) =>
        expectProblem(await create(token, weekly(desk.id, rule)), 400, 'VALIDATION_FAILED').errors?.map((error) => error.field);
      expect(await fieldOf({ until: '2030-03-01' })).toEqual(['until']);
      expect(await fieldOf({ until: '2030-02-30' })).toEqual(['rule.until']);
    });

    it('at most 260 occurrences, by count or by until; the weekdays belong to WEEKLY rules only', async () => {
      const { me } = await person();
      const desk = await freshDesk();
      const daily = (rule: Record<string, unknown>) => ({
        userId: me.id,
        deskId: desk.id,
        startTime: '2030-03-05T10:00:00Z',
        endTime: '2030-03-05T11:00:00Z',
        timeZone: 'UTC',
        rule: { frequency: 'DAILY', ...rule },
      });
      expectProblem(await create(admin, daily({ count: 261 })), 400, 'VALIDATION_FAILED');
      const byUntil = expectProblem(await create(admin, daily({ until: '2031-12-31' })), 400, 'VALIDATION_FAILED');
      expect(byUntil.errors).toEqual([{ field: 'until', message: 'a series has at most 260 occurrences' }]);
      expectProblem(await create(admin, daily({ count: 2, weekdays: ['MO'] })), 400, 'VALIDATION_FAILED');
      expectProblem(await create(admin, daily({ count: 2, interval: 0 })), 400, 'VALIDATION_FAILED');
      expect(await deskReservations(desk.id)).toBe(0);
      const most = await created(admin, daily({ count: 260 }));
      expect(most.occurrences).toHaveLength(260);
    });

    it('binds a USER per occurrence: horizon, length, past; FIXED desks; booking for others', async () => {
      const { token } = await person();
      const desk = await freshDesk();
      const base = { deskId: desk.id, startTime: '2030-03-05T09:00:00Z', endTime: '2030-03-05T17:00:00Z', timeZone: 'UTC' };
      // 90 days ahead ends on 2 June: the 14th Tuesday lies beyond it.
      const far = expectProblem(await create(token, { ...base, rule: { frequency: 'WEEKLY', count: 14 } }), 400, 'RESERVATION_NOT_ALLOWED');
      expect(far.errors).toEqual([{ field: 'startTime', message: 'lies more than 90 days ahead (the occurrence on 2030-06-04)' }]);
      expect(far.rule).toEqual({ name: 'TOO_FAR_AHEAD', seconds: 90 * 86_400, date: '2030-06-04' });
      expect((await created(token, { ...base, rule: { frequency: 'WEEKLY', count: 13 } })).occurrences).toHaveLength(13);
      const long = { ...base, deskId: (await freshDesk()).id, endTime: '2030-03-06T10:00:00Z', rule: { frequency: 'WEEKLY', count: 2 } };
      expectProblem(await create(token, long), 400, 'RESERVATION_NOT_ALLOWED');
      const past = {
        ...base,
        deskId: (await freshDesk()).id,
        startTime: '2030-03-01T09:00:00Z',
        endTime: '2030-03-01T17:00:00Z',
        rule: { frequency: 'DAILY', count: 7 },
      };
      expectProblem(await create(token, past), 400, 'RESERVATION_NOT_ALLOWED');
      // The admin is exempt from all three.
      for (const payload of [long, past]) await created(admin, { ...payload, userId: (await person()).me.id, deskId: (await freshDesk()).id });
      const fixed = await freshDesk('FIXED');
      expectProblem(await create(token, { ...base, deskId: fixed.id, rule: { frequency: 'DAILY', count: 2 } }), 409, 'DESK_NOT_BOOKABLE');
      expectProblem(await create(token, { ...base, deskId: (await freshDesk()).id, userId: bob.id, rule: { frequency: 'DAILY', count: 2 } }), 403, 'FORBIDDEN');
      expectProblem(await create(token, { ...base, deskId: (await freshDesk()).id, type: 'fixed', rule: { frequency: 'DAILY', count: 2 } }), 403, 'FORBIDDEN');
      expectProblem(await create(token, { ...base, deskId: '00000000-0000-4000-8000-000000000000', rule: { frequency: 'DAILY', count: 2 } }), 400);
      const holder = await person();
      const fixedSeries = await created(admin, { ...base, deskId: fixed.id, userId: holder.me.id, type: 'fixed', rule: { frequency: 'DAILY', count: 2 } });
      expect(fixedSeries.type).toBe('fixed');
      expectProblem(await t.request({ method: 'DELETE', url: `/api/reservation/series/${fixedSeries.id}`, token: holder.token }), 403, 'FORBIDDEN');
    });
  });

  describe('conflicts', () => {
    const tuesdays = (deskId: string, extra: Record<string, unknown> = {}) => ({
      deskId,
      startTime: '2030-03-05T09:00:00+01:00',
      endTime: '2030-03-05T17:00:00+01:00',
      timeZone: 'Europe/Berlin',
      rule: { frequency: 'WEEKLY', count: 5 },
      ...extra,
    });

    it('all or nothing: 409 SERIES_CONFLICT lists every colliding occurrence with its reason, and nothing is booked', async () => {
      const { me, token } = await person();
      const desk = await freshDesk();
      await insertReservation(db, { userId: bob.id, deskId: desk.id, startTime: new Date('2030-03-12T10:00:00Z'), endTime: new Date('2030-03-12T11:00:00Z') });
      await insertReservation(db, { userId: bob.id, deskId: desk.id, startTime: new Date('2030-03-26T07:00:00Z'), endTime: new Date('2030-03-26T08:00:00Z') });
      // Alice herself sits at another desk on the 19th.
      await insertReservation(db, {
        userId: me.id,
        deskId: (await freshDesk()).id,
        startTime: new Date('2030-03-19T15:00:00Z'),
        endTime: new Date('2030-03-19T18:00:00Z'),
      });
      const response = await create(token, tuesdays(desk.id));
      const problem = expectProblem(response, 409, 'SERIES_CONFLICT');
      expect(problem.occurrences).toEqual([
        { date: '2030-03-12', startTime: '2030-03-12T08:00:00.000Z', endTime: '2030-03-12T16:00:00.000Z', reason: 'DESK_RESERVED' },
        { date: '2030-03-19', startTime: '2030-03-19T08:00:00.000Z', endTime: '2030-03-19T16:00:00.000Z', reason: 'USER_OVERLAP' },
      ]);
      expect(JSON.stringify(problem)).not.toContain(bob.id);
      expect(await deskReservations(desk.id)).toBe(2);
      // Back-to-back is fine: the reservation ending at 08:00Z on the 26th does not collide (half-open).

      const preview = await t.request({ method: 'POST', url: '/api/reservation/series/preview', token, payload: tuesdays(desk.id) });
      expect(preview.statusCode, preview.body).toBe(200);
      expect(preview.json<{ occurrences: { date: string; conflict: string | null }[] }>().occurrences.map((o) => [o.date, o.conflict])).toEqual([
        ['2030-03-05', null],
        ['2030-03-12', 'DESK_RESERVED'],
        ['2030-03-19', 'USER_OVERLAP'],
        ['2030-03-26', null],
        ['2030-04-02', null],
      ]);
      expect(await deskReservations(desk.id)).toBe(2);

      const skipping = await created(token, tuesdays(desk.id, { skipConflicts: true }));
      expect(skipping.occurrences.map((o) => o.date)).toEqual(['2030-03-05', '2030-03-26', '2030-04-02']);
      expect(skipping.skipped).toEqual(problem.occurrences);
      expect(await deskReservations(desk.id)).toBe(5);
      // Nothing free at all: 409 even with skipConflicts.
      expectProblem(await create(bobToken, tuesdays(desk.id, { skipConflicts: true, rule: { frequency: 'WEEKLY', count: 1 } })), 409, 'SERIES_CONFLICT');
    });

    it('two series racing for one desk: one wins, the other answers 409 listing the collisions, never an overlap', async () => {
      for (let round = 0; round < 4; round++) {
        const desk = await freshDesk();
        const [one, two] = await Promise.all([person(), person()]);
        const [first, second] = await Promise.all([
          create(one.token, tuesdays(desk.id, { rule: { frequency: 'DAILY', count: 10 } })),
          create(
            two.token,
            tuesdays(desk.id, { startTime: '2030-03-08T12:00:00+01:00', endTime: '2030-03-08T20:00:00+01:00', rule: { frequency: 'DAILY', count: 10 } }),
          ),
        ]);
        const statuses = [first.statusCode, second.statusCode].sort();
        expect(statuses, `${first.body} ${second.body}`).toEqual([200, 409]);
        const loser = first.statusCode === 409 ? first : second;
        expect(expectProblem(loser, 409).code).toMatch(/^(SERIES_CONFLICT|RESERVATION_CONFLICT)$/);
        expect(await deskReservations(desk.id)).toBe(10);
      }
      expect(await overlappingPairs(db)).toBe(0);
    });
  });

  it('counts booking and previewing a series among the costly operations (429 documented, per-user limit)', async () => {
    const document = (await t.request({ method: 'GET', url: '/api/openapi.json' })).json<{
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    }>();
    for (const path of ['/api/reservation/series', '/api/reservation/series/preview']) {
      expect(Object.keys(document.paths[path]!.post!.responses), path).toContain('429');
    }
    expect(Object.keys(document.paths['/api/reservation/series/{id}']!.get!.responses)).not.toContain('429');
  });

  // The check sees nothing, the insert then waits on a booking not yet committed and fails once it is: the series checks again.
  it('a booking committed between the check and the insert: checked again, 409 listing it, nothing written', async () => {
    const { token } = await person();
    const other = await person();
    const desk = await freshDesk();
    let commit!: () => void;
    let inserted!: () => void;
    const insertedPromise = new Promise<void>((resolve) => (inserted = resolve));
    const holding = db.transaction(async (tx) => {
      await tx.insert(reservations).values({
        userId: other.me.id,
        deskId: desk.id,
        startTime: new Date('2030-03-07T10:00:00Z'),
        endTime: new Date('2030-03-07T11:00:00Z'),
      });
      inserted();
      await new Promise<void>((resolve) => (commit = resolve));
    });
    await insertedPromise;
    const answer = create(token, {
      deskId: desk.id,
      startTime: '2030-03-05T09:00:00Z',
      endTime: '2030-03-05T17:00:00Z',
      timeZone: 'UTC',
      rule: { frequency: 'DAILY', count: 5 },
    });
    // The race happened: the series read, found nothing, and its insert now waits on the uncommitted row.
    const waiting = async () =>
      (
        await queryRows<{ n: number }>(db, sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`)
      )[0]!.n;
    await expect.poll(waiting, { timeout: 10_000 }).toBe(1);
    commit();
    await holding;
    const problem = expectProblem(await answer, 409, 'SERIES_CONFLICT');
    expect(problem.occurrences).toEqual([
      { date: '2030-03-07', startTime: '2030-03-07T09:00:00.000Z', endTime: '2030-03-07T17:00:00.000Z', reason: 'DESK_RESERVED' },
    ]);
    expect(await deskReservations(desk.id)).toBe(1);
    const series = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from reservation_series where desk_id = ${desk.id}`);
    expect(series[0]!.n).toBe(0);
  });

  describe('reading, listing and cancelling', () => {
    it('GET answers the rule and the occurrences with their reservation ids; another USER gets 404', async () => {
      const { token } = await person();
      const desk = await freshDesk();
      const series = await created(token, {
        deskId: desk.id,
        startTime: '2030-03-05T09:00:00Z',
        endTime: '2030-03-05T10:00:00Z',
        timeZone: 'UTC',
        rule: { frequency: 'DAILY', count: 3 },
      });
      const read = await t.request({ method: 'GET', url: `/api/reservation/series/${series.id}`, token });
      expect(read.statusCode).toBe(200);
      const { skipped: _skipped, ...withoutSkipped } = series;
      expect(read.json()).toEqual(withoutSkipped);
      expectProblem(await t.request({ method: 'GET', url: `/api/reservation/series/${series.id}`, token: bobToken }), 404, 'NOT_FOUND');
      expect((await t.request({ method: 'GET', url: `/api/reservation/series/${series.id}`, token: admin })).statusCode).toBe(200);
    });

    it("lists the caller's series (admins anyone's, by userId) with upcoming counts and the next start", async () => {
      const { me, token } = await person();
      const desk = await freshDesk();
      const daily = { deskId: desk.id, endTime: '2030-03-05T10:00:00Z', timeZone: 'UTC', rule: { frequency: 'DAILY', count: 3 } };
      const older = await created(token, { ...daily, startTime: '2030-03-05T09:00:00Z' });
      t.clock.advance(1000); // a later createdAt (put back below)
      const newer = await created(token, {
        ...daily,
        startTime: '2030-03-05T11:30:00Z',
        endTime: '2030-03-05T11:45:00Z',
        deskId: (await freshDesk()).id,
        skipConflicts: true,
      });
      expect(newer.skipped).toEqual([]);
      t.clock.set(NOW);
      const mine = await t.request({ method: 'GET', url: '/api/reservation/series', token });
      expect(mine.statusCode).toBe(200);
      const page = mine.json<{ content: Record<string, unknown>[]; totalElements: number }>();
      expect(page.totalElements).toBe(2);
      expect(page.content.map((item) => item.id)).toEqual([newer.id, older.id]);
      const { occurrences: _occurrences, skipped: _skipped, ...core } = older;
      expect(page.content[1]).toEqual({ ...core, upcoming: 3, nextStartTime: '2030-03-05T09:00:00.000Z' });
      const sorted = await t.request({ method: 'GET', url: '/api/reservation/series', token, query: { sort: 'createdAt,asc', size: '1' } });
      expect(sorted.json<{ content: { id: string }[]; totalPages: number }>()).toMatchObject({ content: [{ id: older.id }], totalPages: 2 });
      expectProblem(await t.request({ method: 'GET', url: '/api/reservation/series', token: bobToken, query: { userId: me.id } }), 403);
      const byAdmin = await t.request({ method: 'GET', url: '/api/reservation/series', token: admin, query: { userId: me.id } });
      expect(byAdmin.json<{ totalElements: number }>().totalElements).toBe(2);
      expectProblem(await t.request({ method: 'GET', url: '/api/reservation/series', token, query: { sort: 'password' } }), 400);
    });

    it('cancels from an occurrence on, one occurrence alone, then the rest; ended occurrences stay as history', async () => {
      const { me, token } = await person();
      const desk = await freshDesk();
      const series = await created(token, {
        deskId: desk.id,
        startTime: '2030-03-05T09:00:00+01:00',
        endTime: '2030-03-05T17:00:00+01:00',
        timeZone: 'Europe/Berlin',
        rule: { frequency: 'WEEKLY', weekdays: ['TU', 'TH'], count: 6 },
      });
      const third = series.occurrences[2]!;
      const cut = await t.request({ method: 'DELETE', url: `/api/reservation/series/${series.id}`, token, query: { from: third.startTime } });
      expect(cut.statusCode, cut.body).toBe(200);
      expect(cut.json<SeriesBody>().occurrences).toEqual(series.occurrences.slice(0, 2));
      expect((await t.request({ method: 'GET', url: `/api/reservation/${third.reservationId}`, token })).statusCode).toBe(404);
      // One occurrence through the ordinary reservation route leaves the other.
      const single = await t.request({ method: 'DELETE', url: `/api/reservation/${series.occurrences[1]!.reservationId}`, token });
      expect(single.statusCode).toBe(204);
      const read = await t.request({ method: 'GET', url: `/api/reservation/series/${series.id}`, token });
      expect(read.json<SeriesBody>().occurrences).toEqual(series.occurrences.slice(0, 1));
      expectProblem(await t.request({ method: 'DELETE', url: `/api/reservation/series/${series.id}`, token: bobToken }), 404);

      // After the first occurrence has ended, cancelling everything leaves it as history.
      t.clock.set(new Date('2030-03-05T20:00:00Z'));
      try {
        const later = (await t.login(me.email, PASSWORD)).accessToken;
        const all = await t.request({ method: 'DELETE', url: `/api/reservation/series/${series.id}`, token: later });
        expect(all.json<SeriesBody>().occurrences).toEqual(series.occurrences.slice(0, 1));
        const list = await t.request({ method: 'GET', url: '/api/reservation/series', token: later, query: { size: '100' } });
        const item = list.json<{ content: { id: string; upcoming: number; nextStartTime: string | null }[] }>().content.find((s) => s.id === series.id);
        expect(item).toMatchObject({ upcoming: 0, nextStartTime: null });
      } finally {
        t.clock.set(NOW);
      }
      expectProblem(await t.request({ method: 'DELETE', url: `/api/reservation/series/${series.id}`, token, query: { from: 'soon' } }), 400);
    });

    it('deletes a series once its last occurrence is gone (cancelled, or deleted one by one)', async () => {
      const { token } = await person();
      const stored = async (id: string) => (await queryRows<{ n: number }>(db, sql`select count(*)::int as n from reservation_series where id = ${id}`))[0]!.n;
      const rule = { frequency: 'DAILY', count: 2 };
      const body = (desk: string) => ({ deskId: desk, startTime: '2030-04-10T09:00:00Z', endTime: '2030-04-10T10:00:00Z', timeZone: 'UTC', rule });
      const cancelled = await created(token, body((await freshDesk()).id));
      const all = await t.request({ method: 'DELETE', url: `/api/reservation/series/${cancelled.id}`, token });
      expect(all.statusCode, all.body).toBe(200);
      expect(all.json<SeriesBody>().occurrences).toEqual([]);
      expect(await stored(cancelled.id)).toBe(0);
      expectProblem(await t.request({ method: 'GET', url: `/api/reservation/series/${cancelled.id}`, token }), 404);

      const { token: other } = await person();
      const single = await created(other, body((await freshDesk()).id));
      expect((await t.request({ method: 'DELETE', url: `/api/reservation/${single.occurrences[0]!.reservationId}`, token: other })).statusCode).toBe(204);
      expect(await stored(single.id)).toBe(1);
      expect((await t.request({ method: 'DELETE', url: `/api/reservation/${single.occurrences[1]!.reservationId}`, token: other })).statusCode).toBe(204);
      expect(await stored(single.id)).toBe(0);
    });

    it('a deleted desk takes its series along; reservations keep nothing dangling', async () => {
      const { token } = await person();
      const desk = await freshDesk();
      const series = await created(token, {
        deskId: desk.id,
        startTime: '2030-03-05T09:00:00Z',
        endTime: '2030-03-05T10:00:00Z',
        timeZone: 'UTC',
        rule: { frequency: 'DAILY', count: 2 },
      });
      const removed = await t.request({
        method: 'DELETE',
        url: `/api/departments/${place.department.id}/rooms/${place.room.id}/desks/${desk.id}`,
        token: admin,
        query: { force: 'true' },
      });
      expect(removed.statusCode, removed.body).toBeLessThan(300);
      expectProblem(await t.request({ method: 'GET', url: `/api/reservation/series/${series.id}`, token }), 404);
    });
  });
});

describe('per-person bounds of series and reservation writes', () => {
  let t: TestApp;
  let db: Database;
  let place: Awaited<ReturnType<typeof insertDeskInNewRoom>>;

  beforeAll(async () => {
    t = await createTestApp({ clock: new TestClock(NOW), env: { SERIES_PER_USER: '2', RESERVATION_WRITES_PER_MINUTE: '5' } });
    db = t.database.handle.db;
    place = await insertDeskInNewRoom(db);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses a third series with occurrences to come (409 TOO_MANY_SERIES), and a sixth write within the minute (429 TOO_MANY_WRITES)', async () => {
    const me = await t.createUser({ email: 'bounded@example.test', password: PASSWORD });
    const token = (await t.login(me.email, PASSWORD)).accessToken;
    const series = (day: number) => ({
      deskId: place.desk.id,
      startTime: `2030-04-${String(day).padStart(2, '0')}T09:00:00Z`,
      endTime: `2030-04-${String(day).padStart(2, '0')}T10:00:00Z`,
      timeZone: 'UTC',
      rule: { frequency: 'DAILY', count: 2 },
    });
    const post = (payload: object) => t.request({ method: 'POST', url: '/api/reservation/series', token, payload });
    expect((await post(series(10))).statusCode).toBe(200);
    expect((await post(series(12))).statusCode).toBe(200);
    expectProblem(await post(series(14)), 409, 'TOO_MANY_SERIES');
    // Admins book for others without a per-minute limit; the cap is the person's.
    const admin = await t.adminToken();
    expectProblem(
      await t.request({ method: 'POST', url: '/api/reservation/series', token: admin, payload: { ...series(16), userId: me.id } }),
      409,
      'TOO_MANY_SERIES',
    );
    // Three writes so far; two more pass, the sixth waits for the next minute.
    const book = (hour: number) =>
      t.request({
        method: 'POST',
        url: '/api/reservation',
        token,
        payload: { deskId: place.desk.id, startTime: `2030-05-02T${hour}:00:00Z`, endTime: `2030-05-02T${hour}:30:00Z` },
      });
    expect((await book(10)).statusCode).toBe(200);
    expect((await book(11)).statusCode).toBe(200);
    const refused = await book(12);
    expectProblem(refused, 429, 'TOO_MANY_WRITES');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(
      (
        await t.request({
          method: 'POST',
          url: '/api/reservation',
          token: admin,
          payload: { deskId: place.desk.id, userId: me.id, startTime: '2030-05-03T10:00:00Z', endTime: '2030-05-03T10:30:00Z' },
        })
      ).statusCode,
    ).toBe(200);
  });

  it('limits every operation that writes reservations (each listed operation exists, with its 429 documented)', () => {
    for (const route of RESERVATION_WRITE_ROUTES) {
      const [method, url] = route.split(' ') as ['POST' | 'PUT' | 'DELETE', string];
      expect(t.app.hasRoute({ method, url }), route).toBe(true);
    }
    const spec = t.app.swagger() as unknown as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
    for (const route of RESERVATION_WRITE_ROUTES) {
      const [method, url] = route.split(' ') as [string, string];
      const path = url.replace(/:(\w+)/g, '{$1}');
      expect(spec.paths[path]?.[method.toLowerCase()]?.responses['429'], route).toBeDefined();
    }
  });
});
