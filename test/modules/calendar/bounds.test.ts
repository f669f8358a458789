import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows, type Database } from '../../../src/db/client.js';
import type { ReadRouting } from '../../../src/db/replica.js';
import { reservations } from '../../../src/db/schema.js';
import type { Caller } from '../../../src/identity/caller.js';
import { CalendarService, FEED_BUILDS_AT_ONCE, FEED_BUILDS_WAITING, FEED_MAX_EVENTS } from '../../../src/modules/calendar/calendar.service.js';
import { AppError } from '../../../src/shared/errors.js';
import { createTestApp, expectProblem, type TestApp, type UserBody } from '../../helpers/app.js';
import { insertDepartment, insertDesk, insertRoom } from '../../helpers/fixtures.js';
import { parseCalendar } from '../../helpers/ical.js';

/**
 * The bounds of calendar feeds (docs/behaviour.md#calendar-feed): a changed feed is built once
 * however many requests arrive together, a change renders one event again, builds at once are
 * bounded (429 beyond), a feed holds at most FEED_MAX_EVENTS events and a person at most 100
 * tombstones, a booking nobody was told about leaves no tombstone, a disabled or deleted person's
 * feed answers 404, and the token is looked up on the primary, never on the replica.
 */

const PUBLIC_URL = 'https://desk.example.test';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('calendar feed bounds', () => {
  let t: TestApp;
  let db: Database;
  let roomId: string;
  const desks = new Map<string, string>();
  let users = 0;
  const base = Math.ceil(Date.now() / HOUR) * HOUR;

  /** The primary as ReadRouting; `reads` counts what went through it. */
  const routing = () => {
    const routing = {
      replicated: true,
      reads: 0,
      gate: undefined as Promise<void> | undefined,
      async read<T>(_lastWrite: unknown, work: (db: Database) => Promise<T>): Promise<T> {
        routing.reads++;
        if (routing.gate) await routing.gate;
        return work(db);
      },
    };
    return routing;
  };
  const service = (reads: Pick<ReadRouting, 'replicated' | 'read'>) =>
    new CalendarService(db, reads as unknown as ReadRouting, { now: () => new Date() }, { publicUrl: PUBLIC_URL, horizonMs: 180 * DAY });
  const callerOf = (user: UserBody) => ({ user: { id: user.id }, sessionId: 'none' }) as unknown as Caller;
  const tokenOf = (url: string) => new URL(url).pathname.split('/').at(-1)!.replace('.ics', '');

  async function personWithFeed(calendar: CalendarService, events = 0): Promise<{ user: UserBody; token: string }> {
    users += 1;
    const user = await t.createUser({ email: `bounds.${users}@example.test` });
    // A desk of their own: nobody else's bookings in the way.
    const desk = (await insertDesk(db, roomId, { name: `P-${users}` })).id;
    desks.set(user.id, desk);
    if (events > 0) {
      await db.insert(reservations).values(
        Array.from({ length: events }, (_, i) => ({
          userId: user.id,
          deskId: desk,
          startTime: new Date(base + HOUR + i * HOUR),
          endTime: new Date(base + HOUR + i * HOUR + HOUR / 2),
        })),
      );
    }
    const { url } = await calendar.replaceFeed(callerOf(user));
    return { user, token: tokenOf(url) };
  }
  /** Yields to the event loop (the database's answers arrive) until `done` holds; fails after 30 s. */
  const until = async (done: () => boolean) => {
    const deadline = Date.now() + 30_000;
    while (!done()) {
      if (Date.now() > deadline) throw new Error('the feed requests never got that far');
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  const count = async (query: ReturnType<typeof sql>) => (await queryRows<{ n: number }>(db, query))[0]!.n;

  beforeAll(async () => {
    t = await createTestApp({ env: { PUBLIC_URL, OUTBOX_INTERVAL: '0', RESERVATION_WRITES_PER_MINUTE: '100000' } });
    db = t.database.handle.db;
    const room = await insertRoom(db, (await insertDepartment(db, { location: 'Berlin', building: 'HQ', floor: 3 })).id, { name: 'Atlas' });
    roomId = room.id;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('builds a changed feed once for ten fetches at once, and renders only the changed event again', async () => {
    const calendar = service(routing());
    const { user, token } = await personWithFeed(calendar, 40);
    const first = await Promise.all(Array.from({ length: 10 }, () => calendar.feed(token, undefined)));
    expect(calendar.builds).toBe(1);
    expect(calendar.eventsRendered).toBe(40);
    expect(new Set(first.map((feed) => feed.etag)).size).toBe(1);
    expect(parseCalendar(first[0]!.body!.toString()).events).toHaveLength(40);

    // One event changes: the next ten fetches build once more, rendering that event alone.
    await db.execute(sql`update reservations set end_time = end_time + interval '5 minutes'
      where id = (select id from reservations where user_id = ${user.id} order by start_time limit 1)`);
    const second = await Promise.all(Array.from({ length: 10 }, () => calendar.feed(token, undefined)));
    expect(calendar.builds).toBe(2);
    expect(calendar.eventsRendered).toBe(41);
    expect(second[0]!.etag).not.toBe(first[0]!.etag);
    expect(new Set(second.map((feed) => feed.body!.toString())).size).toBe(1);
    expect(parseCalendar(second[0]!.body!.toString()).events.filter((event) => event.sequence === 1)).toHaveLength(1);

    // Unchanged: ten fetches at once share one digest statement, and nothing is built.
    const lookups = calendar.lookups;
    const third = await Promise.all(Array.from({ length: 10 }, () => calendar.feed(token, undefined)));
    expect(calendar.lookups).toBe(lookups + 1);
    expect(calendar.builds).toBe(2);
    expect(third.every((feed) => feed.etag === second[0]!.etag)).toBe(true);
  });

  it('builds at most FEED_BUILDS_AT_ONCE feeds at once, lets FEED_BUILDS_WAITING wait, and answers 429 beyond', async () => {
    const reads = routing();
    const calendar = service(reads);
    const people = [];
    for (let i = 0; i < FEED_BUILDS_AT_ONCE + FEED_BUILDS_WAITING + 1; i++) people.push(await personWithFeed(calendar, 1));
    let open!: () => void;
    reads.gate = new Promise<void>((resolve) => (open = resolve));
    const admitted = people.slice(0, -1).map((person) => calendar.feed(person.token, undefined));
    // Let the admitted requests reach their build (each has read its digest): two building, eight waiting.
    await until(() => reads.reads === FEED_BUILDS_AT_ONCE && calendar.buildsWaiting === FEED_BUILDS_WAITING);
    const refused = await calendar.feed(people.at(-1)!.token, undefined).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ code: 'TOO_MANY_REQUESTS', status: 429, extras: { retryAfter: 1 } });
    expect(reads.reads).toBe(FEED_BUILDS_AT_ONCE);
    open();
    const feeds = await Promise.all(admitted);
    expect(feeds.every((feed) => feed.body !== undefined)).toBe(true);
    expect(calendar.builds).toBe(FEED_BUILDS_AT_ONCE + FEED_BUILDS_WAITING);
  });

  it(`serves at most ${FEED_MAX_EVENTS} events in one feed`, async () => {
    const calendar = service(routing());
    // Far below the 2000 a feed held when one person's feed could take seconds to build.
    expect(FEED_MAX_EVENTS).toBeLessThanOrEqual(500);
    const { token } = await personWithFeed(calendar, FEED_MAX_EVENTS + 50);
    const feed = await calendar.feed(token, undefined);
    expect(parseCalendar(feed.body!.toString()).events).toHaveLength(FEED_MAX_EVENTS);
  });

  it('keeps no tombstone (and sends no mail) for a booking nobody was told about, and at most 100 tombstones a person', async () => {
    const calendar = service(routing());
    const { user, token } = await personWithFeed(calendar, 3);
    // Never read, never mailed: cancelled without a trace.
    await db.execute(sql`delete from reservations where user_id = ${user.id}`);
    expect(await count(sql`select count(*)::int as n from calendar_events where user_id = ${user.id}`)).toBe(0);
    expect(await count(sql`select count(*)::int as n from outbox where group_key = ${user.id}`)).toBe(0);

    // Read by the calendar app: 120 cancellations leave the newest 100 tombstones.
    await db.insert(reservations).values(
      Array.from({ length: 120 }, (_, i) => ({
        userId: user.id,
        deskId: desks.get(user.id)!,
        startTime: new Date(base + 10 * HOUR + i * HOUR),
        endTime: new Date(base + 10 * HOUR + i * HOUR + HOUR / 2),
      })),
    );
    expect((await calendar.feed(token, undefined)).body).toBeDefined();
    // One booked after the read: nobody saw it.
    await db
      .insert(reservations)
      .values({ userId: user.id, deskId: desks.get(user.id)!, startTime: new Date(base + 200 * HOUR), endTime: new Date(base + 201 * HOUR) });
    await db.execute(sql`delete from reservations where user_id = ${user.id}`);
    expect(await count(sql`select count(*)::int as n from calendar_events where user_id = ${user.id} and cancelled_at is not null`)).toBe(100);
    expect(
      await count(
        sql`select count(*)::int as n from calendar_events where user_id = ${user.id} and start_time = ${new Date(base + 200 * HOUR).toISOString()}::timestamptz`,
      ),
    ).toBe(0);
    const events = parseCalendar((await calendar.feed(token, undefined)).body!.toString()).events;
    expect(events).toHaveLength(100);
    expect(events.every((event) => event.status === 'CANCELLED')).toBe(true);
  });

  it('answers 404 to the feed of a disabled person, 200 again once enabled, and 404 once deleted', async () => {
    users += 1;
    const password = 'bounds-password-1';
    const user = await t.createUser({ email: `bounds.${users}@example.test`, password });
    const own = (await t.login(user.email, password)).accessToken;
    const created = await t.request({ method: 'POST', url: '/api/self/calendar-feed', token: own });
    const path = new URL(created.json<{ url: string }>().url).pathname;
    expect((await t.request({ method: 'GET', url: path })).statusCode).toBe(200);
    const admin = await t.adminToken();
    const disable = (enabled: boolean) => t.request({ method: 'PUT', url: `/api/users/${user.id}`, token: admin, payload: { enabled } });
    expect((await disable(false)).statusCode).toBe(200);
    expectProblem(await t.request({ method: 'GET', url: path }), 404, 'NOT_FOUND');
    expectProblem(await t.request({ method: 'GET', url: path, headers: { 'if-none-match': '*' } }), 404, 'NOT_FOUND');
    expect((await disable(true)).statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: path })).statusCode).toBe(200);
    expect((await t.request({ method: 'DELETE', url: `/api/users/${user.id}`, token: admin })).statusCode).toBe(204);
    expectProblem(await t.request({ method: 'GET', url: path }), 404, 'NOT_FOUND');
  });

  it('looks the token up on the primary: the replica is read only to build a changed feed', async () => {
    const reads = routing();
    const calendar = service(reads);
    const { user, token } = await personWithFeed(calendar, 2);
    const built = await calendar.feed(token, undefined);
    expect(reads.reads).toBe(1);
    // Unchanged (304, or the kept text), unknown, replaced: the primary alone.
    expect((await calendar.feed(token, built.etag)).body).toBeUndefined();
    expect((await calendar.feed(token, undefined)).etag).toBe(built.etag);
    await expect(calendar.feed('A'.repeat(43), undefined)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await calendar.replaceFeed(callerOf(user));
    await expect(calendar.feed(token, undefined)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(reads.reads).toBe(1);
  });
});
