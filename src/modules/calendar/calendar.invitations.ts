import type { Database } from '../../db/client.js';
import { DeliveryFailed, type OutboxKind } from '../../infrastructure/outbox/outbox.js';
import type { Mailer } from '../../infrastructure/mail/mailer.js';
import { invitationMail } from '../../infrastructure/mail/templates.js';
import type { Clock } from '../../shared/clock.js';
import { mailText } from '../../infrastructure/mail/messages.js';
import { isLanguage, type Language } from '../../shared/languages.js';
import { invitationCalendar, linkOf, placeOf, summaryOf, type CalendarContext, type Invitation } from './calendar.mappers.js';
import { CalendarRepository, type CalendarEventRow, type MailRecipient } from './calendar.repository.js';

/** The outbox kind of invitation mails; the reservations trigger (calendar_track) writes its rows. */
export const INVITATION_KIND = 'calendar.invitation';

/** What the trigger stores in a row: the reservation, and its series (the row's topic is the series, else the reservation). */
export interface InvitationPayload {
  reservationId: string;
  seriesId: string | null;
}

export interface InvitationSettings extends CalendarContext {
  /** MAIL_FROM, the organizer of the invitations. */
  mailFrom: string;
  /** CALENDAR_MAILS_PER_HOUR: invitation mails one person is sent per hour at most (the rest are folded into one). */
  mailsPerHour: number;
  /** The server's default language, for people who chose none (docs/i18n.md#mails-and-the-calendar-feed). */
  defaultLanguage?: Language;
}

const HOUR_MS = 3_600_000;

/** "Deskbook <deskbook@example.org>" → name and address; a bare address is both. */
export function parseMailbox(value: string): { name: string; email: string } {
  const match = /^\s*"?([^"<]*?)"?\s*<([^>]+)>\s*$/.exec(value);
  if (match) return { name: match[1]!.trim() || match[2]!.trim(), email: match[2]!.trim() };
  return { name: value.trim(), email: value.trim() };
}

const day = (date: Date) => date.toISOString().slice(0, 10);
const time = (date: Date) => date.toISOString().slice(11, 16);
const span = (event: CalendarEventRow) =>
  `${day(event.startTime)} ${time(event.startTime)}–${day(event.endTime) === day(event.startTime) ? '' : `${day(event.endTime)} `}${time(event.endTime)} UTC`;

/**
 * Invitation mails (docs/behaviour.md#invitation-mails) as a kind of the outbox: rows are grouped
 * by the person (their user id) and topic (the series, else the reservation), so one claim is one
 * person's rows of one series or reservation, people are served in turn, and past
 * CALENDAR_MAILS_PER_HOUR in an hour the rest wait, or go out folded into one claim (the outbox's
 * per-group limit). A claim mails the events' state at sending time: a REQUEST for what stands, a
 * CANCEL for what was cancelled after its invitation went out; nothing for what has ended.
 */
export function invitationKind(db: Database, mailer: Mailer, clock: Clock, settings: InvitationSettings): OutboxKind<InvitationPayload> {
  const organizer = parseMailbox(settings.mailFrom);
  const repository = new CalendarRepository(db);

  const send = (recipient: MailRecipient, method: Invitation['method'], events: CalendarEventRow[]) => {
    const attendee = { name: `${recipient.firstName} ${recipient.lastName}`.trim(), email: recipient.email };
    const first = events[0]!;
    const language = isLanguage(recipient.language) ? recipient.language : (settings.defaultLanguage ?? 'en');
    const what = { summary: summaryOf(first, language), date: day(first.startTime), count: events.length };
    return mailer.send(
      invitationMail({
        to: recipient.email,
        method,
        changed: method === 'REQUEST' && events.every((event) => event.sequence > 0),
        what: mailText(language, events.length === 1 ? 'invitation.one' : 'invitation.many', what),
        events: events.map((event) => ({ span: span(event), location: placeOf(event.location, language), link: linkOf(event.reservationId, settings) })),
        calendar: invitationCalendar(method, events, organizer, attendee, settings, language),
        language,
      }),
    );
  };

  return {
    kind: INVITATION_KIND,
    perGroup: { limit: settings.mailsPerHour, windowMs: HOUR_MS },
    maxAttempts: 10,
    async deliver(rows) {
      const recipient = await repository.recipient(rows[0]!.groupKey);
      const now = clock.now();
      const events = recipient?.enabled && recipient.invitationMails ? await repository.events([...new Set(rows.map((row) => row.payload.reservationId))]) : [];
      // Nothing to tell about reservations that have ended, except that one released as a no-show
      // (cancelled at its new end) is gone; and no cancellation of what was never invited
      // (docs/behaviour.md#invitation-mails).
      const due = events.filter((event) =>
        event.cancelledAt === null ? event.endTime > now : event.invited === true && (event.endTime > now || event.endTime >= event.cancelledAt),
      );
      const mails = (['REQUEST', 'CANCEL'] as const)
        .map((method) => ({ method, events: due.filter((event) => (event.cancelledAt === null) === (method === 'REQUEST')) }))
        .filter((mail) => mail.events.length > 0);
      let sent = 0;
      for (const mail of mails) {
        if (!(await send(recipient!, mail.method, mail.events))) throw new DeliveryFailed('the SMTP server did not accept the invitation mail', sent);
        if (mail.method === 'REQUEST')
          await repository.markInvited(
            mail.events.map((event) => event.reservationId),
            clock.now(),
          );
        sent++;
      }
      return sent;
    },
  };
}
