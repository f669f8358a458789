import type { Sql } from 'postgres';
import type { SeededUser } from './database.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Events of the feed scenarios (docs/behaviour.md#calendar-feed): about as many as a person has who books every workday. */
export const FEED_EVENTS = 200;
/** Marks the calendar rows the bench writes itself, so they are removed again. */
const BENCH_LOCATION = 'deskbook-bench';

export interface BenchFeed {
  /** Path of the feed URL (no bearer needed). */
  path: string;
  /** Its current ETag, for the 304 scenario. */
  etag: string;
  events: number;
}

/**
 * Gives one seeded user a feed of about FEED_EVENTS events: their own seeded reservations in
 * the feed's window, topped up with calendar rows of the bench's own (hourly events, some of
 * them tombstones), and a feed URL made through the API. Answers the URL's path and ETag.
 */
export async function prepareFeed(sql: Sql, appUrl: string, user: SeededUser, userToken: string, deskIds: readonly string[]): Promise<BenchFeed> {
  await removeFeedRows(sql);
  const now = Date.now();
  const [{ n: existing } = { n: 0 }] = await sql<{ n: number }[]>`
    select count(*)::int as n from calendar_events where user_id = ${user.id} and end_time > ${new Date(now - 30 * DAY).toISOString()}::timestamptz
      and start_time < ${new Date(now + 90 * DAY).toISOString()}::timestamptz`;
  const missing = Math.max(0, FEED_EVENTS - existing);
  const rows = Array.from({ length: missing }, (_, i) => {
    // From 25 days back, one every 13 hours: inside the window, clear of the seeded ones' exact times.
    const start = Math.floor((now - 25 * DAY) / HOUR) * HOUR + i * 13 * HOUR + 30 * 60_000;
    return {
      reservation_id: crypto.randomUUID(),
      user_id: user.id,
      desk_id: deskIds[i % deskIds.length]!,
      start_time: new Date(start),
      end_time: new Date(start + 8 * HOUR),
      location: BENCH_LOCATION,
      sequence: i % 3,
      changed_at: new Date(now - i * 60_000),
      cancelled_at: i % 10 === 9 ? new Date(now - DAY) : null,
    };
  });
  if (rows.length > 0) await sql`insert into calendar_events ${sql(rows)}`;
  const created = await fetch(`${appUrl}/api/self/calendar-feed`, { method: 'POST', headers: { authorization: `Bearer ${userToken}` } });
  if (!created.ok) throw new Error(`creating the bench feed answered ${created.status}: ${await created.text()}`);
  const path = new URL(((await created.json()) as { url: string }).url).pathname;
  const first = await fetch(`${appUrl}${path}`);
  const body = await first.text();
  if (first.status !== 200) throw new Error(`the bench feed answered ${first.status}: ${body}`);
  return { path, etag: first.headers.get('etag') ?? '', events: body.split('BEGIN:VEVENT').length - 1 };
}

/** The bench's own calendar rows (and the feed URL it made is simply replaced next time). */
export async function removeFeedRows(sql: Sql): Promise<void> {
  await sql`delete from calendar_events where location = ${BENCH_LOCATION}`;
}
