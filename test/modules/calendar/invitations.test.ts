import { sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows, type Database } from '../../../src/db/client.js';
import { SmtpMailer, type Mail, type Mailer } from '../../../src/infrastructure/mail/mailer.js';
import { AttendanceRepository } from '../../../src/modules/attendance/attendance.repository.js';
import { Outbox } from '../../../src/infrastructure/outbox/outbox.js';
import { INVITATION_KIND, invitationKind } from '../../../src/modules/calendar/calendar.invitations.js';
import { createTestApp, TestClock, type TestApp, type UserBody } from '../../helpers/app.js';
import { insertDepartment, insertDesk, insertRoom } from '../../helpers/fixtures.js';
import { parseCalendar } from '../../helpers/ical.js';
import { startSmtp, type ReceivedMail, type TestSmtp } from '../../helpers/smtp.js';

/**
 * Invitation mails (docs/behaviour.md#invitation-mails): iTIP REQUEST and CANCEL received by a
 * real SMTP server and parsed with ical.js, the per-user switch, one mail per series, and the
 * outbox's delivery guarantees with a claimer that dies and an SMTP server that refuses.
 */

const PUBLIC_URL = 'https://desk.example.test';
const MAIL_FROM = 'Deskbook Test <no-reply@desk.example.test>';
const PASSWORD = 'invite-password-1';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const LEASE = 120_000;
const silent = pino({ level: 'silent' });

