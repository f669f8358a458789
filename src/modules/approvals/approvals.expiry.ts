import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.js';
import type { Job } from '../../infrastructure/jobs/runner.js';
import type { Clock } from '../../shared/clock.js';
import type { Language } from '../../shared/languages.js';
import { queueNotices } from '../notifications/notifications.queue.js';
import { languagesOf } from '../preferences/preferences.access.js';
import { outcomeNotice } from './approvals.mail.js';
import { ApprovalsRepository } from './approvals.repository.js';
import type { CancelReservations } from './approvals.service.js';

export const EXPIRY_JOB = 'approval expiry';
/** How often each process looks for requests whose reservation has started. */
export const EXPIRY_INTERVAL_MS = 60_000;
/** Requests expired per transaction. */
const BATCH = 200;
const MAX_BATCHES = 20;

export interface ExpiryJobOptions {
  db: Database;
  clock: Clock;
  log: FastifyBaseLogger;
  /** The one writer's cancel of reservations, in the given transaction (app.ts hands it over). */
  cancel: CancelReservations;
  /** Whether mail can go out (SMTP_URL set). */
  mails: boolean;
  publicUrl: string;
  /** The server's default language, for owners who chose none (docs/i18n.md#choosing-the-language). */
  defaultLanguage?: Language;
  intervalMs?: number;
}

/**
 * The expiry of requests not approved before their reservation starts (docs/policies.md#approvals),
 * a job of the runner in every process: each batch claims the due requests FOR UPDATE SKIP LOCKED,
 * marks them EXPIRED, cancels their reservations through the one writer and queues the owners'
 * mails, in one transaction; so processes share the work and no request expires twice. It also
 * drops pending requests whose reservation is gone. Answers the requests expired.
 */
export function expiryJob(options: ExpiryJobOptions): Job<number> {
  const { db, clock, log } = options;
  return {
    name: EXPIRY_JOB,
    intervalMs: options.intervalMs ?? EXPIRY_INTERVAL_MS,
    runAtStart: true,
    async run(signal) {
      let total = 0;
      for (let batch = 0; batch < MAX_BATCHES && !signal.aborted; batch++) {
        const expired = await db.transaction(async (tx) => {
          const rows = await new ApprovalsRepository(tx).expireDue(clock.now(), BATCH);
          if (rows.length === 0) return 0;
          await options.cancel(
            tx,
            rows.map((row) => row.reservationId),
          );
          const languageOf = await languagesOf(tx, [...new Set(rows.map((row) => row.userId))], options.defaultLanguage ?? 'en');
          await queueNotices(
            tx,
            rows.map((row) => outcomeNotice(row, options, languageOf(row.userId))),
          );
          return rows.length;
        });
        total += expired;
        if (expired < BATCH) break;
      }
      await new ApprovalsRepository(db).dropWithdrawn();
      if (total > 0) log.info({ expired: total }, 'approval requests expired: their reservations started unapproved');
      return total;
    },
  };
}
