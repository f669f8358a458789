import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { queryRows, type Database } from '../../src/db/client.js';
import { hashFeedToken } from '../../src/modules/calendar/calendar.service.js';
import type { Dataset } from './database.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Events of the feed scenarios (docs/behaviour.md#calendar-feed): about as many as a person has who books every workday. */
export const FEED_EVENTS = 200;
/** Marks the calendar rows the bench writes itself, so they are removed again. */
const BENCH_LOCATION = 'deskbook-bench';
/** The bench's feed URL token (a new one each run, in the service's format). */
const BENCH_FEED_TOKEN = randomBytes(32).toString('base64url');
export const BENCH_FEED_PATH = `/api/calendar/${BENCH_FEED_TOKEN}.ics`;

/**
 * Gives the first seeded user a feed of about FEED_EVENTS events: their own seeded reservations in
 * the feed's window, topped up with calendar rows of the bench's own (one every 13 hours, some of
 * them tombstones), and a feed token the bench knows (its hash stored as the service stores it).
 */
export async function prepareFeed(db: Database, dataset: Dataset): Promise<void> {
  await removeFeedRows(db);
  const user = dataset.users[0]!;
  const now = Date.now();
  const [{ n: existing } = { n: 0 }] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from calendar_events where user_id = ${user.id}
        and end_time > ${new Date(now - 30 * DAY).toISOString()}::timestamptz and start_time < ${new Date(now + 90 * DAY).toISOString()}::timestamptz`,
  );
  const missing = Math.max(0, FEED_EVENTS - existing);
  const deskIds = dataset.bookableDeskIds;
  await db.transaction(async (tx) => {
    for (let i = 0; i < missing; i++) {
      // From 25 days back, one every 13 hours: inside the window, clear of the seeded ones' exact times.
      const start = Math.floor((now - 25 * DAY) / HOUR) * HOUR + i * 13 * HOUR + 30 * 60_000;
      await tx.execute(
        sql`insert into calendar_events (reservation_id, user_id, desk_id, start_time, end_time, location, sequence, changed_at, cancelled_at)
            values (gen_random_uuid(), ${user.id}, ${deskIds[i % deskIds.length]!}, ${new Date(start).toISOString()}::timestamptz,
              ${new Date(start + 8 * HOUR).toISOString()}::timestamptz, ${BENCH_LOCATION}, ${i % 3},
              ${new Date(now - i * 60_000).toISOString()}::timestamptz, ${i % 10 === 9 ? new Date(now - DAY).toISOString() : null}::timestamptz)`,
      );
    }
    await tx.execute(
      sql`insert into calendar_feeds (user_id, token_hash, created_at) values (${user.id}, ${hashFeedToken(BENCH_FEED_TOKEN)}, now())
          on conflict (user_id) do update set token_hash = excluded.token_hash, created_at = excluded.created_at`,
    );
  });
}

/** The bench's own calendar rows and its feed token. */
export async function removeFeedRows(db: Database): Promise<void> {
  await db.execute(sql`delete from calendar_events where location = ${BENCH_LOCATION}`);
  await db.execute(sql`delete from calendar_feeds where token_hash = ${hashFeedToken(BENCH_FEED_TOKEN)}`);
}
