import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../../src/db/client.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, TestClock, createTestApp, expectProblem, type TestApp } from '../../helpers/app.js';
import { createTestDatabase, StatementCounter, type TestDatabase } from '../../helpers/database.js';
import { insertDepartment, insertDesk, insertEquipment, insertReport, insertReservation, insertRoom } from '../../helpers/fixtures.js';

/**
 * GET /api/stats (docs/behaviour.md#statistics): exact totals and the three daily series on UTC day
 * boundaries, with a fixed clock. "Today" is 2026-03-29, so the 30-day series run from
 * 2026-02-28 to 2026-03-29 and the ±15-day series from 2026-03-14 to 2026-04-13.
 */

const NOW = new Date('2026-03-29T12:00:00.000Z');
const PASSWORD = 'stats-password-1';
const TOTAL_KEYS = ['totalDepartments', 'totalDesks', 'totalEquipment', 'totalReports', 'totalReservations', 'totalRooms', 'totalUsers'] as const;
const SERIES_KEYS = ['dailyCreatedReportsLast30Days', 'dailyCreatedReservationsLast30Days', 'dailyReservationsLast15DaysAndNext15Days'] as const;
const STATS_KEYS = [...TOTAL_KEYS, ...SERIES_KEYS].sort();
/** Far outside every window: rows whose creation time must not count. */
const LONG_AGO = new Date('2025-01-01T00:00:00.000Z');

interface DailyCount {
  date: string;
  count: number;
}
type Statistics = Record<(typeof TOTAL_KEYS)[number], number> & Record<(typeof SERIES_KEYS)[number], DailyCount[]>;

const at = (iso: string) => new Date(iso);

/** Every day from `first` to `last` (YYYY-MM-DD, both included) at 00:00:00Z, with the counts given for some of them and 0 for the rest. */
function expectedSeries(first: string, last: string, counts: Record<string, number>): DailyCount[] {
  const days: DailyCount[] = [];
  for (let day = Date.parse(`${first}T00:00:00.000Z`); day <= Date.parse(`${last}T00:00:00.000Z`); day += 86_400_000) {
    const date = new Date(day).toISOString();
    days.push({ date, count: counts[date.slice(0, 10)] ?? 0 });
  }
  return days;
}

