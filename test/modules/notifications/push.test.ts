import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows, type Database } from '../../../src/db/client.js';
import { createTestApp, drainOutbox, expectProblem, TestClock, type TestApp, type UserBody } from '../../helpers/app.js';
import { createTestDatabase } from '../../helpers/database.js';
import { insertDepartment, insertDesk, insertRoom } from '../../helpers/fixtures.js';
import { startPushService, type TestBrowser, type TestPushService } from '../../helpers/push-service.js';
import { startSmtp, type TestSmtp } from '../../helpers/smtp.js';

/**
 * Push reminders end to end (docs/notifications.md): the pushes go through the outbox to a push
 * service this test runs (test/helpers/push-service.ts), which checks the VAPID JWT against the key
 * the server publishes and decrypts each payload with the test browser's own keys. The four events,
 * the switches gating mail and push, 410 (the subscription is removed), a retry after 503, and two
 * processes draining one outbox (each push once).
 */

const PASSWORD = 'push-password-1';
const NOW = new Date('2030-05-06T07:00:00.000Z');
const HOUR = 3_600_000;
const at = (hours: number) => new Date(NOW.getTime() + hours * HOUR).toISOString();
const ENV = {
  PUSH_ALLOW_LOOPBACK: 'true',
  PUSH_SUBSCRIPTIONS_PER_USER: '3',
  CHECK_IN_REQUIRED: 'true',
  PUBLIC_URL: 'https://desks.example.test',
};

