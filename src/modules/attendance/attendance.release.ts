import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.js';
import type { Job } from '../../infrastructure/jobs/runner.js';
import { releaseMail } from '../../infrastructure/mail/templates.js';
import type { Clock } from '../../shared/clock.js';
import { isLanguage, type Language } from '../../shared/languages.js';
import { formatLocal } from '../../shared/zone.js';
import { queueNotices } from '../notifications/notifications.queue.js';
import { releasedPush } from '../notifications/notifications.texts.js';
import { AttendanceRepository, type ReleasedRow } from './attendance.repository.js';

/** Reservations released per transaction. */
export const RELEASE_BATCH = 500;
/** Batches one round may run before it yields to the next (a backlog is worked off over rounds). */
const MAX_BATCHES_PER_ROUND = 40;

export const RELEASE_JOB = 'attendance release';

/** The mail telling the owner their desk was released (docs/behaviour.md#release-of-no-shows). */
const mailOf = (row: ReleasedRow, publicUrl: string, defaultLanguage: Language) =>
  releaseMail({
    language: isLanguage(row.language) ? row.language : defaultLanguage,
    to: row.email,
    firstName: row.firstName,
    deskName: row.deskName,
    roomName: row.roomName,
    timeZone: row.timeZone,
    started: formatLocal(row.startTime, row.timeZone),
    released: formatLocal(row.endTime, row.timeZone),
    publicUrl,
  });

export interface ReleaseJobOptions {
  db: Database;
  clock: Clock;
  log: FastifyBaseLogger;
  /** ATTENDANCE_RELEASE_INTERVAL. */
  intervalMs: number;
  /** Whether mail can go out (SMTP_URL set): only then does a release queue its mails (pushes go out either way). */
  mails: boolean;
  publicUrl: string;
  /** The server's default language, for owners who chose none (docs/i18n.md#choosing-the-language). */
  defaultLanguage?: Language;
}

/**
 * The release of no-shows as a job of the runner (docs/behaviour.md#release-of-no-shows): every
 * server process runs it every ATTENDANCE_RELEASE_INTERVAL, from start-up on; each round releases
 * what is due in batches, claimed FOR UPDATE SKIP LOCKED, so processes share the work and never
 * do it twice. The owners' mails and pushes (as their switches allow, docs/notifications.md#events)
 * are queued in the outbox in the release's own transaction, and the outbox job sends them. Answers the reservations released.
 */
export function releaseJob(options: ReleaseJobOptions): Job<number> {
  const { db, clock, log, publicUrl } = options;
  return {
    name: RELEASE_JOB,
    intervalMs: options.intervalMs,
    runAtStart: true,
    async run(signal) {
      const repository = new AttendanceRepository(db);
      let total = 0;
      for (let batch = 0; batch < MAX_BATCHES_PER_ROUND && !signal.aborted; batch++) {
        const { released } = await repository.releaseDue(clock.now(), RELEASE_BATCH, (tx, rows) =>
          queueNotices(
            tx,
            rows.map((row) => ({
              userId: row.userId,
              event: 'released' as const,
              push: releasedPush(
                {
                  reservationId: row.reservationId,
                  deskName: row.deskName,
                  roomName: row.roomName,
                  start: formatLocal(row.startTime, row.timeZone),
                  timeZone: row.timeZone,
                },
                isLanguage(row.language) ? row.language : (options.defaultLanguage ?? 'en'),
              ),
              mail: options.mails ? mailOf(row, publicUrl, options.defaultLanguage ?? 'en') : undefined,
            })),
          ),
        );
        total += released;
        if (released < RELEASE_BATCH) break;
      }
      if (total > 0) log.info({ released: total }, 'reservations released: nobody checked in');
      return total;
    },
  };
}