describe('statistics', () => {
  let t: TestApp;
  let admin: string;
  let userToken: string;
  let userId: string;
  let spareRoomId: string;

  const stats = (token: string) => t.request({ method: 'GET', url: '/api/stats', token });

  async function statistics(): Promise<Statistics> {
    const response = await stats(admin);
    if (response.statusCode !== 200) throw new Error(`stats: ${response.statusCode} ${response.body}`);
    return response.json<Statistics>();
  }

  beforeAll(async () => {
    // The clock moves up to half a day forward: tokens must outlive that.
    t = await createTestApp({ clock: new TestClock(NOW), env: { ACCESS_TOKEN_TTL: '24h' } });
    admin = await t.adminToken();
    userId = (await t.createUser({ email: 'stats.user@example.test', password: PASSWORD })).id;
    userToken = (await t.login('stats.user@example.test', PASSWORD)).accessToken;
  });
  afterAll(() => t.close());

  it('is for admins only: 403 for a USER, 401 without a token', async () => {
    expectProblem(await stats(userToken), 403, 'FORBIDDEN');
    expectProblem(await t.request({ method: 'GET', url: '/api/stats' }), 401, 'UNAUTHENTICATED');
  });

  it('answers zeros on an empty service, with every day present, oldest first, at 00:00:00Z', async () => {
    const body = await statistics();
    expect(Object.keys(body).sort()).toEqual(STATS_KEYS);
    expect(body).toMatchObject({ totalDesks: 0, totalRooms: 0, totalDepartments: 0, totalUsers: 2, totalReports: 0, totalReservations: 0, totalEquipment: 0 });
    expect(body.dailyCreatedReservationsLast30Days).toHaveLength(30);
    expect(body.dailyCreatedReportsLast30Days).toHaveLength(30);
    expect(body.dailyReservationsLast15DaysAndNext15Days).toHaveLength(31);
    for (const key of SERIES_KEYS) {
      for (const entry of body[key]) {
        expect(Object.keys(entry).sort()).toEqual(['count', 'date']);
        expect(entry.date).toMatch(/^\d{4}-\d{2}-\d{2}T00:00:00\.000Z$/);
        expect(entry.count).toBe(0);
      }
    }
    expect(body.dailyCreatedReservationsLast30Days[0]!.date).toBe('2026-02-28T00:00:00.000Z');
    expect(body.dailyCreatedReservationsLast30Days[29]!.date).toBe('2026-03-29T00:00:00.000Z');
    expect(body.dailyCreatedReportsLast30Days).toEqual(body.dailyCreatedReservationsLast30Days);
    expect(body.dailyReservationsLast15DaysAndNext15Days[0]!.date).toBe('2026-03-14T00:00:00.000Z');
    expect(body.dailyReservationsLast15DaysAndNext15Days[15]!.date).toBe('2026-03-29T00:00:00.000Z');
    expect(body.dailyReservationsLast15DaysAndNext15Days[30]!.date).toBe('2026-04-13T00:00:00.000Z');
  });

  describe('with known rows', () => {
    beforeAll(async () => {
      const db = t.database.handle.db;
      const departments = [await insertDepartment(db), await insertDepartment(db, { location: 'Munich' })];
      const rooms = [await insertRoom(db, departments[0]!.id), await insertRoom(db, departments[0]!.id), await insertRoom(db, departments[1]!.id)];
      const desks = [];
      for (const room of [rooms[0]!, rooms[1]!, rooms[2]!, rooms[2]!]) desks.push(await insertDesk(db, room.id));
      for (const desk of [desks[0]!, desks[0]!, desks[1]!, desks[2]!, desks[3]!]) await insertEquipment(db, desk.id);
      spareRoomId = rooms[2]!.id;
      await t.createUser({ email: 'third@example.test' });

      // Creation times for the 30-day series; their reservation times lie long ago (outside the ±15-day window).
      const createdAt = [
        '2026-02-27T23:59:59.999Z', // the day before the window: not counted
        '2026-02-28T00:00:00.000Z', // first day
        '2026-03-10T23:59:59.999Z',
        '2026-03-11T00:00:00.000Z',
        '2026-03-11T13:00:00.000Z',
        '2026-03-29T23:59:59.999Z', // today, its last instant
        '2026-03-30T00:00:00.000Z', // tomorrow: not counted
      ];
      for (const [index, iso] of createdAt.entries()) {
        const startTime = new Date(LONG_AGO.getTime() + index * 3_600_000);
        await insertReservation(db, { userId, deskId: desks[0]!.id, startTime, endTime: new Date(startTime.getTime() + 1_800_000), createdAt: at(iso) });
        await insertReport(db, { reportedBy: userId, createdAt: at(iso) });
      }
      await insertReport(db, { reportedBy: userId, createdAt: at('2026-03-11T05:00:00.000Z') });

      // Reservation times for the ±15-day series, all created long ago; several desks and no per-user exclusivity so they may overlap.
      const spans: [string, string, number][] = [
        ['2026-03-13T23:00:00.000Z', '2026-03-14T00:00:00.000Z', 1], // ends as the window starts: not counted
        ['2026-03-14T00:00:00.000Z', '2026-03-14T01:00:00.000Z', 1], // first day
        ['2026-03-10T00:00:00.000Z', '2026-03-15T00:00:00.000Z', 2], // began before the window: 14th only
        ['2026-03-20T22:00:00.000Z', '2026-03-23T02:00:00.000Z', 1], // 20th to 23rd
        ['2026-03-25T12:00:00.000Z', '2026-03-26T00:00:00.000Z', 3], // back to back at midnight, one desk:
        ['2026-03-26T00:00:00.000Z', '2026-03-26T08:00:00.000Z', 3], //   25th and 26th once each
        ['2026-03-29T08:00:00.000Z', '2026-03-29T09:00:00.000Z', 0], // today
        ['2026-03-29T10:00:00.000Z', '2026-03-30T00:00:00.001Z', 1], // today and, by a millisecond, tomorrow
        ['2026-04-13T23:59:59.999Z', '2026-04-14T02:00:00.000Z', 2], // last day, its last instant
        ['2026-04-14T00:00:00.000Z', '2026-04-14T01:00:00.000Z', 3], // the day after the window: not counted
      ];
      for (const [start, end, desk] of spans) {
        await insertReservation(db, { userId, deskId: desks[desk]!.id, startTime: at(start), endTime: at(end), createdAt: LONG_AGO, userExclusive: false });
      }
    });

    it('counts every row exactly in the totals', async () => {
      const body = await statistics();
      const totals = Object.fromEntries(TOTAL_KEYS.map((key) => [key, body[key]]));
      expect(totals).toEqual({ totalDepartments: 2, totalRooms: 3, totalDesks: 4, totalEquipment: 5, totalUsers: 3, totalReports: 8, totalReservations: 17 });
    });

    it('counts reservations and reports by creation day, on exact UTC day boundaries', async () => {
      const body = await statistics();
      const created = { '2026-02-28': 1, '2026-03-10': 1, '2026-03-11': 2, '2026-03-29': 1 };
      expect(body.dailyCreatedReservationsLast30Days).toEqual(expectedSeries('2026-02-28', '2026-03-29', created));
      expect(body.dailyCreatedReportsLast30Days).toEqual(expectedSeries('2026-02-28', '2026-03-29', { ...created, '2026-03-11': 3 }));
    });

    it('counts reservations on every day their half-open range overlaps', async () => {
      const body = await statistics();
      expect(body.dailyReservationsLast15DaysAndNext15Days).toEqual(
        expectedSeries('2026-03-14', '2026-04-13', {
          '2026-03-14': 2,
          '2026-03-20': 1,
          '2026-03-21': 1,
          '2026-03-22': 1,
          '2026-03-23': 1,
          '2026-03-25': 1,
          '2026-03-26': 1,
          '2026-03-29': 2,
          '2026-03-30': 1,
          '2026-04-13': 1,
        }),
      );
    });

    it('moves every window when the UTC date changes', async () => {
      t.clock.set(at('2026-03-29T23:59:59.999Z'));
      const lastInstant = await statistics();
      expect(lastInstant.dailyCreatedReservationsLast30Days[0]!.date).toBe('2026-02-28T00:00:00.000Z');
      expect(lastInstant.dailyCreatedReservationsLast30Days[29]).toEqual({ date: '2026-03-29T00:00:00.000Z', count: 1 });

      t.clock.set(at('2026-03-30T00:00:00.000Z'));
      const nextDay = await statistics();
      expect(nextDay.dailyCreatedReservationsLast30Days).toEqual(
        expectedSeries('2026-03-01', '2026-03-30', { '2026-03-10': 1, '2026-03-11': 2, '2026-03-29': 1, '2026-03-30': 1 }),
      );
      expect(nextDay.dailyCreatedReportsLast30Days[0]!.date).toBe('2026-03-01T00:00:00.000Z');
      const around = nextDay.dailyReservationsLast15DaysAndNext15Days;
      expect(around).toHaveLength(31);
      expect(around[0]).toEqual({ date: '2026-03-15T00:00:00.000Z', count: 0 });
      expect(around[30]).toEqual({ date: '2026-04-14T00:00:00.000Z', count: 2 });
      t.clock.set(NOW);
    });

    it('counts a reservation spanning the whole ±15-day window on every day of it', async () => {
      const before = (await statistics()).dailyReservationsLast15DaysAndNext15Days;
      const desk = await insertDesk(t.database.handle.db, spareRoomId, { name: 'Long stay' });
      await insertReservation(t.database.handle.db, {
        userId,
        deskId: desk.id,
        startTime: at('2026-03-01T00:00:00.000Z'),
        endTime: at('2026-05-01T00:00:00.000Z'),
        createdAt: LONG_AGO,
        userExclusive: false,
      });
      const after = await statistics();
      expect(after.dailyReservationsLast15DaysAndNext15Days).toEqual(before.map((day) => ({ ...day, count: day.count + 1 })));
      expect(after.totalReservations).toBe(18);
    });
  });
});