describe('push notifications', () => {
  let t: TestApp;
  let db: Database;
  let push: TestPushService;
  let smtp: TestSmtp;
  let admin: string;
  let publicKey: string;
  const people: Record<'alice' | 'bob', { user: UserBody; token: string }> = {} as never;
  let deskId: string;
  let approvalRoomDesk: string;
  let slot = 0;

  const nextSlot = () => {
    slot += 3;
    return { startTime: at(24 + slot), endTime: at(26 + slot) };
  };
  const subscribe = (token: string, subscription: object) => t.request({ method: 'POST', url: '/api/self/push-subscriptions', token, payload: subscription });
  const subscribed = async (token: string): Promise<TestBrowser & { subscriptionId: string }> => {
    const browser = push.browser();
    const response = await subscribe(token, browser.subscription);
    expect(response.statusCode, response.body).toBe(200);
    return Object.assign(browser, { subscriptionId: response.json<{ id: string }>().id });
  };
  const preferences = (token: string, events: unknown[]) => t.request({ method: 'PUT', url: '/api/self/notification-preferences', token, payload: { events } });
  const bookFor = async (userId: string, span = nextSlot(), desk = deskId) => {
    const response = await t.request({ method: 'POST', url: '/api/reservation', token: admin, payload: { deskId: desk, userId, ...span } });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ id: string }>().id;
  };
  const pushesTo = (browser: TestBrowser) => push.received.filter((received) => received.browserId === browser.id && received.status === 201);
  const mailsTo = (address: string, subject: RegExp) => smtp.mails.filter((mail) => mail.to.includes(address) && subject.test(mail.subject));
  const subscriptionCount = async (userId: string) =>
    (await queryRows<{ n: number }>(db, sql`select count(*)::int as n from push_subscriptions where user_id = ${userId}`))[0]!.n;

  beforeAll(async () => {
    push = await startPushService();
    smtp = await startSmtp();
    t = await createTestApp({ clock: new TestClock(NOW), env: { ...ENV, SMTP_URL: smtp.url } });
    db = t.database.handle.db;
    admin = await t.adminToken();
    for (const name of ['alice', 'bob'] as const) {
      const user = await t.createUser({ email: `${name}@example.test`, firstName: name, lastName: 'Test', password: PASSWORD });
      people[name] = { user, token: (await t.login(user.email, PASSWORD)).accessToken };
    }
    const department = await insertDepartment(db, { location: 'Berlin', building: 'HQ', floor: 1 });
    const room = await insertRoom(db, department.id, { name: 'Open space', available: true });
    deskId = (await insertDesk(db, room.id, { name: 'O-7' })).id;
    const approvalRoom = await insertRoom(db, department.id, { name: 'Board room', available: true });
    approvalRoomDesk = (await insertDesk(db, approvalRoom.id, { name: 'B-1' })).id;
    const key = await t.request({ method: 'GET', url: '/api/push/key', token: people.alice.token });
    expect(key.statusCode).toBe(200);
    publicKey = key.json<{ publicKey: string }>().publicKey;
    push.expectKey(publicKey);
  });
  afterAll(async () => {
    await t?.close();
    await push?.stop();
    await smtp?.stop();
    // Every push that arrived passed the push service's checks (VAPID, encryption).
    expect(push?.refused ?? []).toEqual([]);
  });

  it('publishes one VAPID public key (an uncompressed P-256 point), the same for every process of one database', async () => {
    expect(Buffer.from(publicKey, 'base64url')).toHaveLength(65);
    expect(Buffer.from(publicKey, 'base64url')[0]).toBe(4);
    const second = await createTestApp({ database: t.database, clock: t.clock, env: ENV });
    try {
      const key = await second.request({ method: 'GET', url: '/api/push/key', token: await second.adminToken() });
      expect(key.json()).toEqual({ publicKey });
    } finally {
      await second.close();
    }
    expectProblem(await t.request({ method: 'GET', url: '/api/push/key' }), 401, 'UNAUTHENTICATED');
  });

  it('makes one key pair when two processes start on a fresh database at once', async () => {
    const database = await createTestDatabase();
    try {
      const apps = await Promise.all([createTestApp({ database, env: ENV }), createTestApp({ database, env: ENV })]);
      try {
        const keys = await Promise.all(
          apps.map(
            async (app) => (await app.request({ method: 'GET', url: '/api/push/key', token: await app.adminToken() })).json<{ publicKey: string }>().publicKey,
          ),
        );
        expect(keys[0]).toBe(keys[1]);
        expect(await queryRows(database.handle.db, sql`select public_key from push_vapid_keys`)).toEqual([{ public_key: keys[0] }]);
      } finally {
        await Promise.all(apps.map((app) => app.close()));
      }
    } finally {
      await database.dispose();
    }
  });

  it('refuses a subscription it should not send to, or with keys of the wrong size, with a 400 naming the field', async () => {
    const browser = push.browser().subscription;
    const field = async (payload: object, name: string) => {
      const problem = expectProblem(await subscribe(people.bob.token, payload), 400, 'VALIDATION_FAILED');
      expect(problem.errors?.map((error) => error.field)).toContain(name);
    };
    await field({ ...browser, endpoint: 'http://push.example.test/x' }, 'endpoint');
    await field({ ...browser, endpoint: 'https://push.example.test/x' }, 'endpoint');
    await field({ ...browser, endpoint: 'https://fcm.googleapis.com:8443/x' }, 'endpoint');
    await field({ ...browser, endpoint: 'https://user:pw@fcm.googleapis.com/x' }, 'endpoint');
    await field({ ...browser, endpoint: `https://fcm.googleapis.com/${'a'.repeat(2100)}` }, 'endpoint');
    await field({ ...browser, keys: { ...browser.keys, p256dh: Buffer.alloc(65, 5).toString('base64url') } }, 'keys.p256dh');
    await field({ ...browser, keys: { ...browser.keys, auth: Buffer.alloc(20, 1).toString('base64url') } }, 'keys.auth');
    await field({ ...browser, keys: { ...browser.keys, auth: 'not base64url!!!!!!!' } }, 'keys.auth');
    await field({ endpoint: browser.endpoint }, 'keys');
    expect(await subscriptionCount(people.bob.user.id)).toBe(0);
    // A real push service's https endpoint is accepted (and removed again).
    const fcm = await subscribe(people.bob.token, { ...browser, endpoint: 'https://fcm.googleapis.com/fcm/send/abc', expirationTime: null });
    expect(fcm.statusCode, fcm.body).toBe(200);
    const removed = await t.request({ method: 'DELETE', url: `/api/self/push-subscriptions/${fcm.json<{ id: string }>().id}`, token: people.bob.token });
    expect(removed.statusCode).toBe(204);
  });

  it('lists, caps (409) and deletes only the caller’s own subscriptions; the same endpoint again replaces the earlier one', async () => {
    const browsers = [push.browser(), push.browser(), push.browser()];
    const ids: string[] = [];
    for (const browser of browsers) ids.push((await subscribe(people.bob.token, browser.subscription)).json<{ id: string }>().id);
    expectProblem(await subscribe(people.bob.token, push.browser().subscription), 409, 'TOO_MANY_PUSH_SUBSCRIPTIONS');
    // The same browser subscribing anew is no fourth one.
    const again = await subscribe(people.bob.token, browsers[0]!.subscription);
    expect(again.statusCode).toBe(200);
    const list = await t.request({ method: 'GET', url: '/api/self/push-subscriptions', token: people.bob.token });
    expect(
      list
        .json<Array<{ id: string; endpoint: string }>>()
        .map((entry) => entry.endpoint)
        .sort(),
    ).toEqual(browsers.map((b) => b.subscription.endpoint).sort());
    expect((await t.request({ method: 'GET', url: '/api/self/push-subscriptions', token: people.alice.token })).json()).toEqual([]);
    expectProblem(await t.request({ method: 'DELETE', url: `/api/self/push-subscriptions/${ids[1]}`, token: people.alice.token }), 404, 'NOT_FOUND');
    // Another person signing in in that browser takes the endpoint over.
    const taken = await subscribe(people.alice.token, browsers[2]!.subscription);
    expect(taken.statusCode).toBe(200);
    expect(await subscriptionCount(people.bob.user.id)).toBe(2);
    for (const id of [ids[1]!, taken.json<{ id: string }>().id]) {
      const owner = id === ids[1] ? people.bob.token : people.alice.token;
      expect((await t.request({ method: 'DELETE', url: `/api/self/push-subscriptions/${id}`, token: owner })).statusCode).toBe(204);
    }
    await db.execute(sql`delete from push_subscriptions`);
  });

  it('answers the switches with their defaults, sets those given, and refuses a mail switch for an event without mail', async () => {
    const read = await t.request({ method: 'GET', url: '/api/self/notification-preferences', token: people.bob.token });
    expect(read.json()).toEqual({
      events: [
        { event: 'check-in-open', push: true, mail: null },
        { event: 'released', push: true, mail: true },
        { event: 'approval-decided', push: true, mail: true },
        { event: 'booked-by-others', push: true, mail: true },
      ],
    });
    const problem = expectProblem(await preferences(people.bob.token, [{ event: 'check-in-open', mail: true }]), 400, 'VALIDATION_FAILED');
    expect(problem.errors?.map((error) => error.field)).toEqual(['events.0.mail']);
    expectProblem(await preferences(people.bob.token, [{ event: 'lunch', push: true }]), 400, 'VALIDATION_FAILED');
    const set = await preferences(people.bob.token, [{ event: 'released', mail: false }]);
    expect(set.json<{ events: unknown[] }>().events[1]).toEqual({ event: 'released', push: true, mail: false });
    // Others' switches are their own.
    expect(
      (await t.request({ method: 'GET', url: '/api/self/notification-preferences', token: people.alice.token })).json<{ events: unknown[] }>().events[1],
    ).toEqual({
      event: 'released',
      push: true,
      mail: true,
    });
    await preferences(people.bob.token, [{ event: 'released', mail: true }]);
  });

  it('pushes a booking someone else made, changed and cancelled for me, decrypted as the browser would; the mail switch gates the mail', async () => {
    const browser = await subscribed(people.alice.token);
    const id = await bookFor(people.alice.user.id);
    expect(await drainOutbox(t.app)).toBeGreaterThan(0);
    const [booked] = pushesTo(browser);
    expect(booked?.message).toEqual({
      title: 'A desk was booked for you',
      body: expect.stringMatching(/^Desk O-7 \(Open space\), .+\.$/) as unknown,
      url: '/reservations',
      tag: expect.stringMatching(/^reservation-/) as unknown,
      event: 'booked-by-others',
    });
    // No name, no address in what reaches the push service's customer (the browser).
    expect(JSON.stringify(booked?.message)).not.toMatch(/admin|alice|@/i);
    expect(booked?.jwt.aud).toBe(push.origin);
    expect(booked?.jwt.sub).toBe('https://desks.example.test');
    expect(booked?.ttl).toBe('3600');
    expect(mailsTo('alice@example.test', /^Booked for you/)).toHaveLength(1);

    // Mail off: the change is pushed and not mailed.
    await preferences(people.alice.token, [{ event: 'booked-by-others', mail: false }]);
    const span = nextSlot();
    const changed = await t.request({ method: 'PUT', url: `/api/reservation/${id}`, token: admin, payload: span });
    expect(changed.statusCode, changed.body).toBe(200);
    await drainOutbox(t.app);
    expect(pushesTo(browser).map((received) => received.message.title)).toEqual(['A desk was booked for you', 'Your booking was changed']);
    expect(pushesTo(browser)[1]!.message.tag).toBe(`reservation-${id}`);
    expect(mailsTo('alice@example.test', /^Changed for you/)).toHaveLength(0);

    // Push off, mail on again: the cancellation is mailed and not pushed.
    await preferences(people.alice.token, [{ event: 'booked-by-others', mail: true, push: false }]);
    expect((await t.request({ method: 'DELETE', url: `/api/reservation/${id}`, token: admin })).statusCode).toBe(204);
    await drainOutbox(t.app);
    expect(pushesTo(browser)).toHaveLength(2);
    expect(mailsTo('alice@example.test', /^Cancelled for you/)).toHaveLength(1);
    await preferences(people.alice.token, [{ event: 'booked-by-others', push: true }]);

    // A disabled account is pushed nothing (its mail goes as before push).
    const disable = (enabled: boolean) => t.request({ method: 'PUT', url: `/api/users/${people.alice.user.id}`, token: admin, payload: { enabled } });
    expect((await disable(false)).statusCode).toBe(200);
    await bookFor(people.alice.user.id);
    await drainOutbox(t.app);
    expect(pushesTo(browser)).toHaveLength(2);
    expect(mailsTo('alice@example.test', /^Booked for you/)).toHaveLength(2);
    expect((await disable(true)).statusCode).toBe(200);
    people.alice.token = (await t.login(people.alice.user.email, PASSWORD)).accessToken;

    // Booking for yourself tells nobody.
    const own = await t.request({ method: 'POST', url: '/api/reservation', token: people.alice.token, payload: { deskId, ...nextSlot() } });
    expect(own.statusCode).toBe(200);
    await drainOutbox(t.app);
    expect(pushesTo(browser)).toHaveLength(2);
    await db.execute(sql`delete from push_subscriptions`);
  });

  it('pushes "check-in is open" once, when it opens, whichever of two processes runs the reminders', async () => {
    const browser = await subscribed(people.bob.token);
    const start = new Date(NOW.getTime() + 2 * HOUR);
    const id = await bookFor(people.bob.user.id, { startTime: start.toISOString(), endTime: new Date(start.getTime() + 2 * HOUR).toISOString() });
    // Bob has an own pending check-in; drain the "booked for you" push first.
    await drainOutbox(t.app);
    const before = pushesTo(browser).length;
    t.clock.set(new Date(start.getTime() - 15 * 60_000 - 1));
    expect(await t.app.background.checkInReminders()).toBe(0);
    t.clock.set(new Date(start.getTime() - 15 * 60_000));
    const second = await createTestApp({ database: t.database, clock: t.clock, env: ENV });
    try {
      const [a, b] = await Promise.all([t.app.background.checkInReminders(), second.app.background.checkInReminders()]);
      expect(a + b).toBe(1);
      expect(await t.app.background.checkInReminders()).toBe(0);
    } finally {
      await second.close();
    }
    await drainOutbox(t.app);
    const reminders = pushesTo(browser).slice(before);
    expect(reminders.map((received) => received.message)).toEqual([
      expect.objectContaining({ title: 'Check-in is open', event: 'check-in-open', tag: `reservation-${id}`, url: '/reservations' }),
    ]);
    expect(reminders[0]!.urgency).toBe('high');

    // Nobody checks in: the release is pushed, and mailed as before.
    t.clock.set(new Date(start.getTime() + 21 * 60_000));
    expect(await t.app.background.releaseRound()).toBeGreaterThan(0);
    await drainOutbox(t.app);
    expect(
      pushesTo(browser)
        .slice(before + 1)
        .map((received) => received.message.title),
    ).toEqual(['Desk released: nobody checked in']);
    expect(mailsTo('bob@example.test', /released: nobody checked in/)).toHaveLength(1);
    t.clock.set(NOW);
    await db.execute(sql`delete from push_subscriptions`);
  });

  it('pushes an approval decision to the owner', async () => {
    const browser = await subscribed(people.alice.token);
    const room = await queryRows<{ room_id: string }>(db, sql`select room_id from desks where id = ${approvalRoomDesk}`);
    const requirement = await t.request({
      method: 'POST',
      url: '/api/approval-requirements',
      token: admin,
      payload: { scope: 'ROOM', roomId: room[0]!.room_id },
    });
    expect(requirement.statusCode, requirement.body).toBe(200);
    const booked = await t.request({
      method: 'POST',
      url: '/api/reservation',
      token: people.alice.token,
      payload: { deskId: approvalRoomDesk, ...nextSlot() },
    });
    expect(booked.statusCode, booked.body).toBe(200);
    const id = booked.json<{ id: string }>().id;
    const decided = await t.request({ method: 'POST', url: `/api/approvals/${id}/reject`, token: admin, payload: { note: 'Board meeting' } });
    expect(decided.statusCode, decided.body).toBe(200);
    await drainOutbox(t.app);
    expect(pushesTo(browser).map((received) => received.message)).toEqual([
      expect.objectContaining({ title: 'Booking rejected', event: 'approval-decided', body: expect.stringContaining('Desk B-1 (Board room)') as unknown }),
    ]);
    // The note (free text an approver wrote) is not pushed.
    expect(JSON.stringify(pushesTo(browser)[0]!.message)).not.toContain('Board meeting');
    await t.request({ method: 'DELETE', url: `/api/approval-requirements/${requirement.json<{ id: string }>().id}`, token: admin });
    await db.execute(sql`delete from push_subscriptions`);
  });

  it('writes the pushes and the booked-for-you mail in the person’s language (docs/i18n.md#mails-and-the-calendar-feed)', async () => {
    const user = await t.createUser({ email: 'greta@example.test', firstName: 'Greta', lastName: 'Test', password: PASSWORD });
    const token = (await t.login(user.email, PASSWORD)).accessToken;
    expect((await t.request({ method: 'PUT', url: '/api/self/preferences', token, payload: { language: 'de' } })).statusCode).toBe(200);
    const browser = await subscribed(token);
    const start = new Date(NOW.getTime() + 10 * HOUR);
    await bookFor(user.id, { startTime: start.toISOString(), endTime: new Date(start.getTime() + 2 * HOUR).toISOString() });
    await drainOutbox(t.app);
    expect(pushesTo(browser)[0]?.message).toMatchObject({
      title: 'Für Sie wurde ein Arbeitsplatz reserviert',
      body: expect.stringMatching(/^Arbeitsplatz O-7 \(Open space\), .+\.$/) as unknown,
    });
    const [mail] = mailsTo('greta@example.test', /^Für Sie reserviert/);
    expect(mail?.subject).toBe('Für Sie reserviert: Arbeitsplatz O-7');
    expect(mail?.text).toMatch(
      /^Hallo Greta,\n\n.+ hat für Sie einen Arbeitsplatz reserviert: Arbeitsplatz O-7 in Open space, .+ bis .+ \(.+\)\. Die Reservierung gehört Ihnen; Sie finden sie in Ihrer Liste der Reservierungen\.\n\nIhre Reservierungen: /,
    );
    expect(mail?.html).toContain('Arbeitsplatz <b>O-7</b> in Open space');

    // Check-in opens, nobody checks in: both pushes in German too.
    t.clock.set(new Date(start.getTime() - 15 * 60_000));
    expect(await t.app.background.checkInReminders()).toBeGreaterThan(0);
    await drainOutbox(t.app);
    t.clock.set(new Date(start.getTime() + 21 * 60_000));
    expect(await t.app.background.releaseRound()).toBeGreaterThan(0);
    await drainOutbox(t.app);
    t.clock.set(NOW);
    const [, reminder, released] = pushesTo(browser).map((received) => received.message);
    expect(reminder).toMatchObject({
      title: 'Einchecken ist jetzt möglich',
      body: expect.stringMatching(/Checken Sie ein, sonst wird der Arbeitsplatz freigegeben\.$/) as unknown,
    });
    expect(released?.title).toBe('Arbeitsplatz freigegeben: niemand hat eingecheckt');
    expect(mailsTo('greta@example.test', /^Arbeitsplatz O-7 freigegeben/)).toHaveLength(1);
    await db.execute(sql`delete from push_subscriptions`);
  });

  it('removes a subscription the push service calls gone (410), and sends nothing to it again', async () => {
    const gone = await subscribed(people.alice.token);
    const kept = await subscribed(people.alice.token);
    gone.script.push(410);
    await bookFor(people.alice.user.id);
    await drainOutbox(t.app);
    expect(push.received.filter((received) => received.browserId === gone.id).map((received) => received.status)).toEqual([410]);
    expect(pushesTo(kept)).toHaveLength(1);
    const list = await t.request({ method: 'GET', url: '/api/self/push-subscriptions', token: people.alice.token });
    expect(list.json<Array<{ id: string }>>().map((entry) => entry.id)).toEqual([kept.subscriptionId]);
    const rows = await queryRows<{ status: string }>(db, sql`select status from outbox where kind = 'push' and status <> 'sent'`);
    expect(rows).toEqual([]);
    await db.execute(sql`delete from push_subscriptions`);
  });

  it('tries a push again after the push service failed (503), once its backoff passed, and it arrives once', async () => {
    const browser = await subscribed(people.alice.token);
    browser.script.push(503);
    await bookFor(people.alice.user.id);
    await drainOutbox(t.app);
    expect(push.received.filter((received) => received.browserId === browser.id).map((received) => received.status)).toEqual([503]);
    const [waiting] = await queryRows<{ status: string; attempts: number; last_error: string }>(
      db,
      sql`select status, attempts, last_error from outbox where kind = 'push' and status = 'pending'`,
    );
    expect(waiting).toEqual({ status: 'pending', attempts: 1, last_error: expect.stringContaining('503') as unknown });
    await drainOutbox(t.app);
    expect(pushesTo(browser)).toHaveLength(0);
    t.clock.advance(61_000);
    await drainOutbox(t.app);
    expect(pushesTo(browser)).toHaveLength(1);
    t.clock.set(NOW);
    await db.execute(sql`delete from push_subscriptions`);
  });

  it('sends each push once when two processes drain the outbox at once', async () => {
    const browsers = [await subscribed(people.alice.token), await subscribed(people.alice.token), await subscribed(people.bob.token)];
    const before = push.received.length;
    for (let i = 0; i < 8; i++) await bookFor(i % 2 === 0 ? people.alice.user.id : people.bob.user.id);
    const second = await createTestApp({ database: t.database, clock: t.clock, env: { ...ENV, SMTP_URL: smtp.url } });
    try {
      const [a, b] = await Promise.all([drainOutbox(t.app), drainOutbox(second.app)]);
      expect(a + b).toBeGreaterThanOrEqual(4 * 2 + 4);
    } finally {
      await second.close();
    }
    const arrived = push.received.slice(before);
    // Alice's four bookings reach her two browsers, Bob's four his one: 12 pushes, none twice.
    expect(arrived).toHaveLength(12);
    expect(arrived.every((received) => received.status === 201)).toBe(true);
    const perBrowser = browsers.map((browser) => arrived.filter((received) => received.browserId === browser.id).length);
    expect(perBrowser).toEqual([4, 4, 4]);
  });
});
