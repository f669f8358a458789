import type { Database } from '../../db/client.js';
import { CalendarRepository } from '../../modules/calendar/calendar.repository.js';
import { purgeMailOutbox } from '../mail/outbox.js';
import { ThrottleRepository } from '../../identity/throttle.js';
import { OidcRepository } from '../../modules/oidc/oidc.repository.js';
import { PasswordTokensRepository } from '../../modules/password/password.repository.js';
import { SessionsRepository } from '../../modules/sessions/sessions.repository.js';

/**
 * Removes rows that can no longer matter: ended sessions, sign-in windows older than the
 * longest throttle window, expired password links and single sign-on attempts, and calendar
 * tombstones of reservations cancelled more than 30 days ago (docs/behaviour.md#calendar-feed),
 * and mails sent or given up more than MAIL_RETENTION ago (docs/behaviour.md#mails-of-the-release).
 * Safe to run from every process at once.
 */
export async function housekeep(db: Database, now: Date, throttleRetentionMs: number, mailRetentionMs = 7 * 86_400_000): Promise<void> {
  await Promise.all([
    new SessionsRepository(db).purgeExpired(now),
    new ThrottleRepository(db).purgeOlderThan(new Date(now.getTime() - throttleRetentionMs)),
    new PasswordTokensRepository(db).purgeExpired(now),
    new CalendarRepository(db).purgeTombstones(now),
    new OidcRepository(db).purgeExpired(now),
    purgeMailOutbox(db, new Date(now.getTime() - mailRetentionMs)),
  ]);
}