describe('statistics are never stale (read-your-writes across processes)', () => {
  // Two service instances on one database, each with its own cache and its own connection pool,
  // like two server processes.
  let a: TestApp;
  let b: TestApp;
  let database: TestDatabase;
  let second: DatabaseHandle;
  let adminA: string;
  let adminB: string;
  let userId: string;
  const counter = new StatementCounter();

  beforeAll(async () => {
    database = await createTestDatabase({ onQuery: counter.onQuery });
    const clock = new TestClock(NOW);
    a = await createTestApp({ database, clock, env: { ACCESS_TOKEN_TTL: '24h' }, timedJobs: false });
    second = await openDatabase({ kind: 'postgres', url: database.url, poolSize: 4, onQuery: counter.onQuery });
    // Ten simultaneous requests of one admin below: above the per-user limit of costly requests.
    b = await createTestApp({
      database: { handle: second, url: database.url, dispose: () => second.close() },
      clock,
      env: { ACCESS_TOKEN_TTL: '24h', EXPENSIVE_CONCURRENCY_PER_USER: '20' },
      timedJobs: false,
    });
    adminA = await a.adminToken();
    adminB = await b.adminToken();
    userId = (await a.createUser({ email: 'fresh.stats@example.test' })).id;
  });
  afterAll(async () => {
    await b?.close();
    await second?.close();
    await a?.close();
    await database?.dispose();
  });

  async function statsOfB(): Promise<Statistics> {
    const response = await b.request({ method: 'GET', url: '/api/stats', token: adminB });
    if (response.statusCode !== 200) throw new Error(`stats: ${response.statusCode} ${response.body}`);
    return response.json<Statistics>();
  }
  async function writeThroughA(method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: object): Promise<{ id: string }> {
    const response = await a.request({ method, url, token: adminA, ...(payload ? { payload } : {}) });
    if (response.statusCode >= 300) throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
    return response.statusCode === 204 ? { id: '' } : response.json<{ id: string }>();
  }
  const countOn = (series: DailyCount[], day: string) => series.find((entry) => entry.date.startsWith(day))!.count;
  /** Statements a request to B sends, and how many of them compute the totals (one per computation). */
  async function statementsOf(action: () => Promise<unknown>): Promise<{ statements: number; computations: number }> {
    const { sent } = await counter.record(action);
    return { statements: sent.length, computations: sent.filter((statement) => statement.sql.includes('"totalDesks"')).length };
  }

  it('answers what was written through the other instance the moment the write was acknowledged', async () => {
    a.clock.set(NOW);
    const before = await statsOfB();
    const department = await writeThroughA('POST', '/api/departments', { location: 'Leipzig', building: 'Tower', floor: 2 });
    const room = await writeThroughA('POST', `/api/departments/${department.id}/rooms`, { name: 'Fresh' });
    const desks = [];
    for (const name of ['D1', 'D2', 'D3']) desks.push(await writeThroughA('POST', `/api/departments/${department.id}/rooms/${room.id}/desks`, { name }));
    const afterDesks = await statsOfB();
    expect([afterDesks.totalDepartments, afterDesks.totalRooms, afterDesks.totalDesks]).toEqual([
      before.totalDepartments + 1,
      before.totalRooms + 1,
      before.totalDesks + 3,
    ]);

    const reservation = await writeThroughA('POST', '/api/reservation', {
      deskId: desks[0]!.id,
      userId,
      startTime: '2026-03-29T14:00:00Z',
      endTime: '2026-03-29T15:00:00Z',
    });
    const booked = await statsOfB();
    expect(booked.totalReservations).toBe(before.totalReservations + 1);
    expect(countOn(booked.dailyCreatedReservationsLast30Days, '2026-03-29')).toBe(countOn(before.dailyCreatedReservationsLast30Days, '2026-03-29') + 1);
    expect(countOn(booked.dailyReservationsLast15DaysAndNext15Days, '2026-03-29')).toBe(
      countOn(before.dailyReservationsLast15DaysAndNext15Days, '2026-03-29') + 1,
    );

    // Moving it to tomorrow moves it in the ±15-day series.
    await writeThroughA('PUT', `/api/reservation/${reservation.id}`, {
      deskId: desks[0]!.id,
      startTime: '2026-03-30T14:00:00Z',
      endTime: '2026-03-30T15:00:00Z',
    });
    const moved = await statsOfB();
    expect(countOn(moved.dailyReservationsLast15DaysAndNext15Days, '2026-03-29')).toBe(countOn(before.dailyReservationsLast15DaysAndNext15Days, '2026-03-29'));
    expect(countOn(moved.dailyReservationsLast15DaysAndNext15Days, '2026-03-30')).toBe(
      countOn(before.dailyReservationsLast15DaysAndNext15Days, '2026-03-30') + 1,
    );

    await writeThroughA('POST', '/api/report', { title: 'Wobbly', description: 'The desk wobbles', reportedBy: userId, deskId: desks[1]!.id });
    await writeThroughA('DELETE', `/api/reservation/${reservation.id}`);
    const last = await statsOfB();
    expect(last.totalReports).toBe(before.totalReports + 1);
    expect(last.totalReservations).toBe(before.totalReservations);
  });

  it('keeps its figures while nothing counted changes: a request then costs two statements, the session check and the change count (docs/behaviour.md#statistics)', async () => {
    a.clock.set(NOW);
    await statsOfB();
    expect(await statementsOf(statsOfB)).toEqual({ statements: 2, computations: 0 });
    // Sign-ins and renamed users change nothing that is counted.
    await a.login(ADMIN_EMAIL, ADMIN_PASSWORD);
    await writeThroughA('PUT', `/api/users/${userId}`, { firstName: 'Renamed' });
    expect(await statementsOf(statsOfB)).toEqual({ statements: 2, computations: 0 });
  });

  it('answers fresh figures first thing after a long idle time', async () => {
    a.clock.set(NOW);
    const before = await statsOfB();
    // Written by anyone (here straight into the database), then nothing for two hours.
    await insertDepartment(a.database.handle.db, { location: 'Idle' });
    a.clock.advance(2 * 3_600_000);
    expect((await statsOfB()).totalDepartments).toBe(before.totalDepartments + 1);
  });

  it('moves the series when the UTC day changes, without any write', async () => {
    a.clock.set(at('2026-03-29T23:59:59.999Z'));
    expect((await statsOfB()).dailyCreatedReservationsLast30Days.at(-1)!.date).toBe('2026-03-29T00:00:00.000Z');
    a.clock.set(at('2026-03-30T00:00:00.000Z'));
    const nextDay = await statsOfB();
    expect(nextDay.dailyCreatedReservationsLast30Days.at(-1)!.date).toBe('2026-03-30T00:00:00.000Z');
    expect(nextDay.dailyReservationsLast15DaysAndNext15Days[0]!.date).toBe('2026-03-15T00:00:00.000Z');
  });

  it('lets simultaneous requests after a write share the computation, each answer including the write', async () => {
    a.clock.set(NOW);
    const before = await statsOfB();
    await insertDepartment(a.database.handle.db, { location: 'Burst' });
    let answers: Statistics[] = [];
    const { computations } = await statementsOf(async () => {
      answers = await Promise.all(Array.from({ length: 10 }, () => statsOfB()));
    });
    for (const answer of answers) expect(answer.totalDepartments).toBe(before.totalDepartments + 1);
    expect(computations).toBeGreaterThanOrEqual(1);
    expect(computations).toBeLessThanOrEqual(2);
  });
});
