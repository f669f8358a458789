import type { Database } from '../../db/client.js';
import { CalendarRepository } from '../../modules/calendar/calendar.repository.js';
import { ThrottleRepository } from '../../identity/throttle.js';
import { PasswordTokensRepository } from '../../modules/password/password.repository.js';
import { SessionsRepository } from '../../modules/sessions/sessions.repository.js';

/**
 * Removes rows that can no longer matter: ended sessions, sign-in windows older than the
 * longest throttle window, expired password links, and calendar tombstones of reservations
 * cancelled more than 30 days ago (docs/behaviour.md#calendar-feed). Safe to run from every process at once.
 */
export async function housekeep(db: Database, now: Date, throttleRetentionMs: number): Promise<void> {
  await Promise.all([
    new SessionsRepository(db).purgeExpired(now),
    new ThrottleRepository(db).purgeOlderThan(new Date(now.getTime() - throttleRetentionMs)),
    new PasswordTokensRepository(db).purgeExpired(now),
    new CalendarRepository(db).purgeTombstones(now),
  ]);
}
