import { eq, sql } from 'drizzle-orm';
import jsQRModule from 'jsqr';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { departmentSettings, departments } from '../../../src/db/schema.js';
import { createTestApp, expectProblem, TestClock, type TestApp, drainOutbox } from '../../helpers/app.js';
import { createTestDatabase } from '../../helpers/database.js';
import { insertDesk, insertDeskInNewRoom } from '../../helpers/fixtures.js';
import { startSmtp, type TestSmtp } from '../../helpers/smtp.js';
import { parseCalendar } from '../../helpers/ical.js';
import { queryRows } from '../../../src/db/client.js';
import { QR_CACHE_ENTRIES, QrCache, qrCodes } from '../../../src/modules/attendance/attendance.qr.js';

/**
 * Attendance (docs/behaviour.md#attendance): settings, check-in windows at their edges with an
 * injected clock, the release loop running for real, walk-in, the desk day, QR codes, no-show rates.
 */

const at = (iso: string) => new Date(iso);
// jsqr is CommonJS with a default export: Node hands over the module object or the function.
type Decode = (data: Uint8ClampedArray, width: number, height: number) => { data: string } | null;
const jsQR: Decode = (jsQRModule as unknown as { default?: Decode }).default ?? (jsQRModule as unknown as Decode);

describe('attendance', () => {
  let t: TestApp;
  let smtp: TestSmtp;
  let admin: string;
  let alice: { id: string; token: string };
  let bob: { id: string; token: string };
  const clock = new TestClock(at('2030-01-14T08:00:00Z'));

  beforeAll(async () => {
    smtp = await startSmtp();
    t = await createTestApp({
      clock,
      env: { CHECK_IN_REQUIRED: 'true', SMTP_URL: smtp.url, ATTENDANCE_RELEASE_INTERVAL: '100ms', PUBLIC_URL: 'https://desks.example.test' },
    });
    admin = await t.adminToken();
    // These tests read per-person attendance as an admin: works-council mode (on by default) forbids that (docs/people.md#works-council-mode).
    expect((await t.request({ method: 'PATCH', url: '/api/organisation/settings', token: admin, payload: { worksCouncilMode: false } })).statusCode).toBe(200);
    for (const name of ['alice', 'bob']) {
      const user = await t.createUser({ email: `${name}@example.test`, firstName: name, password: 'password-123' });
      const { accessToken } = await t.login(`${name}@example.test`, 'password-123');
      if (name === 'alice') alice = { id: user.id, token: accessToken };
      else bob = { id: user.id, token: accessToken };
    }
  });

  afterAll(async () => {
    await t?.close();
    await smtp?.stop();
  });

  /** Moves the clock and signs everyone in again (tokens expire as the clock moves). */
  const setClock = async (iso: string) => {
    clock.set(at(iso));
    admin = (await t.login('admin@example.test', 'admin-password-1')).accessToken;
    alice.token = (await t.login('alice@example.test', 'password-123')).accessToken;
    bob.token = (await t.login('bob@example.test', 'password-123')).accessToken;
  };

  const book = async (token: string, deskId: string, startTime: string, endTime: string) => {
    const response = await t.request({ method: 'POST', url: '/api/reservation', token, payload: { deskId, startTime, endTime } });
    if (response.statusCode !== 200) throw new Error(`booking failed: ${response.statusCode} ${response.body}`);
    return response.json<{ id: string; endTime: string }>();
  };
  const checkIn = (token: string, id: string) => t.request({ method: 'POST', url: `/api/reservation/${id}/check-in`, token });
  const attendanceOf = async (id: string) => (await t.request({ method: 'GET', url: `/api/reservation/${id}/attendance`, token: admin })).json();

  it('plans attendance when a reservation is booked: PENDING with its window', async () => {
    await setClock('2030-01-14T08:00:00Z');
    const { desk } = await insertDeskInNewRoom(t.database.handle.db);
    const reservation = await book(alice.token, desk.id, '2030-01-14T09:00:00Z', '2030-01-14T17:00:00Z');
    expect(await attendanceOf(reservation.id)).toMatchObject({
      reservationId: reservation.id,
      userId: alice.id,
      deskId: desk.id,
      status: 'PENDING',
      checkInOpensAt: '2030-01-14T08:45:00.000Z',
      releaseAt: '2030-01-14T09:20:00.000Z',
      checkedInAt: null,
      releasedAt: null,
    });
    // Others' attendance is 404 to a USER; their own is readable.
    expectProblem(await t.request({ method: 'GET', url: `/api/reservation/${reservation.id}/attendance`, token: bob.token }), 404, 'NOT_FOUND');
    expect((await t.request({ method: 'GET', url: `/api/reservation/${reservation.id}/attendance`, token: alice.token })).statusCode).toBe(200);
  });

  it('check-in: refused one ms before opening, accepted exactly at opening, idempotent', async () => {
    await setClock('2030-01-15T08:00:00Z');
    const { desk } = await insertDeskInNewRoom(t.database.handle.db);
    const reservation = await book(alice.token, desk.id, '2030-01-15T09:00:00Z', '2030-01-15T17:00:00Z');
    await setClock('2030-01-15T08:44:59.999Z');
    expectProblem(await checkIn(alice.token, reservation.id), 409, 'CHECK_IN_NOT_OPEN');
    expectProblem(await checkIn(bob.token, reservation.id), 404, 'NOT_FOUND');
    await setClock('2030-01-15T08:45:00.000Z');
    const first = await checkIn(alice.token, reservation.id);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ status: 'CHECKED_IN', checkedInAt: '2030-01-15T08:45:00.000Z' });
    await setClock('2030-01-15T08:50:00.000Z');
    const again = await checkIn(alice.token, reservation.id);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ status: 'CHECKED_IN', checkedInAt: '2030-01-15T08:45:00.000Z' });
    // Checked in: never released, however late.
    await setClock('2030-01-15T12:00:00.000Z');
    await t.app.background.releaseRound();
    expect(await attendanceOf(reservation.id)).toMatchObject({ status: 'CHECKED_IN', endTime: '2030-01-15T17:00:00.000Z' });
  });

  it('check-in: accepted one ms before the deadline, refused at it; admins check in for anyone', async () => {
    await setClock('2030-01-16T08:00:00Z');
    const { desk } = await insertDeskInNewRoom(t.database.handle.db);
    const other = await insertDesk(t.database.handle.db, desk.roomId, { name: 'Other' });
    const early = await book(alice.token, desk.id, '2030-01-16T09:00:00Z', '2030-01-16T12:00:00Z');
    const late = await book(bob.token, other.id, '2030-01-16T09:00:00Z', '2030-01-16T12:00:00Z');
    await setClock('2030-01-16T09:19:59.999Z');
    expect((await checkIn(admin, early.id)).json()).toMatchObject({ status: 'CHECKED_IN', checkedInAt: '2030-01-16T09:19:59.999Z' });
    await setClock('2030-01-16T09:20:00.000Z');
    expectProblem(await checkIn(bob.token, late.id), 409, 'CHECK_IN_NOT_OPEN');
    await t.app.background.releaseRound();
    expect(await attendanceOf(late.id)).toMatchObject({ status: 'NO_SHOW', releasedAt: '2030-01-16T09:20:00.000Z', endTime: '2030-01-16T09:20:00.000Z' });
    expectProblem(await checkIn(bob.token, late.id), 409, 'CHECK_IN_NOT_OPEN');
  });

  it('the release loop releases a no-show: end cut, desk bookable for the rest, owner mailed, calendar shows it ended', async () => {
    await setClock('2030-01-17T08:00:00Z');
    const { desk } = await insertDeskInNewRoom(t.database.handle.db);
    const reservation = await book(alice.token, desk.id, '2030-01-17T09:00:00Z', '2030-01-17T17:00:00Z');
    // Before the deadline nothing happens.
    await setClock('2030-01-17T09:19:00Z');
    expect(await t.app.background.releaseRound()).toBe(0);
    expect(await attendanceOf(reservation.id)).toMatchObject({ status: 'PENDING' });
    await setClock('2030-01-17T09:20:30Z');
    await t.app.background.releaseRound();
    expect(await attendanceOf(reservation.id)).toMatchObject({
      status: 'NO_SHOW',
      releasedAt: '2030-01-17T09:20:30.000Z',
      endTime: '2030-01-17T09:20:30.000Z',
    });
    const read = await t.request({ method: 'GET', url: `/api/reservation/${reservation.id}`, token: alice.token });
    expect(read.json()).toMatchObject({ startTime: '2030-01-17T09:00:00.000Z', endTime: '2030-01-17T09:20:30.000Z' });
    const calendar = await t.request({ method: 'GET', url: '/api/reservation?from=2030-01-17T00:00:00Z&to=2030-01-18T00:00:00Z', token: alice.token });
    expect(calendar.json().content).toEqual([expect.objectContaining({ id: reservation.id, endTime: '2030-01-17T09:20:30.000Z' })]);
    // Another user books the rest of the slot.
    const rest = await t.request({
      method: 'POST',
      url: '/api/reservation',
      token: bob.token,
      payload: { deskId: desk.id, startTime: '2030-01-17T09:30:00Z', endTime: '2030-01-17T17:00:00Z' },
    });
    expect(rest.statusCode).toBe(200);
    // The release queued the mail in its transaction; the outbox sends it (docs/architecture.md#the-outbox).
    await drainOutbox(t.app);
    const mail = await smtp.waitForMail((m) => m.to.includes('alice@example.test') && m.subject.includes('released'));
    expect(mail.text).toContain('nobody checked in');
    expect(mail.text).toContain('https://desks.example.test/reservations');
    // Released once: one mail for it, however many rounds ran (two more here, the outbox drained after each).
    for (let round = 0; round < 2; round++) {
      await t.app.background.releaseRound();
      await drainOutbox(t.app);
    }
    expect(smtp.mails.filter((m) => m.to.includes('alice@example.test') && m.text.includes('2030-01-17 09:00'))).toHaveLength(1);
    // Subscribed calendars drop it like a cancelled one (docs/behaviour.md#calendars): its calendar
    // row is a tombstone (the feed's STATUS:CANCELLED, a METHOD:CANCEL mail). The database stamps it
    // with its own clock, not the injected one, so the row is read here rather than the feed.
    const [tracked] = await queryRows<{ cancelled: boolean; end_time: string }>(
      t.database.handle.db,
      sql`select cancelled_at is not null as cancelled, to_char(end_time at time zone 'UTC', 'HH24:MI:SS') as end_time
          from calendar_events where reservation_id = ${reservation.id}`,
    );
    expect(tracked).toEqual({ cancelled: true, end_time: '09:20:30' });
    // Bob's booking of the rest is an ordinary event.
    const bobFeed = await t.request({ method: 'POST', url: '/api/self/calendar-feed', token: bob.token });
    const bobEvents = parseCalendar((await t.request({ method: 'GET', url: new URL(bobFeed.json<{ url: string }>().url).pathname })).body).events;
    expect(bobEvents.find((event) => event.uid.startsWith(rest.json<{ id: string }>().id))).toMatchObject({ status: 'CONFIRMED' });
  });

  it('department settings: everyone reads, admins write, the time zone is validated, they go with the department', async () => {
    const { department } = await insertDeskInNewRoom(t.database.handle.db);
    const url = `/api/departments/${department.id}/settings`;
    expect((await t.request({ method: 'GET', url, token: bob.token })).json()).toEqual({
      departmentId: department.id,
      checkInRequired: null,
      checkInOpensBeforeMinutes: null,
      checkInGraceMinutes: null,
      timeZone: 'UTC',
      effective: { checkInRequired: true, checkInOpensBeforeMinutes: 15, checkInGraceMinutes: 20 },
    });
    expectProblem(await t.request({ method: 'PUT', url, token: bob.token, payload: { checkInRequired: false } }), 403, 'FORBIDDEN');
    expectProblem(await t.request({ method: 'PUT', url, token: admin, payload: { timeZone: 'Mars/Olympus' } }), 400, 'VALIDATION_FAILED');
    expectProblem(await t.request({ method: 'PUT', url, token: admin, payload: { checkInGraceMinutes: -1 } }), 400, 'VALIDATION_FAILED');
    expectProblem(await t.request({ method: 'PUT', url: `/api/departments/00000000-0000-4000-8000-000000000000/settings`, token: admin, payload: {} }), 404);
    const put = await t.request({ method: 'PUT', url, token: admin, payload: { checkInGraceMinutes: 5, timeZone: 'Europe/Berlin' } });
    expect(put.json()).toMatchObject({ checkInRequired: null, checkInGraceMinutes: 5, timeZone: 'Europe/Berlin', effective: { checkInGraceMinutes: 5 } });
    const patch = await t.request({ method: 'PATCH', url, token: admin, payload: { checkInRequired: false } });
    expect(patch.json()).toMatchObject({ checkInRequired: false, checkInGraceMinutes: 5, timeZone: 'Europe/Berlin', effective: { checkInRequired: false } });
    await t.database.handle.db.delete(departments).where(eq(departments.id, department.id));
    expect(await t.database.handle.db.select().from(departmentSettings).where(eq(departmentSettings.departmentId, department.id))).toEqual([]);
  });

  it('a department that turns check-in off plans its reservations not started yet as NOT_REQUIRED', async () => {
    await setClock('2030-01-18T08:00:00Z');
    const { department, desk } = await insertDeskInNewRoom(t.database.handle.db);
    const reservation = await book(alice.token, desk.id, '2030-01-18T09:00:00Z', '2030-01-18T10:00:00Z');
    expect((await attendanceOf(reservation.id)).status).toBe('PENDING');
    await t.request({ method: 'PUT', url: `/api/departments/${department.id}/settings`, token: admin, payload: { checkInRequired: false } });
    expect(await attendanceOf(reservation.id)).toMatchObject({ status: 'NOT_REQUIRED', releaseAt: null });
    await setClock('2030-01-18T09:30:00Z');
    await t.app.background.releaseRound();
    expect((await attendanceOf(reservation.id)).status).toBe('NOT_REQUIRED');
    // Check-in is still possible (and recorded) while it runs.
    expect((await checkIn(alice.token, reservation.id)).json()).toMatchObject({ status: 'CHECKED_IN' });
  });

  it('walk-in: books from now until the next reservation or WALK_IN_UNTIL in the office zone, checked in', async () => {
    await setClock('2030-01-21T07:00:00Z');
    const { department, desk } = await insertDeskInNewRoom(t.database.handle.db);
    const second = await insertDesk(t.database.handle.db, desk.roomId, { name: 'Second' });
    await t.request({ method: 'PUT', url: `/api/departments/${department.id}/settings`, token: admin, payload: { timeZone: 'Europe/Berlin' } });
    await book(bob.token, second.id, '2030-01-21T13:00:00Z', '2030-01-21T15:00:00Z');
    await setClock('2030-01-21T10:00:00Z');
    // 18:00 in Berlin in January is 17:00Z.
    const walkIn = await t.request({ method: 'POST', url: `/api/desks/${desk.id}/walk-in`, token: alice.token });
    expect(walkIn.statusCode).toBe(200);
    expect(walkIn.json()).toMatchObject({ startTime: '2030-01-21T10:00:00.000Z', endTime: '2030-01-21T17:00:00.000Z', attendance: { status: 'CHECKED_IN' } });
    // Taken now: 409 naming the range; and alice has a reservation now.
    // `reason` tells the two apart (docs/errors.md): the web app words "taken" and "you already have one" differently.
    const taken = expectProblem(await t.request({ method: 'POST', url: `/api/desks/${desk.id}/walk-in`, token: bob.token }), 409, 'RESERVATION_CONFLICT');
    expect(taken.reason).toBe('DESK_RESERVED');
    const holding = expectProblem(await t.request({ method: 'POST', url: `/api/desks/${second.id}/walk-in`, token: alice.token }), 409, 'RESERVATION_CONFLICT');
    expect(holding.reason).toBe('USER_OVERLAP');
    expect(holding.conflicts).toEqual([{ startTime: '2030-01-21T10:00:00.000Z', endTime: '2030-01-21T17:00:00.000Z' }]);
    // Until the next reservation.
    const bobs = await t.request({ method: 'POST', url: `/api/desks/${second.id}/walk-in`, token: bob.token });
    expect(bobs.json()).toMatchObject({ endTime: '2030-01-21T13:00:00.000Z' });
    // After the working day: refused.
    await setClock('2030-01-21T17:00:00Z');
    const third = await insertDesk(t.database.handle.db, desk.roomId, { name: 'Third' });
    expectProblem(await t.request({ method: 'POST', url: `/api/desks/${third.id}/walk-in`, token: bob.token }), 409, 'WALK_IN_NOT_POSSIBLE');
    expectProblem(await t.request({ method: 'POST', url: `/api/desks/00000000-0000-4000-8000-000000000000/walk-in`, token: bob.token }), 404);
  });

  it('walk-in: FIXED desks are not bookable', async () => {
    await setClock('2030-01-22T10:00:00Z');
    const { desk } = await insertDeskInNewRoom(t.database.handle.db, { deskType: 'FIXED' });
    expectProblem(await t.request({ method: 'POST', url: `/api/desks/${desk.id}/walk-in`, token: bob.token }), 409, 'DESK_NOT_BOOKABLE');
  });

  it("the desk day: the desk, its room, the day's reservations, others' without ids", async () => {
    await setClock('2030-01-23T08:00:00Z');
    const { desk, room } = await insertDeskInNewRoom(t.database.handle.db);
    const mine = await book(alice.token, desk.id, '2030-01-23T09:00:00Z', '2030-01-23T11:00:00Z');
    await book(bob.token, desk.id, '2030-01-23T12:00:00Z', '2030-01-23T13:00:00Z');
    const day = await t.request({ method: 'GET', url: `/api/desks/${desk.id}/day`, token: alice.token });
    expect(day.statusCode).toBe(200);
    expect(day.json()).toMatchObject({
      desk: { id: desk.id, name: desk.name },
      room: { id: room.id },
      timeZone: 'UTC',
      date: '2030-01-23',
      freeNow: true,
      walkInUntil: '2030-01-23T09:00:00.000Z',
      reservations: [
        { id: mine.id, mine: true, attendance: { status: 'PENDING' } },
        { id: null, mine: false, attendance: null, startTime: '2030-01-23T12:00:00.000Z' },
      ],
    });
    expectProblem(await t.request({ method: 'GET', url: `/api/desks/${desk.id}/day?date=2030-02-30`, token: alice.token }), 400);
  });

  it('QR codes: the PNG decodes to PUBLIC_URL/d/{deskId}; the SVG is an SVG; the room label sheet lists every desk', async () => {
    const { desk, room } = await insertDeskInNewRoom(t.database.handle.db);
    await insertDesk(t.database.handle.db, room.id, { name: 'Window <seat>' });
    const png = await t.request({ method: 'GET', url: `/api/desks/${desk.id}/qr.png`, token: bob.token });
    expect(png.statusCode).toBe(200);
    expect(png.headers['content-type']).toBe('image/png');
    const { data, info } = await sharp(png.rawPayload).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    const decoded = jsQR(new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), info.width, info.height);
    expect(decoded?.data).toBe(`https://desks.example.test/d/${desk.id}`);
    const svg = await t.request({ method: 'GET', url: `/api/desks/${desk.id}/qr.svg`, token: bob.token });
    expect(svg.headers['content-type']).toContain('image/svg+xml');
    expect(svg.body).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);
    expectProblem(await t.request({ method: 'GET', url: `/api/desks/00000000-0000-4000-8000-000000000000/qr.png`, token: bob.token }), 404);
    expectProblem(await t.request({ method: 'GET', url: `/api/rooms/${room.id}/qr-labels`, token: bob.token }), 403);
    const sheet = await t.request({ method: 'GET', url: `/api/rooms/${room.id}/qr-labels`, token: admin });
    expect(sheet.headers['content-type']).toContain('text/html');
    // Its styles come from a same-origin stylesheet, never inline: the web app's copy inherits a CSP without 'unsafe-inline' (docs/behaviour.md#desk-qr-codes).
    expect(sheet.body).not.toMatch(/<style|style=/);
    expect(sheet.body).toContain('<link rel="stylesheet" href="/api/qr-labels.css">');
    expect(sheet.headers['content-security-policy']).toBe("default-src 'none'; style-src 'self'; img-src data:");
    const css = await t.request({ method: 'GET', url: '/api/qr-labels.css' });
    expect(css.statusCode).toBe(200);
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(css.body).toContain('size: A4');
    expect((await t.request({ method: 'GET', url: '/api/qr-labels.css', headers: { 'if-none-match': String(css.headers.etag) } })).statusCode).toBe(304);
    expect(sheet.body).toContain('Window &#60;seat&#62;');
    expect(sheet.body.match(/<figure class="label">/g)).toHaveLength(2);
    expectProblem(await t.request({ method: 'GET', url: `/api/rooms/00000000-0000-4000-8000-000000000000/qr-labels`, token: admin }), 404);
  });

  it('QR codes are drawn once per desk and format, revalidate with their ETag, and the kept codes are bounded (docs/behaviour.md#desk-qr-codes)', async () => {
    const { desk } = await insertDeskInNewRoom(t.database.handle.db);
    const url = `/api/desks/${desk.id}/qr.png`;
    const before = qrCodes.draws;
    const first = await t.request({ method: 'GET', url, token: bob.token });
    expect(first.statusCode).toBe(200);
    expect(qrCodes.draws).toBe(before + 1);
    // Three at once (EXPENSIVE_CONCURRENCY_PER_USER is 3), the id in upper case too: the same drawing.
    const paths = [url, url, `/api/desks/${desk.id.toUpperCase()}/qr.png`];
    const again = await Promise.all(paths.map((path) => t.request({ method: 'GET', url: path, token: bob.token })));
    expect(again.map((response) => response.statusCode)).toEqual([200, 200, 200]);
    for (const response of again) expect(response.rawPayload.equals(first.rawPayload)).toBe(true);
    expect(qrCodes.draws).toBe(before + 1);
    expect(first.headers.etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(first.headers['cache-control']).toBe('private, max-age=86400');
    const notModified = await t.request({ method: 'GET', url, token: bob.token, headers: { 'if-none-match': String(first.headers.etag) } });
    expect(notModified.statusCode).toBe(304);
    expect(notModified.rawPayload.length).toBe(0);
    // A list naming it weakly matches too; another tag gets the code.
    const etag = String(first.headers.etag);
    expect((await t.request({ method: 'GET', url, token: bob.token, headers: { 'if-none-match': `"other", W/${etag}` } })).statusCode).toBe(304);
    expect((await t.request({ method: 'GET', url, token: bob.token, headers: { 'if-none-match': '"other"' } })).statusCode).toBe(200);
    // The SVG is another code, drawn once too.
    await t.request({ method: 'GET', url: `/api/desks/${desk.id}/qr.svg`, token: bob.token });
    await t.request({ method: 'GET', url: `/api/desks/${desk.id}/qr.svg`, token: bob.token });
    expect(qrCodes.draws).toBe(before + 2);
    expect(qrCodes.size).toBeLessThanOrEqual(QR_CACHE_ENTRIES);

    const small = new QrCache(3);
    for (const text of ['a', 'b', 'c', 'a', 'd']) await small.svg(text);
    expect(small.draws).toBe(4);
    expect(small.size).toBe(3);
    // 'b' was the least recently used and was dropped; 'a' was used again and stayed.
    await small.svg('a');
    expect(small.draws).toBe(4);
    await small.svg('b');
    expect(small.draws).toBe(5);
    for (let i = 0; i < 50; i += 1) await small.png(`desk ${i}`);
    expect(small.size).toBe(3);
  });

  it('a check-in does not survive moving the reservation out of its window; it does survive leaving early (docs/behaviour.md#check-in)', async () => {
    await setClock('2030-04-08T08:58:00Z');
    const { desk } = await insertDeskInNewRoom(t.database.handle.db);
    const other = await insertDesk(t.database.handle.db, desk.roomId, { name: 'Moved to' });
    const reservation = await book(alice.token, desk.id, '2030-04-08T09:00:00Z', '2030-04-08T12:00:00Z');
    expect((await checkIn(alice.token, reservation.id)).statusCode).toBe(200);
    const move = (payload: object) => t.request({ method: 'PUT', url: `/api/reservation/${reservation.id}`, token: alice.token, payload });

    // Leaving early and changing desks during the stay keep the check-in.
    expect((await move({ endTime: '2030-04-08T11:00:00Z' })).statusCode).toBe(200);
    expect((await move({ deskId: other.id })).statusCode).toBe(200);
    expect(await attendanceOf(reservation.id)).toMatchObject({ status: 'CHECKED_IN', checkedInAt: '2030-04-08T08:58:00.000Z' });

    // Two days later: planned anew, the check-in forgotten, released on the new day if nobody comes.
    const moved = await move({ startTime: '2030-04-10T09:00:00Z', endTime: '2030-04-10T12:00:00Z' });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(await attendanceOf(reservation.id)).toMatchObject({
      status: 'PENDING',
      checkedInAt: null,
      checkInOpensAt: '2030-04-10T08:45:00.000Z',
      releaseAt: '2030-04-10T09:20:00.000Z',
    });
    expectProblem(await checkIn(alice.token, reservation.id), 409, 'CHECK_IN_NOT_OPEN');

    // A walk-in moved five days later likewise.
    await setClock('2030-04-08T13:00:00Z');
    const walkIn = await t.request({ method: 'POST', url: `/api/desks/${desk.id}/walk-in`, token: bob.token });
    expect(walkIn.statusCode, walkIn.body).toBe(200);
    const walkInId = walkIn.json<{ reservationId: string }>().reservationId;
    const later = await t.request({
      method: 'PUT',
      url: `/api/reservation/${walkInId}`,
      token: bob.token,
      payload: { startTime: '2030-04-13T09:00:00Z', endTime: '2030-04-13T12:00:00Z' },
    });
    expect(later.statusCode, later.body).toBe(200);
    expect(await attendanceOf(walkInId)).toMatchObject({ status: 'PENDING', checkedInAt: null, releaseAt: '2030-04-13T09:20:00.000Z' });
  });

  it('lists attendance with filters (admins) and own only (users); daily no-show rates in SQL', async () => {
    await setClock('2030-02-04T08:00:00Z');
    const { department, desk } = await insertDeskInNewRoom(t.database.handle.db);
    const other = await insertDesk(t.database.handle.db, desk.roomId, { name: 'Other' });
    const a = await book(alice.token, desk.id, '2030-02-04T09:00:00Z', '2030-02-04T12:00:00Z');
    await book(bob.token, other.id, '2030-02-04T09:00:00Z', '2030-02-04T12:00:00Z');
    await setClock('2030-02-04T09:00:00Z');
    const checkedIn = await checkIn(alice.token, a.id);
    expect(checkedIn.statusCode, checkedIn.body).toBe(200);
    await setClock('2030-02-04T09:21:00Z');
    await t.app.background.releaseRound();
    const noShows = await t.request({ method: 'GET', url: `/api/attendance?departmentId=${department.id}&status=NO_SHOW`, token: admin });
    expect(noShows.json().totalElements).toBe(1);
    const all = await t.request({ method: 'GET', url: `/api/attendance?departmentId=${department.id}&sort=status`, token: admin });
    expect(all.json().content.map((row: { status: string }) => row.status)).toEqual(['CHECKED_IN', 'NO_SHOW']);
    const own = await t.request({ method: 'GET', url: `/api/attendance?departmentId=${department.id}`, token: alice.token });
    expect(own.json().content).toEqual([expect.objectContaining({ userId: alice.id })]);
    expectProblem(await t.request({ method: 'GET', url: `/api/attendance?userId=${bob.id}`, token: alice.token }), 403);
    const stats = await t.request({ method: 'GET', url: `/api/stats/no-shows?from=2030-02-03&to=2030-02-05&departmentId=${department.id}`, token: admin });
    expect(stats.json()).toEqual({
      timeZone: 'UTC',
      days: [
        { date: '2030-02-03', reservations: 0, checkedIn: 0, noShows: 0, pending: 0, notRequired: 0, noShowRate: null },
        { date: '2030-02-04', reservations: 2, checkedIn: 1, noShows: 1, pending: 0, notRequired: 0, noShowRate: 0.5 },
        { date: '2030-02-05', reservations: 0, checkedIn: 0, noShows: 0, pending: 0, notRequired: 0, noShowRate: null },
      ],
    });
    expectProblem(await t.request({ method: 'GET', url: '/api/stats/no-shows?from=2030-02-03&to=2030-02-05', token: bob.token }), 403);
    expectProblem(await t.request({ method: 'GET', url: '/api/stats/no-shows?from=2030-02-05&to=2030-02-03', token: admin }), 400);
    expectProblem(await t.request({ method: 'GET', url: '/api/stats/no-shows?from=2030-01-01&to=2031-06-01', token: admin }), 400);
  });
});

