import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows, type Database } from '../../../src/db/client.js';
import { createTestApp, drainOutbox, expectProblem, TestClock, UUID, type TestApp, type UserBody } from '../../helpers/app.js';
import { insertDepartment, insertDesk, insertRoom } from '../../helpers/fixtures.js';
import { startSmtp, type TestSmtp } from '../../helpers/smtp.js';

/**
 * Closures and holidays (docs/policies.md#closures-and-holidays): validation naming the field with
 * nothing written, closed local days per office zone, the preview, cancel versus keep (the owners'
 * mail and calendar cancellation), bookings and series on closed days, search, the closed days
 * everyone may read, and deletion.
 */

const PASSWORD = 'closures-password-1';
// A Monday morning in UTC.
const NOW = new Date('2030-03-04T08:00:00.000Z');

interface Place {
  departmentId: string;
  deskId: string;
}

describe('closures', () => {
  let t: TestApp;
  let db: Database;
  let smtp: TestSmtp;
  let admin: string;
  let alice: UserBody;
  let aliceToken: string;
  let bob: UserBody;
  let bobToken: string;
  let buildings = 0;

  /** A department (its own location and building unless given) in `zone`, with one room and one desk. */
  async function office(zone: string, where: { location?: string; building?: string } = {}): Promise<Place> {
    const department = await insertDepartment(db, { location: where.location ?? `City ${++buildings}`, building: where.building ?? `Building ${buildings}` });
    const settings = await t.request({ method: 'PUT', url: `/api/departments/${department.id}/settings`, token: admin, payload: { timeZone: zone } });
    expect(settings.statusCode).toBe(200);
    const room = await insertRoom(db, department.id, { available: true });
    const desk = await insertDesk(db, room.id, { type: 'FLEX' });
    return { departmentId: department.id, deskId: desk.id };
  }
  const book = (token: string, deskId: string, startTime: string, endTime: string) =>
    t.request({ method: 'POST', url: '/api/reservation', token, payload: { deskId, startTime, endTime } });
  const create = (payload: Record<string, unknown>, token = admin) => t.request({ method: 'POST', url: '/api/closures', token, payload });
  const countClosures = async () =>
    (await queryRows<{ n: number }>(db, sql`select ((select count(*) from closures) + (select count(*) from closure_days))::int as n`))[0]!.n;
  const removeAll = () => db.execute(sql`delete from closures`);

  beforeAll(async () => {
    smtp = await startSmtp();
    t = await createTestApp({ clock: new TestClock(NOW), env: { SMTP_URL: smtp.url, PUBLIC_URL: 'https://desks.example.test' } });
    db = t.database.handle.db;
    admin = await t.adminToken();
    alice = await t.createUser({ email: 'alice@example.test', firstName: 'Alice', lastName: 'Adams', password: PASSWORD });
    bob = await t.createUser({ email: 'bob@example.test', firstName: 'Bob', lastName: 'Brown', password: PASSWORD });
    aliceToken = (await t.login(alice.email, PASSWORD)).accessToken;
    bobToken = (await t.login(bob.email, PASSWORD)).accessToken;
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.stop();
  });

  it('refuses bad input with a 400 naming the field, and writes nothing', async () => {
    const { departmentId } = await office('UTC');
    const base = { scope: 'EVERYWHERE', reason: 'Holiday', onExisting: 'keep' };
    const field = async (payload: Record<string, unknown>, name: string) => {
      const problem = expectProblem(await create({ ...base, ...payload }), 400, 'VALIDATION_FAILED');
      expect(problem.errors?.map((error) => error.field)).toContain(name);
    };
    await field({ dates: ['2030-03-03'] }, 'dates');
    await field({ rrule: 'FREQ=YEARLY;BYMONTH=12;BYMONTHDAY=25', startDate: '2030-12-25' }, 'rrule');
    await field({ rrule: 'FREQ=WEEKLY;COUNT=3', startDate: '2030-03-01' }, 'startDate');
    await field({ rrule: 'FREQ=HOURLY;COUNT=3', startDate: '2030-04-01' }, 'rrule');
    await field({ rrule: 'FREQ=DAILY;COUNT=3;BYSETPOS=1', startDate: '2030-04-01' }, 'rrule');
    await field({ rrule: 'FREQ=DAILY;COUNT=3' }, 'startDate');
    await field({ dates: ['2030-04-01'], rrule: 'FREQ=DAILY;COUNT=3', startDate: '2030-04-01' }, 'rrule');
    await field({ dates: ['2030-02-30'] }, 'dates.0');
    await field({}, 'dates');
    await field({ scope: 'DEPARTMENT', dates: ['2030-04-01'] }, 'departmentId');
    await field({ scope: 'DEPARTMENT', departmentId: '00000000-0000-4000-8000-000000000000', dates: ['2030-04-01'] }, 'departmentId');
    await field({ scope: 'BUILDING', location: 'Nowhere', building: 'None', dates: ['2030-04-01'] }, 'building');
    await field({ departmentId, dates: ['2030-04-01'] }, 'departmentId');
    await field({ reason: '   ', dates: ['2030-04-01'] }, 'reason');
    await field({ reason: 'x'.repeat(201), dates: ['2030-04-01'] }, 'reason');
    expectProblem(await create({ ...base, dates: ['2030-04-01'] }, aliceToken), 403, 'FORBIDDEN');
    expect(await countClosures()).toBe(0);
  });

  it('closes whole local days in each office’s zone, everywhere; a booking touching one is refused with the closure', async () => {
    const auckland = await office('Pacific/Auckland');
    const angeles = await office('America/Los_Angeles');
    const created = await create({ scope: 'EVERYWHERE', reason: 'Founders’ day', dates: ['2030-03-12'], onExisting: 'keep' });
    expect(created.statusCode).toBe(200);
    const closure = created.json<{ closure: { id: string; days: string[]; dayCount: number; startDate: string; lastDate: string } }>().closure;
    expect(closure).toMatchObject({ days: ['2030-03-12'], dayCount: 1, startDate: '2030-03-12', lastDate: '2030-03-12' });
    expect(closure.id).toMatch(UUID);

    // 2030-03-11T20:00Z is 09:00 on the 12th in Auckland (UTC+13) and 13:00 on the 11th in Los Angeles (UTC-7).
    const refused = expectProblem(await book(aliceToken, auckland.deskId, '2030-03-11T20:00:00Z', '2030-03-11T22:00:00Z'), 409, 'CLOSED_DAY');
    expect(refused.closure).toEqual({ id: closure.id, date: '2030-03-12', reason: 'Founders’ day' });
    expect((await book(aliceToken, angeles.deskId, '2030-03-11T20:00:00Z', '2030-03-11T22:00:00Z')).statusCode).toBe(200);
    // 10:00 on the 12th in Los Angeles.
    expectProblem(await book(bobToken, angeles.deskId, '2030-03-12T17:00:00Z', '2030-03-12T18:00:00Z'), 409, 'CLOSED_DAY');
    // Admins too: the office is closed.
    expectProblem(await book(admin, auckland.deskId, '2030-03-11T20:00:00Z', '2030-03-11T21:00:00Z'), 409, 'CLOSED_DAY');
    // A move onto the closed day is refused as well.
    const free = await book(aliceToken, auckland.deskId, '2030-03-13T20:00:00Z', '2030-03-13T22:00:00Z');
    expect(free.statusCode).toBe(200);
    const moved = await t.request({
      method: 'PUT',
      url: `/api/reservation/${free.json<{ id: string }>().id}`,
      token: aliceToken,
      payload: { deskId: auckland.deskId, startTime: '2030-03-11T20:00:00Z', endTime: '2030-03-11T22:00:00Z' },
    });
    expectProblem(moved, 409, 'CLOSED_DAY');
    await removeAll();
    expect((await book(bobToken, auckland.deskId, '2030-03-11T20:00:00Z', '2030-03-11T22:00:00Z')).statusCode).toBe(200);
  });

  it('a department or building closure holds only there', async () => {
    const first = await office('UTC', { location: 'Hamburg', building: 'North' });
    const second = await office('UTC', { location: 'Hamburg', building: 'North' });
    const other = await office('UTC', { location: 'Hamburg', building: 'South' });
    const department = await create({ scope: 'DEPARTMENT', departmentId: first.departmentId, reason: 'Painting', dates: ['2030-03-20'], onExisting: 'keep' });
    expect(department.statusCode).toBe(200);
    expectProblem(await book(aliceToken, first.deskId, '2030-03-20T09:00:00Z', '2030-03-20T10:00:00Z'), 409, 'CLOSED_DAY');
    expect((await book(aliceToken, second.deskId, '2030-03-20T09:00:00Z', '2030-03-20T10:00:00Z')).statusCode).toBe(200);
    const building = await create({
      scope: 'BUILDING',
      location: 'Hamburg',
      building: 'North',
      reason: 'Fire drill',
      dates: ['2030-03-21'],
      onExisting: 'keep',
    });
    expect(building.statusCode).toBe(200);
    expectProblem(await book(aliceToken, second.deskId, '2030-03-21T09:00:00Z', '2030-03-21T10:00:00Z'), 409, 'CLOSED_DAY');
    expect((await book(aliceToken, other.deskId, '2030-03-21T09:00:00Z', '2030-03-21T10:00:00Z')).statusCode).toBe(200);

    // Everyone reads the closed days (the date picker); per department, only those that hold there.
    const days = await t.request({
      method: 'GET',
      url: '/api/closures/days',
      token: bobToken,
      query: { from: '2030-03-18', to: '2030-03-24', departmentId: second.departmentId },
    });
    expect(days.json()).toEqual({
      days: [
        expect.objectContaining({ date: '2030-03-21', reason: 'Fire drill', scope: 'BUILDING', location: 'Hamburg', building: 'North', departmentId: null }),
      ],
    });
    expectProblem(
      await t.request({ method: 'GET', url: '/api/closures/days', token: bobToken, query: { from: '2030-03-01', to: '2030-07-01' } }),
      400,
      'VALIDATION_FAILED',
    );
    const listed = await t.request({ method: 'GET', url: '/api/closures', token: admin, query: { departmentId: first.departmentId } });
    expect(listed.json<{ content: { reason: string }[] }>().content.map((c) => c.reason)).toEqual(['Painting', 'Fire drill']);
    expectProblem(await t.request({ method: 'GET', url: '/api/closures', token: bobToken }), 403, 'FORBIDDEN');
    await removeAll();
  });

  it('lists the reservations first, then cancels them with the reason: one mail per owner and the calendar cancellation', async () => {
    const place = await office('Europe/Berlin');
    const second = await office('Europe/Berlin');
    const a1 = (await book(aliceToken, place.deskId, '2030-04-01T07:00:00Z', '2030-04-01T15:00:00Z')).json<{ id: string }>().id;
    const a2 = (await book(aliceToken, second.deskId, '2030-04-02T07:00:00Z', '2030-04-02T15:00:00Z')).json<{ id: string }>().id;
    const b1 = (await book(bobToken, second.deskId, '2030-04-01T07:00:00Z', '2030-04-01T15:00:00Z')).json<{ id: string }>().id;
    const untouched = (await book(bobToken, place.deskId, '2030-04-03T07:00:00Z', '2030-04-03T15:00:00Z')).json<{ id: string }>().id;
    // The invitations go out first, so the cancellation has something to cancel (docs/behaviour.md#invitation-mails).
    await drainOutbox(t.app);
    const before = smtp.mails.length;

    const closure = { scope: 'EVERYWHERE', reason: 'Easter Monday', rrule: 'FREQ=DAILY;COUNT=2', startDate: '2030-04-01' };
    const page = await t.request({ method: 'POST', url: '/api/closures/preview', token: admin, payload: closure, query: { size: '2' } });
    expect(page.statusCode).toBe(200);
    const preview = page.json<{
      days: string[];
      reservations: { totalElements: number; content: { id: string; date: string; userName: string; started: boolean }[] };
    }>();
    expect(preview.days).toEqual(['2030-04-01', '2030-04-02']);
    expect(preview.reservations.totalElements).toBe(3);
    expect(preview.reservations.content.map((r) => r.id).sort()).toEqual([a1, b1].sort());
    const next = await t.request({ method: 'POST', url: '/api/closures/preview', token: admin, payload: closure, query: { size: '2', page: '1' } });
    expect(next.json<{ reservations: { content: { id: string; date: string }[] } }>().reservations.content).toEqual([
      expect.objectContaining({ id: a2, date: '2030-04-02' }),
    ]);
    expect(await countClosures()).toBe(0);

    const created = await create({ ...closure, onExisting: 'cancel' });
    expect(created.statusCode).toBe(200);
    expect(created.json()).toMatchObject({ cancelled: 3, kept: 0 });
    const left = await queryRows<{ id: string }>(db, sql`select id from reservations where id in (${a1}, ${a2}, ${b1}, ${untouched})`);
    expect(left.map((row) => row.id)).toEqual([untouched]);
    const cancelledEvents = await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from calendar_events where reservation_id in (${a1}, ${a2}, ${b1}) and cancelled_at is not null`,
    );
    expect(cancelledEvents[0]!.n).toBe(3);

    await drainOutbox(t.app);
    const mails = smtp.mails.slice(before);
    const closureMails = mails.filter((mail) => mail.subject.includes('the office is closed'));
    expect(closureMails.map((mail) => mail.to).sort()).toEqual(['alice@example.test', 'bob@example.test']);
    const aliceMail = closureMails.find((mail) => mail.to === 'alice@example.test')!;
    expect(aliceMail.subject).toBe('2 reservations cancelled: the office is closed');
    expect(aliceMail.text).toContain('Easter Monday');
    expect(aliceMail.text).toContain('2030-04-01 09:00 (Europe/Berlin)');
    expect(aliceMail.text).toContain('2030-04-02 09:00 (Europe/Berlin)');
    // The calendar cancellations (METHOD:CANCEL) went to both owners too.
    const cancels = mails.filter((mail) => mail.calendar?.method === 'CANCEL');
    expect([...new Set(cancels.map((mail) => mail.to))].sort()).toEqual(['alice@example.test', 'bob@example.test']);
    await removeAll();
  });

  it('writes the closure mail in the owner’s language (docs/i18n.md#mails-and-the-calendar-feed)', async () => {
    const greta = await t.createUser({ email: 'greta@example.test', firstName: 'Greta', lastName: 'Graf', password: PASSWORD });
    const token = (await t.login(greta.email, PASSWORD)).accessToken;
    expect((await t.request({ method: 'PUT', url: '/api/self/preferences', token, payload: { language: 'de' } })).statusCode).toBe(200);
    const place = await office('UTC', { location: 'Berlin', building: 'Nord' });
    expect((await book(token, place.deskId, '2030-04-16T09:00:00Z', '2030-04-16T17:00:00Z')).statusCode).toBe(200);
    await drainOutbox(t.app);
    const before = smtp.mails.length;
    const created = await create({
      scope: 'DEPARTMENT',
      departmentId: place.departmentId,
      reason: 'Betriebsversammlung',
      dates: ['2030-04-16'],
      onExisting: 'cancel',
    });
    expect(created.json()).toMatchObject({ cancelled: 1 });
    await drainOutbox(t.app);
    const mail = smtp.mails.slice(before).find((sent) => sent.to === 'greta@example.test' && sent.calendar === undefined);
    expect(mail?.subject).toBe('Reservierung storniert: Der Standort ist geschlossen');
    expect(mail?.text).toMatch(
      /^Hallo Greta,\n\nder Standort ist geschlossen \(Betriebsversammlung\), daher wurden diese Ihrer Reservierungen storniert:\n\n- Arbeitsplatz .+ \(Berlin · Nord · Etage \d+ · .+\), 2030-04-16 09:00 \(UTC\)\n\nIhre Reservierungen: https:\/\/desks\.example\.test\/reservations\n$/,
    );
    await removeAll();
  });

  it('keeps the reservations when asked to, and refuses new ones', async () => {
    const place = await office('UTC');
    const kept = (await book(aliceToken, place.deskId, '2030-05-06T09:00:00Z', '2030-05-06T17:00:00Z')).json<{ id: string }>().id;
    const created = await create({ scope: 'DEPARTMENT', departmentId: place.departmentId, reason: 'Audit', dates: ['2030-05-06'], onExisting: 'keep' });
    expect(created.json()).toMatchObject({ cancelled: 0, kept: 1 });
    expect(await queryRows(db, sql`select id from reservations where id = ${kept}`)).toHaveLength(1);
    // The kept reservation may still shrink, not move onto another closed hour of the day.
    const shrink = await t.request({
      method: 'PUT',
      url: `/api/reservation/${kept}`,
      token: aliceToken,
      payload: { deskId: place.deskId, startTime: '2030-05-06T09:00:00Z', endTime: '2030-05-06T12:00:00Z' },
    });
    expect(shrink.statusCode).toBe(200);
    expectProblem(await book(bobToken, place.deskId, '2030-05-06T13:00:00Z', '2030-05-06T14:00:00Z'), 409, 'CLOSED_DAY');
    await removeAll();
  });

  it('a series across a closure skips the closed days and lists them as skipped with the reason', async () => {
    const place = await office('Europe/Berlin');
    const closed = await create({ scope: 'DEPARTMENT', departmentId: place.departmentId, reason: 'Staff outing', dates: ['2030-04-17'], onExisting: 'keep' });
    const closureId = closed.json<{ closure: { id: string } }>().closure.id;
    const payload = {
      deskId: place.deskId,
      startTime: '2030-04-15T07:00:00Z',
      endTime: '2030-04-15T15:00:00Z',
      timeZone: 'Europe/Berlin',
      rule: { frequency: 'DAILY', count: 5 },
    };
    const preview = await t.request({ method: 'POST', url: '/api/reservation/series/preview', token: aliceToken, payload });
    expect(preview.json<{ occurrences: { date: string; conflict: string | null }[] }>().occurrences.map((o) => o.conflict)).toEqual([
      null,
      null,
      'CLOSED',
      null,
      null,
    ]);
    const series = await t.request({ method: 'POST', url: '/api/reservation/series', token: aliceToken, payload });
    expect(series.statusCode).toBe(200);
    const body = series.json<{ occurrences: { date: string }[]; skipped: unknown[] }>();
    expect(body.occurrences.map((o) => o.date)).toEqual(['2030-04-15', '2030-04-16', '2030-04-18', '2030-04-19']);
    expect(body.skipped).toEqual([
      {
        date: '2030-04-17',
        startTime: '2030-04-17T07:00:00.000Z',
        endTime: '2030-04-17T15:00:00.000Z',
        reason: 'CLOSED',
        closure: { id: closureId, date: '2030-04-17', reason: 'Staff outing' },
      },
    ]);
    await removeAll();
  });

  it('search does not offer desks of an office closed in the window, at no extra statement', async () => {
    const place = await office('UTC', { location: 'Closedtown', building: 'Only' });
    const search = async () =>
      (
        await t.request({
          method: 'POST',
          url: '/api/search/rooms',
          token: bobToken,
          payload: { department: { location: 'Closedtown' }, reservation: { free: { start: '2030-07-01T09:00:00Z', end: '2030-07-01T10:00:00Z' } } },
        })
      ).json<{ totalElements: number }>().totalElements;
    expect(await search()).toBe(1);
    await create({ scope: 'DEPARTMENT', departmentId: place.departmentId, reason: 'Moving', dates: ['2030-07-01'], onExisting: 'keep' });
    expect(await search()).toBe(0);
    await removeAll();
  });

  it('reads and deletes a closure: its days open again', async () => {
    const place = await office('UTC');
    const created = await create({
      scope: 'EVERYWHERE',
      reason: 'Inventory',
      rrule: 'FREQ=WEEKLY;BYDAY=MO,FR;UNTIL=20300503',
      startDate: '2030-04-22',
      onExisting: 'keep',
    });
    const id = created.json<{ closure: { id: string } }>().closure.id;
    const read = await t.request({ method: 'GET', url: `/api/closures/${id}`, token: admin });
    expect(read.json()).toMatchObject({
      rrule: 'FREQ=WEEKLY;BYDAY=MO,FR;UNTIL=20300503',
      dates: null,
      days: ['2030-04-22', '2030-04-26', '2030-04-29', '2030-05-03'],
    });
    expectProblem(await book(aliceToken, place.deskId, '2030-04-26T09:00:00Z', '2030-04-26T10:00:00Z'), 409, 'CLOSED_DAY');
    expect((await t.request({ method: 'DELETE', url: `/api/closures/${id}`, token: admin })).statusCode).toBe(204);
    expectProblem(await t.request({ method: 'DELETE', url: `/api/closures/${id}`, token: admin }), 404, 'NOT_FOUND');
    expect((await book(aliceToken, place.deskId, '2030-04-26T09:00:00Z', '2030-04-26T10:00:00Z')).statusCode).toBe(200);
    expect(await countClosures()).toBe(0);
  });
});
