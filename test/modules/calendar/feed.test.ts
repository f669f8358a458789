import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows, type Database } from '../../../src/db/client.js';
import { purgeJobs } from '../../../src/app.js';
import { housekeep } from '../../../src/infrastructure/housekeeping/housekeeping.js';
import { createTestApp, expectProblem, type TestApp, type UserBody } from '../../helpers/app.js';
import { createTestDatabase, StatementCounter, type TestDatabase } from '../../helpers/database.js';
import { insertDepartment, insertDesk, insertRoom } from '../../helpers/fixtures.js';
import { parseCalendar } from '../../helpers/ical.js';

/**
 * The private calendar feed (docs/behaviour.md#calendar-feed): token handling, every event
 * field as Mozilla's parser reads it, SEQUENCE on change, tombstones of cancelled reservations,
 * the window, ETag/304 and housekeeping. The test clock starts at the real time: the trigger
 * stamps changes with the database's clock.
 */

const PUBLIC_URL = 'https://desk.example.test';
const PASSWORD = 'calendar-password-1';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('calendar feed', () => {
  let t: TestApp;
  let database: TestDatabase;
  const counter = new StatementCounter();
  let db: Database;
  let user: UserBody;
  let token: string;
  let deskId: string;
  let otherDeskId: string;
  const base = Math.ceil(Date.now() / HOUR) * HOUR;
  const at = (offsetMs: number) => new Date(base + offsetMs).toISOString();

  const book = async (startOffset: number, hours = 8, asAdmin = false, desk = deskId) => {
    const response = await t.request({
      method: 'POST',
      url: '/api/reservation',
      token: asAdmin ? await t.adminToken() : token,
      payload: { deskId: desk, startTime: at(startOffset), endTime: at(startOffset + hours * HOUR), ...(asAdmin ? { userId: user.id } : {}) },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ id: string }>().id;
  };
  const createFeed = async (as = token) => {
    const response = await t.request({ method: 'POST', url: '/api/self/calendar-feed', token: as });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ url: string; createdAt: string }>();
  };
  const pathOf = (url: string) => new URL(url).pathname;
  const getFeed = (url: string, headers: Record<string, string> = {}) => t.request({ method: 'GET', url: pathOf(url), headers });

  beforeAll(async () => {
    database = await createTestDatabase({ onQuery: counter.onQuery });
    t = await createTestApp({ database, env: { PUBLIC_URL, OUTBOX_INTERVAL: '0' }, timedJobs: false });
    db = t.database.handle.db;
    user = await t.createUser({ email: 'cal.user@example.test', firstName: 'Cal', lastName: 'Endar', password: PASSWORD });
    token = (await t.login(user.email, PASSWORD)).accessToken;
    const department = await insertDepartment(db, { location: 'Berlin', building: 'HQ', floor: 3 });
    const room = await insertRoom(db, department.id, { name: 'Atlas' });
    deskId = (await insertDesk(db, room.id, { name: 'A-01' })).id;
    otherDeskId = (await insertDesk(db, room.id, { name: 'A-02' })).id;
  });
  afterAll(async () => {
    await t?.close();
    await database?.dispose();
  });

  it('answers every event field, parsed by ical.js: UID, SEQUENCE, DTSTAMP, LOCATION, URL, UTC times', async () => {
    const id = await book(DAY);
    const feed = await createFeed();
    expect(feed.url).toMatch(/^https:\/\/desk\.example\.test\/api\/calendar\/[A-Za-z0-9_-]{43}\.ics$/);
    const response = await getFeed(feed.url);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(response.headers['cache-control']).toBe('private, max-age=300');
    expect(response.headers.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    const calendar = parseCalendar(response.body);
    expect(calendar.name).toBe('Deskbook reservations');
    const event = calendar.events.find((candidate) => candidate.uid === `${id}@desk.example.test`)!;
    expect(event).toMatchObject({
      sequence: 0,
      summary: 'Desk A-01',
      location: 'Berlin · HQ · Floor 3 · Atlas · A-01',
      url: `${PUBLIC_URL}/reservations?reservation=${id}`,
      status: 'CONFIRMED',
      start: at(DAY),
      end: at(DAY + 8 * HOUR),
      startIsUtc: true,
    });
    expect(event.description).toContain(`${PUBLIC_URL}/reservations?reservation=${id}`);
    expect(Math.abs(new Date(event.dtstamp).getTime() - Date.now())).toBeLessThan(60_000);
    expect(response.body).toMatch(/DTSTART:\d{8}T\d{6}Z\r\n/);
  });

  it('shows a changed reservation with a higher SEQUENCE and a new ETag, and answers 304 to the current one', async () => {
    const id = await book(2 * DAY);
    const { url } = await createFeed();
    const before = await getFeed(url);
    const etag = String(before.headers.etag);
    const again = await getFeed(url, { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(etag);
    expect((await getFeed(url, { 'if-none-match': `"other", W/${etag}` })).statusCode).toBe(304);

    const moved = await t.request({ method: 'PUT', url: `/api/reservation/${id}`, token, payload: { startTime: at(2 * DAY + HOUR) } });
    expect(moved.statusCode, moved.body).toBe(200);
    const after = await getFeed(url, { 'if-none-match': etag });
    expect(after.statusCode).toBe(200);
    expect(after.headers.etag).not.toBe(etag);
    const event = parseCalendar(after.body).events.find((candidate) => candidate.uid.startsWith(id))!;
    expect(event.sequence).toBe(1);
    expect(event.start).toBe(at(2 * DAY + HOUR));

    // Moving to another desk changes the place and the SEQUENCE again; a PUT changing nothing does not.
    await t.request({ method: 'PUT', url: `/api/reservation/${id}`, token, payload: { deskId: otherDeskId } });
    await t.request({ method: 'PUT', url: `/api/reservation/${id}`, token, payload: { deskId: otherDeskId } });
    const moved2 = parseCalendar((await getFeed(url)).body).events.find((candidate) => candidate.uid.startsWith(id))!;
    expect(moved2).toMatchObject({ sequence: 2, location: 'Berlin · HQ · Floor 3 · Atlas · A-02', summary: 'Desk A-02' });
  });

  it('answers a conditional request from the digest alone, and a renamed desk changes the feed', async () => {
    const room = await insertRoom(db, (await insertDepartment(db, { location: 'Lyon', building: 'Part-Dieu', floor: 5 })).id, { name: 'Rhône' });
    const desk = await insertDesk(db, room.id, { name: 'R-1' });
    const id = await book(6 * DAY, 8, false, desk.id);
    const { url } = await createFeed();
    const etag = String((await getFeed(url)).headers.etag);
    const unchanged = await counter.count(() => getFeed(url, { 'if-none-match': etag }));
    expect(unchanged.result.statusCode).toBe(304);
    expect(unchanged.statements).toBe(1);

    const renamed = await t.request({
      method: 'PUT',
      url: `/api/departments/${room.departmentId}/rooms/${room.id}/desks/${desk.id}`,
      token: await t.adminToken(),
      payload: { name: 'R-2' },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const changed = await counter.count(() => getFeed(url, { 'if-none-match': etag }));
    expect(changed.result.statusCode).toBe(200);
    expect(changed.statements).toBe(2);
    expect(changed.result.headers.etag).not.toBe(etag);
    const event = parseCalendar(changed.result.body).events.find((candidate) => candidate.uid.startsWith(id))!;
    expect(event).toMatchObject({ location: 'Lyon · Part-Dieu · Floor 5 · Rhône · R-2', summary: 'Desk R-2', sequence: 0 });
    // The same feed again, built or kept: the same ETag.
    expect((await getFeed(url)).headers.etag).toBe(changed.result.headers.etag);
  });

  it('remembers a cancelled reservation as STATUS:CANCELLED with the same UID and a higher SEQUENCE', async () => {
    const id = await book(3 * DAY);
    const { url } = await createFeed();
    // Read once, so the calendar app may show it: only then does a cancellation leave a tombstone.
    expect((await getFeed(url)).statusCode).toBe(200);
    expect((await t.request({ method: 'DELETE', url: `/api/reservation/${id}`, token })).statusCode).toBe(204);
    const event = parseCalendar((await getFeed(url)).body).events.find((candidate) => candidate.uid === `${id}@desk.example.test`)!;
    expect(event).toMatchObject({ status: 'CANCELLED', sequence: 1, location: 'Berlin · HQ · Floor 3 · Atlas · A-01', start: at(3 * DAY) });
  });

  it('keeps the place of a tombstone whose desk was deleted with it', async () => {
    const room = await insertRoom(db, (await insertDepartment(db, { location: 'Paris', building: 'Rive', floor: 2 })).id, { name: 'Seine' });
    const desk = await insertDesk(db, room.id, { name: 'S-9' });
    const id = await book(4 * DAY, 8, false, desk.id);
    const { url } = await createFeed();
    expect((await getFeed(url)).statusCode).toBe(200);
    const removed = await t.request({
      method: 'DELETE',
      url: `/api/departments/${room.departmentId}/rooms/${room.id}/desks/${desk.id}?force=true`,
      token: await t.adminToken(),
    });
    expect(removed.statusCode, removed.body).toBe(204);
    const event = parseCalendar((await getFeed(url)).body).events.find((candidate) => candidate.uid.startsWith(id))!;
    expect(event).toMatchObject({ status: 'CANCELLED', location: 'Paris · Rive · Floor 2 · Seine · S-9', summary: 'Desk S-9' });
  });

  it('reaches from 30 days back to the horizon', async () => {
    const old = await book(-40 * DAY, 8, true);
    const recent = await book(-10 * DAY, 8, true);
    const far = await book(120 * DAY, 8, true);
    const { url } = await createFeed();
    const uids = parseCalendar((await getFeed(url)).body).events.map((event) => event.uid.split('@')[0]);
    expect(uids).toContain(recent);
    expect(uids).not.toContain(old);
    expect(uids).not.toContain(far);
  });

  it('answers 404 to an unknown, malformed or replaced token, with the same single statement as a known one', async () => {
    const first = await createFeed();
    expect((await getFeed(first.url)).statusCode).toBe(200);
    const second = await createFeed();
    expect(second.url).not.toBe(first.url);
    expectProblem(await getFeed(first.url), 404, 'NOT_FOUND');
    expect((await getFeed(second.url)).statusCode).toBe(200);
    expectProblem(await t.request({ method: 'GET', url: `/api/calendar/${'A'.repeat(43)}.ics` }), 404, 'NOT_FOUND');
    expectProblem(await t.request({ method: 'GET', url: '/api/calendar/short.ics' }), 404, 'NOT_FOUND');
    // No bearer needed, and one sent is ignored.
    expect((await t.request({ method: 'GET', url: pathOf(second.url), token: 'not-a-token' })).statusCode).toBe(200);

    // A known token whose feed is unchanged since it was last built, and an unknown one: the same single statement.
    const known = await counter.count(() => getFeed(second.url));
    const unknown = await counter.count(() => getFeed(first.url));
    expect(known.result.statusCode).toBe(200);
    expect(known.statements).toBe(1);
    expect(unknown.statements).toBe(1);
  });

  it('says whether a feed exists, and removes it', async () => {
    await createFeed();
    const status = await t.request({ method: 'GET', url: '/api/self/calendar-feed', token });
    expect(status.json()).toMatchObject({ exists: true });
    expect(JSON.stringify(status.json())).not.toContain('/api/calendar/');
    const { url } = await createFeed();
    expect((await t.request({ method: 'DELETE', url: '/api/self/calendar-feed', token })).statusCode).toBe(204);
    expectProblem(await getFeed(url), 404, 'NOT_FOUND');
    expect((await t.request({ method: 'GET', url: '/api/self/calendar-feed', token })).json()).toEqual({ exists: false, createdAt: null });
    expectProblem(await t.request({ method: 'DELETE', url: '/api/self/calendar-feed', token }), 404, 'NOT_FOUND');
    expectProblem(await t.request({ method: 'POST', url: '/api/self/calendar-feed' }), 401, 'UNAUTHENTICATED');
  });

  it('keeps only a hash of the token', async () => {
    const { url } = await createFeed();
    const secret = pathOf(url).split('/').at(-1)!.replace('.ics', '');
    const rows = await queryRows<{ token_hash: string }>(db, sql`select token_hash from calendar_feeds`);
    expect(rows.some((row) => row.token_hash.includes(secret))).toBe(false);
  });

  it('survives deleting a user with reservations (their events and queued mails go with them)', async () => {
    const gone = await t.createUser({ email: 'cal.gone@example.test', password: PASSWORD });
    await t.request({
      method: 'POST',
      url: '/api/reservation',
      token: await t.adminToken(),
      payload: { deskId, userId: gone.id, startTime: at(30 * DAY), endTime: at(30 * DAY + HOUR) },
    });
    expect((await t.request({ method: 'DELETE', url: `/api/users/${gone.id}`, token: await t.adminToken() })).statusCode).toBe(204);
    const left = await queryRows<{ n: number }>(
      db,
      sql`select (select count(*) from calendar_events where user_id = ${gone.id}) + (select count(*) from outbox where group_key = ${gone.id}::text) as n`,
    );
    expect(Number(left[0]!.n)).toBe(0);
  });
  it('forgets tombstones 30 days after the cancellation (housekeeping), not before (last: it also ends every session)', async () => {
    const id = await book(5 * DAY);
    expect((await getFeed((await createFeed()).url)).statusCode).toBe(200);
    await t.request({ method: 'DELETE', url: `/api/reservation/${id}`, token });
    const tombstones = async () => (await queryRows<{ n: number }>(db, sql`select count(*)::int as n from calendar_events where reservation_id = ${id}`))[0]!.n;
    await housekeep(
      db,
      new Date(Date.now() + 29 * DAY),
      purgeJobs({ ...t.config, LOGIN_ACCOUNT_WINDOW: 60_000, LOGIN_ADDRESS_WINDOW: 60_000, PASSWORD_MAIL_COOLDOWN: 60_000 }),
    );
    expect(await tombstones()).toBe(1);
    await housekeep(
      db,
      new Date(Date.now() + 31 * DAY),
      purgeJobs({ ...t.config, LOGIN_ACCOUNT_WINDOW: 60_000, LOGIN_ADDRESS_WINDOW: 60_000, PASSWORD_MAIL_COOLDOWN: 60_000 }),
    );
    expect(await tombstones()).toBe(0);
  });
});