describe('release after downtime', () => {
  it('a process started after the deadline releases what fell due while none ran', async () => {
    const database = await createTestDatabase();
    const clock = new TestClock(at('2030-03-04T08:00:00Z'));
    const env = { CHECK_IN_REQUIRED: 'true', ATTENDANCE_RELEASE_INTERVAL: '100ms' };
    const first = await createTestApp({ database, clock, env });
    const { desk } = await insertDeskInNewRoom(database.handle.db);
    const admin = await first.adminToken();
    const booked = await first.request({
      method: 'POST',
      url: '/api/reservation',
      token: admin,
      payload: { deskId: desk.id, startTime: '2030-03-04T09:00:00Z', endTime: '2030-03-04T17:00:00Z' },
    });
    const id = booked.json<{ id: string }>().id;
    await first.close();
    // Down over the deadline (and past the end): released at the next start, the end kept.
    clock.set(at('2030-03-04T18:00:00Z'));
    const second = await createTestApp({ database, clock, env });
    try {
      const token = await second.adminToken();
      await second.request({ method: 'PATCH', url: '/api/organisation/settings', token, payload: { worksCouncilMode: false } });
      await second.app.background.releaseRound();
      const body = (await second.request({ method: 'GET', url: `/api/reservation/${id}/attendance`, token })).json();
      expect(body).toMatchObject({ status: 'NO_SHOW', releasedAt: '2030-03-04T18:00:00.000Z', endTime: '2030-03-04T17:00:00.000Z' });
    } finally {
      await second.close();
      await database.dispose();
    }
  });
});
