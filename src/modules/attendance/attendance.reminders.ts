import { lt, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { queryRows, type Database } from '../../db/client.js';
import { checkInReminders } from '../../db/schema.js';
import type { PurgeJob } from '../../infrastructure/housekeeping/housekeeping.js';
import type { Job } from '../../infrastructure/jobs/runner.js';
import type { Clock } from '../../shared/clock.js';
import type { Language } from '../../shared/languages.js';
import { formatLocal } from '../../shared/zone.js';
import { queueNotices } from '../notifications/notifications.queue.js';
import { checkInOpenPush } from '../notifications/notifications.texts.js';
import { languagesOf } from '../preferences/preferences.access.js';

export const REMINDER_JOB = 'check-in reminders';
/** How often each process looks for check-ins that opened. */
export const REMINDER_INTERVAL_MS = 60_000;
/** Reminders queued per transaction, and transactions per run. */
const BATCH = 500;
const MAX_BATCHES = 20;
/** Reminder marks are kept this long after queueing (a reservation's check-in opens once). */
const KEEP_MS = 7 * 86_400_000;

interface DueRow {
  reservation_id: string;
  user_id: string;
  desk_name: string;
  room_name: string;
  time_zone: string;
  start_time: string | Date;
}

/**
 * Marks up to `limit` reservations whose check-in has opened and is still pending (not released,
 * not awaiting approval, not ended) as reminded, and answers them. The mark is an insert into
 * `check_in_reminders` ON CONFLICT DO NOTHING: of two processes that pick the same reservation,
 * the second waits for the first's commit and inserts nothing, so each is reminded once.
 */
async function markDue(tx: Database, now: Date, limit: number): Promise<DueRow[]> {
  const at = sql`${now.toISOString()}::timestamptz`;
  return queryRows<DueRow>(
    tx,
    sql`with due as (
          select a.reservation_id from attendance a
           where a.status = 'PENDING' and a.check_in_opens_at <= ${at} and a.release_at > ${at}
             and not exists (select 1 from check_in_reminders c where c.reservation_id = a.reservation_id)
             and not exists (select 1 from reservation_approvals p where p.reservation_id = a.reservation_id and p.status = 'PENDING')
           order by a.check_in_opens_at
           limit ${limit}
        ), marked as (
          insert into check_in_reminders (reservation_id, queued_at) select reservation_id, ${at} from due
          on conflict do nothing
          returning reservation_id
        )
        select r.id as reservation_id, r.user_id, d.name as desk_name, ro.name as room_name,
               coalesce(s.time_zone, 'UTC') as time_zone, r.start_time
          from marked m
          join reservations r on r.id = m.reservation_id
          join desks d on d.id = r.desk_id
          join rooms ro on ro.id = d.room_id
          left join department_settings s on s.department_id = ro.department_id
         where r.end_time > ${at}`,
  );
}

export interface ReminderJobOptions {
  db: Database;
  clock: Clock;
  log: FastifyBaseLogger;
  intervalMs?: number;
  /** The server's default language, for owners who chose none (docs/i18n.md#choosing-the-language). */
  defaultLanguage?: Language;
}

/**
 * "Check-in is open" (docs/notifications.md#events): a job of the runner in every process, every
 * minute from start-up. Each batch marks the due reservations and queues their owners' pushes in
 * one transaction (markDue), so processes share the work and none is reminded twice; there is no
 * mail of this event. Answers the reminders queued.
 */
export function reminderJob(options: ReminderJobOptions): Job<number> {
  const { db, clock, log } = options;
  return {
    name: REMINDER_JOB,
    intervalMs: options.intervalMs ?? REMINDER_INTERVAL_MS,
    runAtStart: true,
    async run(signal) {
      let total = 0;
      for (let batch = 0; batch < MAX_BATCHES && !signal.aborted; batch++) {
        const marked = await db.transaction(async (tx) => {
          const rows = await markDue(tx, clock.now(), BATCH);
          const languageOf = await languagesOf(tx, [...new Set(rows.map((row) => row.user_id))], options.defaultLanguage ?? 'en');
          await queueNotices(
            tx,
            rows.map((row) => ({
              userId: row.user_id,
              event: 'check-in-open' as const,
              push: checkInOpenPush(
                {
                  reservationId: row.reservation_id,
                  deskName: row.desk_name,
                  roomName: row.room_name,
                  start: formatLocal(new Date(row.start_time), row.time_zone),
                  timeZone: row.time_zone,
                },
                languageOf(row.user_id),
              ),
            })),
          );
          return rows.length;
        });
        total += marked;
        if (marked < BATCH) break;
      }
      if (total > 0) log.debug({ reminded: total }, 'check-in reminders queued');
      return total;
    },
  };
}

/** Housekeeping: reminder marks older than a week (their check-in closed long ago). */
export const checkInRemindersPurge: PurgeJob = {
  name: 'check-in reminders',
  purge: (db, now) => db.delete(checkInReminders).where(lt(checkInReminders.queuedAt, new Date(now.getTime() - KEEP_MS))),
};