describe('invitation mails', () => {
  let smtp: TestSmtp;
  let t: TestApp;
  let db: Database;
  let deskId: string;
  let users = 0;
  const base = Math.ceil(Date.now() / HOUR) * HOUR;
  const at = (offsetMs: number) => new Date(base + offsetMs).toISOString();

  async function freshUser(): Promise<{ user: UserBody; token: string }> {
    users += 1;
    const user = await t.createUser({ email: `invite.${users}@example.test`, firstName: 'Ivy', lastName: `Invite${users}`, password: PASSWORD });
    return { user, token: (await t.login(user.email, PASSWORD)).accessToken };
  }
  const book = async (token: string, startOffset: number, hours = 8) => {
    const response = await t.request({
      method: 'POST',
      url: '/api/reservation',
      token,
      payload: { deskId, startTime: at(startOffset), endTime: at(startOffset + hours * HOUR) },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ id: string }>().id;
  };
  const mailTo = (email: string, since: number, timeoutMs = 10_000) =>
    smtp.waitForMail((mail) => mail.seq >= since && mail.envelopeTo.includes(email) && mail.calendar !== undefined, timeoutMs);
  const invitationOf = (mail: ReceivedMail) => {
    expect(mail.calendar, mail.raw).toBeDefined();
    const parsed = parseCalendar(mail.calendar!.content);
    expect(parsed.method).toBe(mail.calendar!.method);
    return parsed;
  };

  beforeAll(async () => {
    smtp = await startSmtp();
    t = await createTestApp({ env: { SMTP_URL: smtp.url, PUBLIC_URL, MAIL_FROM, OUTBOX_INTERVAL: '100ms' } });
    db = t.database.handle.db;
    const department = await insertDepartment(db, { location: 'Berlin', building: 'HQ', floor: 3 });
    const room = await insertRoom(db, department.id, { name: 'Atlas' });
    deskId = (await insertDesk(db, room.id, { name: 'A-01' })).id;
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.stop();
  });

  it('mails REQUEST on booking and change, then CANCEL with the same UID and a higher SEQUENCE', async () => {
    const { user, token } = await freshUser();
    let since = smtp.mails.length;
    const id = await book(token, DAY);
    const booked = await mailTo(user.email, since);
    expect(booked.subject).toBe(`Booked: Desk A-01 on ${at(DAY).slice(0, 10)}`);
    expect(booked.text).toContain(`${PUBLIC_URL}/reservations?reservation=${id}`);
    expect(booked.calendar!.method).toBe('REQUEST');
    const request = invitationOf(booked);
    expect(request.events).toHaveLength(1);
    expect(request.events[0]).toMatchObject({
      uid: `${id}@desk.example.test`,
      sequence: 0,
      status: 'CONFIRMED',
      start: at(DAY),
      end: at(DAY + 8 * HOUR),
      startIsUtc: true,
      location: 'Berlin · HQ · Floor 3 · Atlas · A-01',
      url: `${PUBLIC_URL}/reservations?reservation=${id}`,
      organizer: 'mailto:no-reply@desk.example.test',
      attendees: [`mailto:${user.email}`],
    });

    expect(booked.calendar!.content).toMatch(/ATTENDEE;[^\n]*PARTSTAT=ACCEPTED/);
    expect(booked.calendar!.content).toMatch(/ATTENDEE;[^\n]*RSVP=FALSE/);

    since = smtp.mails.length;
    await t.request({ method: 'PUT', url: `/api/reservation/${id}`, token, payload: { endTime: at(DAY + 4 * HOUR) } });
    const changed = await mailTo(user.email, since);
    expect(changed.subject).toMatch(/^Changed: /);
    expect(invitationOf(changed).events[0]).toMatchObject({ uid: `${id}@desk.example.test`, sequence: 1, end: at(DAY + 4 * HOUR) });

    since = smtp.mails.length;
    await t.request({ method: 'DELETE', url: `/api/reservation/${id}`, token });
    const cancelled = await mailTo(user.email, since);
    expect(cancelled.subject).toMatch(/^Cancelled: /);
    expect(cancelled.calendar!.method).toBe('CANCEL');
    expect(invitationOf(cancelled).events[0]).toMatchObject({ uid: `${id}@desk.example.test`, sequence: 2, status: 'CANCELLED' });
  });

  it('sends nothing to a user who switched the mails off, and again once switched on', async () => {
    const quiet = await freshUser();
    const other = await freshUser();
    const settings = (token: string) => t.request({ method: 'GET', url: '/api/self/calendar-settings', token });
    expect((await settings(quiet.token)).json()).toEqual({ invitationMails: true });
    const off = await t.request({ method: 'PUT', url: '/api/self/calendar-settings', token: quiet.token, payload: { invitationMails: false } });
    expect(off.json()).toEqual({ invitationMails: false });
    expect((await settings(quiet.token)).json()).toEqual({ invitationMails: false });
    expect(
      (await t.request({ method: 'PUT', url: '/api/self/calendar-settings', token: quiet.token, payload: { invitationMails: false, extra: 1 } })).statusCode,
    ).toBe(400);

    const since = smtp.mails.length;
    await book(quiet.token, 2 * DAY);
    // The sender works through the outbox in order: once the later booking's mail is here, the first was dropped.
    await book(other.token, 3 * DAY);
    await mailTo(other.user.email, since);
    expect(smtp.mails.filter((mail) => mail.seq >= since && mail.envelopeTo.includes(quiet.user.email) && mail.calendar !== undefined)).toHaveLength(0);
    expect(
      (
        await queryRows<{ n: number }>(db, sql`select count(*)::int as n from outbox where group_key = ${quiet.user.id} and status in ('pending', 'sending')`)
      )[0]!.n,
    ).toBe(0);

    await t.request({ method: 'PUT', url: '/api/self/calendar-settings', token: quiet.token, payload: { invitationMails: true } });
    const again = smtp.mails.length;
    await book(quiet.token, 4 * DAY);
    expect((await mailTo(quiet.user.email, again)).calendar!.method).toBe('REQUEST');
  });
});

describe('invitation outbox', () => {
  let smtp: TestSmtp;
  let t: TestApp;
  let db: Database;
  let deskId: string;
  let users = 0;
  /** The senders' clock, moved past leases and retry delays (the app keeps its own, so sign-ins stay valid). */
  const clock = new TestClock();
  const base = Math.ceil(Date.now() / HOUR) * HOUR;
  const at = (offsetMs: number) => new Date(base + offsetMs).toISOString();
  const smtpMailer = () => new SmtpMailer(smtp.url, MAIL_FROM, silent);
  /** An outbox of its own (as in another process) sending invitations only, on the test's clock. */
  const outboxWith = (mailer: Mailer, mailsPerHour = 10) => {
    const own = new Outbox(db, clock, silent, { leaseMs: LEASE });
    own.register(invitationKind(db, mailer, clock, { publicUrl: PUBLIC_URL, mailFrom: MAIL_FROM, mailsPerHour }));
    return own;
  };
  /** One drain of such an outbox: the invitation mails it sent. */
  const sender = (mailer: Mailer, mailsPerHour = 10) => ({ runOnce: async () => (await outboxWith(mailer, mailsPerHour).drain()).sent });
  /** Invitation rows still to send (sent rows stay, kept for MAIL_RETENTION). */
  const outbox = async () =>
    (await queryRows<{ n: number }>(db, sql`select count(*)::int as n from outbox where kind = ${INVITATION_KIND} and status in ('pending', 'sending')`))[0]!.n;

  /** A user with `count` reservations (booked by the admin, one a day from tomorrow); the outbox is emptied of them. */
  async function userWithReservations(count: number): Promise<{ user: UserBody; ids: string[] }> {
    users += 1;
    const user = await t.createUser({ email: `outbox.${users}@example.test`, password: PASSWORD });
    const ids: string[] = [];
    for (let day = 1; day <= count; day++) {
      const response = await t.request({
        method: 'POST',
        url: '/api/reservation',
        token: await t.adminToken(),
        payload: { deskId, userId: user.id, startTime: at(day * DAY + users * HOUR), endTime: at(day * DAY + users * HOUR + HOUR) },
      });
      expect(response.statusCode, response.body).toBe(200);
      ids.push(response.json<{ id: string }>().id);
    }
    return { user, ids };
  }

  beforeAll(async () => {
    smtp = await startSmtp();
    // No sender of the app's own: each test drives its senders.
    t = await createTestApp({ env: { SMTP_URL: smtp.url, PUBLIC_URL, MAIL_FROM, OUTBOX_INTERVAL: '0' } });
    db = t.database.handle.db;
    const room = await insertRoom(db, (await insertDepartment(db)).id, { name: 'Room' });
    deskId = (await insertDesk(db, room.id, { name: 'B-01' })).id;
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.stop();
  });

  it('queues one row per change in the writing transaction, and nothing for a refused booking', async () => {
    const before = await outbox();
    const { ids } = await userWithReservations(1);
    expect(await outbox()).toBe(before + 1);
    const clash = await t.request({
      method: 'POST',
      url: '/api/reservation',
      token: await t.adminToken(),
      payload: { deskId, startTime: at(DAY + users * HOUR), endTime: at(DAY + users * HOUR + HOUR) },
    });
    expect(clash.statusCode).toBe(409);
    expect(await outbox()).toBe(before + 1);
    expect(ids).toHaveLength(1);
    await sender(smtpMailer()).runOnce();
    expect(await outbox()).toBe(0);
  });

  it('sends one mail per series, with one VEVENT per occurrence, even with two senders at once', async () => {
    const { user, ids } = await userWithReservations(4);
    const seriesId = '5e71e500-0000-4000-8000-000000000001';
    // Reservations have no series yet on this branch: the rows of a series are written as the trigger will write them.
    await db.execute(sql`delete from outbox where group_key = ${user.id}`);
    for (const id of ids) {
      await db.execute(
        sql`insert into outbox (kind, group_key, topic, payload)
            values (${INVITATION_KIND}, ${user.id}, ${seriesId}, jsonb_build_object('reservationId', ${id}::text, 'seriesId', ${seriesId}::text))`,
      );
    }
    const since = smtp.mails.length;
    const [a, b] = await Promise.all([sender(smtpMailer()).runOnce(), sender(smtpMailer()).runOnce()]);
    expect(a + b).toBe(1);
    const mails = smtp.mails.filter((mail) => mail.seq >= since && mail.envelopeTo.includes(user.email) && mail.calendar !== undefined);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toMatch(/^Booked: Desk B-01, 4 dates from /);
    const parsed = parseCalendar(mails[0]!.calendar!.content);
    expect(parsed.method).toBe('REQUEST');
    expect(parsed.events.map((event) => event.uid.split('@')[0]).sort()).toEqual([...ids].sort());
    expect(await outbox()).toBe(0);
  });

  it('retries rows a crashed claimer left, after the lease, and never sends an acknowledged mail twice', async () => {
    const { user, ids } = await userWithReservations(1);
    // A process claims the row and dies before sending (its claim is never settled).
    const dying = await outboxWith(smtpMailer()).claim(INVITATION_KIND);
    expect(dying?.rows.map((row) => row.payload)).toEqual([{ reservationId: ids[0], seriesId: null }]);
    const claimed = await queryRows<{ claim_token: string | null; status: string; attempts: number }>(
      db,
      sql`select claim_token, status, attempts from outbox where group_key = ${user.id}`,
    );
    expect(claimed).toHaveLength(1);
    expect(claimed[0]).toMatchObject({ status: 'sending', attempts: 1 });
    expect(claimed[0]!.claim_token).not.toBeNull();

    const since = smtp.mails.length;
    // Within the lease the rows stay with the (dead) claimer.
    clock.advance(LEASE - 1000);
    expect(await sender(smtpMailer()).runOnce()).toBe(0);
    clock.advance(2000);
    expect(await sender(smtpMailer()).runOnce()).toBe(1);
    const mail = await smtp.waitForMail((candidate) => candidate.seq >= since && candidate.envelopeTo.includes(user.email) && candidate.calendar !== undefined);
    expect(parseCalendar(mail.calendar!.content).events[0]!.uid).toBe(`${ids[0]}@desk.example.test`);

    // Acknowledged: later passes, after any lease, find nothing.
    clock.advance(10 * LEASE);
    expect(await sender(smtpMailer()).runOnce()).toBe(0);
    expect(
      smtp.mails.filter((candidate) => candidate.seq >= since && candidate.envelopeTo.includes(user.email) && candidate.calendar !== undefined),
    ).toHaveLength(1);
  });

  it('retries a mail the SMTP server refused, a minute later', async () => {
    const { user } = await userWithReservations(1);
    const refusing: Mailer = { send: async () => false, close: () => {} };
    expect(await sender(refusing).runOnce()).toBe(0);
    const since = smtp.mails.length;
    clock.advance(30_000);
    expect(await sender(smtpMailer()).runOnce()).toBe(0);
    clock.advance(31_000);
    expect(await sender(smtpMailer()).runOnce()).toBe(1);
    await smtp.waitForMail((mail) => mail.seq >= since && mail.envelopeTo.includes(user.email) && mail.calendar !== undefined);
  });

  it('without SMTP, empties the queue unsent', async () => {
    await userWithReservations(2);
    expect(await outbox()).toBeGreaterThan(0);
    const unconfigured = new Outbox(db, clock, silent, { leaseMs: LEASE });
    unconfigured.discard(INVITATION_KIND, 'SMTP_URL is not configured');
    expect((await unconfigured.drain()).sent).toBe(0);
    expect(await outbox()).toBe(0);
  });

  it('mails the latest state once for several queued changes, and nothing for ended reservations', async () => {
    const { user, ids } = await userWithReservations(1);
    const token = await t.adminToken();
    await t.request({ method: 'PUT', url: `/api/reservation/${ids[0]}`, token, payload: { endTime: at(DAY + users * HOUR + 2 * HOUR) } });
    const since = smtp.mails.length;
    expect(await sender(smtpMailer()).runOnce()).toBe(1);
    const mail = await smtp.waitForMail((candidate) => candidate.seq >= since && candidate.envelopeTo.includes(user.email) && candidate.calendar !== undefined);
    expect(parseCalendar(mail.calendar!.content).events[0]).toMatchObject({ sequence: 1, end: at(DAY + users * HOUR + 2 * HOUR) });

    const past = await t.request({
      method: 'POST',
      url: '/api/reservation',
      token,
      payload: { deskId, userId: user.id, startTime: at(-3 * DAY), endTime: at(-3 * DAY + HOUR) },
    });
    expect(past.statusCode).toBe(200);
    expect(await sender(smtpMailer()).runOnce()).toBe(0);
    expect(await outbox()).toBe(0);
  });
  // ---- bounds (docs/behaviour.md#invitation-mails) ----------------------------------------------

  /** A mailer that keeps what it is given, in order. */
  const recorder = () => {
    const mails: Mail[] = [];
    const mailer: Mailer = { send: async (mail) => (mails.push(mail), true), close: () => {} };
    return { mails, mailer };
  };
  const senderWith = (mailer: Mailer, mailsPerHour: number) => sender(mailer, mailsPerHour);
  /** One more reservation for `userId`, booked by the admin `day` days from now. */
  const bookFor = async (userId: string, day: number) => {
    const response = await t.request({
      method: 'POST',
      url: '/api/reservation',
      token: await t.adminToken(),
      payload: { deskId, userId, startTime: at(day * DAY + users * HOUR), endTime: at(day * DAY + users * HOUR + HOUR) },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ id: string }>().id;
  };
  const drain = async () => {
    // A fresh hour of the day for the next users (an earlier test lengthened its reservation by one).
    users += 1;
    await senderWith(recorder().mailer, 1000).runOnce();
    expect(await outbox()).toBe(0);
  };

  it('serves people in turn, not the oldest row first: one person’s many changes do not hold up another’s mail', async () => {
    await drain();
    const many = await userWithReservations(4);
    const one = await userWithReservations(1);
    const { mails, mailer } = recorder();
    expect(await senderWith(mailer, 10).runOnce()).toBe(5);
    expect(mails.map((mail) => mail.to)).toEqual([many.user.email, one.user.email, many.user.email, many.user.email, many.user.email]);
  });

  it('sends a person at most CALENDAR_MAILS_PER_HOUR mails an hour, folding the rest into one', async () => {
    await drain();
    // Five changes, three mails left: all five go out as one mail.
    const { user, ids } = await userWithReservations(5);
    const first = recorder();
    expect(await senderWith(first.mailer, 3).runOnce()).toBe(1);
    expect(first.mails).toHaveLength(1);
    expect(
      parseCalendar(first.mails[0]!.calendar!.content)
        .events.map((event) => event.uid.split('@')[0])
        .sort(),
    ).toEqual([...ids].sort());
    // Two more, two mails left: one each.
    await bookFor(user.id, 10);
    await bookFor(user.id, 11);
    const second = recorder();
    expect(await senderWith(second.mailer, 3).runOnce()).toBe(2);
    // The hour's three are spent: the next change waits, then goes out when the hour is over.
    const later = await bookFor(user.id, 12);
    const third = recorder();
    expect(await senderWith(third.mailer, 3).runOnce()).toBe(0);
    expect(await outbox()).toBe(1);
    clock.advance(HOUR);
    expect(await senderWith(third.mailer, 3).runOnce()).toBe(1);
    expect(parseCalendar(third.mails[0]!.calendar!.content).events[0]!.uid).toBe(`${later}@desk.example.test`);
  });

  it('mails no cancellation of an invitation that never went out', async () => {
    await drain();
    const admin = await t.adminToken();
    // Booked and cancelled before any mail: no trace, nothing sent.
    const { user, ids } = await userWithReservations(1);
    expect((await t.request({ method: 'DELETE', url: `/api/reservation/${ids[0]}`, token: admin })).statusCode).toBe(204);
    expect(await outbox()).toBe(0);
    // The same with a feed read since (a tombstone stays for the calendar app), still no mail.
    await db.execute(sql`insert into calendar_feeds (user_id, token_hash, created_at) values (${user.id}, ${`bounds-${user.id}`}, now())`);
    const id = await bookFor(user.id, 20);
    await db.execute(sql`update calendar_feeds set fetched_at = now() where user_id = ${user.id}`);
    expect((await t.request({ method: 'DELETE', url: `/api/reservation/${id}`, token: admin })).statusCode).toBe(204);
    const { mails, mailer } = recorder();
    expect(await senderWith(mailer, 10).runOnce()).toBe(0);
    expect(mails).toHaveLength(0);
    expect(await outbox()).toBe(0);
    const [tombstone] = await queryRows<{ cancelled: boolean }>(
      db,
      sql`select cancelled_at is not null as cancelled from calendar_events where reservation_id = ${id}`,
    );
    expect(tombstone?.cancelled).toBe(true);
  });

  it('mails METHOD:CANCEL for a reservation released as a no-show (its end cut to the release)', async () => {
    await drain();
    const { user, ids } = await userWithReservations(1);
    const invited = recorder();
    expect(await senderWith(invited.mailer, 10).runOnce()).toBe(1);
    const [row] = await queryRows<{ start_time: string }>(db, sql`select start_time::text from reservations where id = ${ids[0]}`);
    const start = new Date(row!.start_time);
    // Nobody checked in: due 30 minutes after the start, released then (docs/behaviour.md#release-of-no-shows).
    await db.execute(
      sql`update attendance set status = 'PENDING', release_at = ${new Date(start.getTime() + 30 * 60_000).toISOString()}::timestamptz where reservation_id = ${ids[0]}`,
    );
    clock.set(new Date(start.getTime() + 30 * 60_000));
    const { released } = await new AttendanceRepository(db).releaseDue(clock.now(), 10);
    expect(released).toBe(1);
    clock.advance(60_000);
    const { mails, mailer } = recorder();
    expect(await senderWith(mailer, 10).runOnce()).toBe(1);
    expect(mails[0]!.to).toBe(user.email);
    expect(mails[0]!.calendar!.method).toBe('CANCEL');
    expect(parseCalendar(mails[0]!.calendar!.content).events[0]).toMatchObject({ uid: `${ids[0]}@desk.example.test`, status: 'CANCELLED' });
  });
});
