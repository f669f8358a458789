import type { Database } from '../../db/client.js';
import { onBehalfMail } from '../../infrastructure/mail/templates.js';
import type { Clock } from '../../shared/clock.js';
import type { Language } from '../../shared/languages.js';
import { formatLocal } from '../../shared/zone.js';
import { isAdmin, type Caller } from '../../identity/caller.js';
import { isManagerOf, managedMemberIdsQuery } from '../teams/teams.access.js';
import { grantorIdsQuery, isDelegateOf } from '../delegates/delegates.access.js';
import { queueNotices } from '../notifications/notifications.queue.js';
import { languageOf } from '../preferences/preferences.access.js';
import { bookedByOthersPush } from '../notifications/notifications.texts.js';
import { OnBehalfRepository, type Person } from './reservations.on-behalf.repository.js';

/** Most people the "Book for…" picker answers at once, and most reservations "booked by others" lists. */
export const PEOPLE_LIMIT = 50;
export const BOOKED_BY_OTHERS_LIMIT = 500;

/**
 * Who may book, change and cancel for a person (docs/policies.md#booking-for-someone-else): the
 * person, an admin, a manager of a team the person is in, and a delegate the person named.
 */
export async function mayActFor(db: Database, caller: Caller, personId: string): Promise<boolean> {
  if (caller.user.id === personId || isAdmin(caller)) return true;
  return (await isManagerOf(db, caller.user.id, personId)) || (await isDelegateOf(db, caller.user.id, personId));
}

export interface NoticeSettings {
  /** Whether mail can go out (SMTP_URL set): only then is a notice queued. */
  mails: boolean;
  publicUrl: string;
  /** The server's default language, for people who chose none (docs/i18n.md#choosing-the-language). */
  defaultLanguage?: Language;
}

/** The people side of booking for someone else: the picker, the notices, and who booked what. */
export class OnBehalf {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly settings: NoticeSettings,
  ) {}

  /** The people the caller may book for (themselves left out), by name: every enabled user for an admin. */
  async people(caller: Caller, search: string | undefined): Promise<Person[]> {
    const repository = new OnBehalfRepository(this.db);
    const term = search?.trim() || undefined;
    if (isAdmin(caller)) return repository.people(caller.user.id, undefined, term, PEOPLE_LIMIT);
    return repository.people(caller.user.id, [managedMemberIdsQuery(caller.user.id), grantorIdsQuery(caller.user.id)], term, PEOPLE_LIMIT);
  }

  /** The caller's reservations not yet ended that someone else booked, and who. */
  async bookedByOthers(caller: Caller) {
    return new OnBehalfRepository(this.db).bookedByOthers(caller.user.id, this.clock.now(), BOOKED_BY_OTHERS_LIMIT);
  }

  /**
   * The notice telling the person that `caller` booked, changed or cancelled their reservation, as
   * a step of the writing transaction (`undefined` when they did it themselves): by mail when mail
   * can go out, and by push, each as the person's switches of `booked-by-others` allow
   * (docs/notifications.md#events). Queued in the outbox in that transaction, so it leaves once the
   * write commits and never for a write rolled back; the calendar invitation the write queued itself
   * goes out as for any booking (docs/policies.md#booking-for-someone-else).
   */
  notice(
    caller: Caller,
    reservation: { id?: string; userId: string; deskId: string; startTime: Date; endTime: Date },
    action: 'booked' | 'changed' | 'cancelled',
  ): ((tx: Database) => Promise<void>) | undefined {
    if (caller.user.id === reservation.userId) return undefined;
    return async (tx) => {
      const details = await new OnBehalfRepository(tx).noticeDetails(reservation.userId, caller.user.id, reservation.deskId);
      if (!details) return;
      const start = formatLocal(reservation.startTime, details.timeZone);
      const language = await languageOf(tx, reservation.userId, this.settings.defaultLanguage ?? 'en');
      const mail = this.settings.mails
        ? onBehalfMail({
            to: details.email,
            firstName: details.firstName,
            bookerName: details.bookerName,
            action,
            deskName: details.deskName,
            roomName: details.roomName,
            timeZone: details.timeZone,
            start,
            end: formatLocal(reservation.endTime, details.timeZone),
            publicUrl: this.settings.publicUrl,
            language,
          })
        : undefined;
      const push = bookedByOthersPush(
        {
          reservationId: reservation.id ?? `${reservation.deskId}-${reservation.startTime.getTime()}`,
          deskName: details.deskName,
          roomName: details.roomName,
          start,
          timeZone: details.timeZone,
        },
        action,
        language,
      );
      await queueNotices(tx, [{ userId: reservation.userId, event: 'booked-by-others', push, mail }]);
    };
  }
}
