import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.js';
import type { Mailer } from '../../infrastructure/mail/mailer.js';
import type { Clock } from '../../shared/clock.js';
import { invitationCalendar, linkOf, summaryOf, type CalendarContext, type Invitation } from './calendar.mappers.js';
import { CalendarRepository, type CalendarEventRow, type MailQuota, type MailRecipient, type OutboxRow } from './calendar.repository.js';

export interface InvitationSettings extends CalendarContext {
  /** Whether mail can go out at all (SMTP_URL set); without it, outbox rows are dropped unsent. */
  mailConfigured: boolean;
  /** MAIL_FROM, the organizer of the invitations. */
  mailFrom: string;
  /** CALENDAR_MAIL_LEASE: how long a claim lasts before another process may take the rows over. */
  leaseMs: number;
  /** CALENDAR_MAILS_PER_HOUR: invitation mails one person is sent per hour at most (the rest are folded into one). */
  mailsPerHour: number;
}

const HOUR_MS = 3_600_000;

/** A failed mail waits 1 min, 2 min, 4 min … (at most 1 h) and is given up after this many tries. */
const MAX_ATTEMPTS = 10;
const retryDelayMs = (attempts: number) => Math.min(60_000 * 2 ** (attempts - 1), 3_600_000);
/** Groups one pass sends at most (the next pass continues). */
const GROUPS_PER_PASS = 200;

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
 * Sends the invitation mails of docs/behaviour.md#invitation-mails from the outbox the
 * reservations trigger fills. Every server process runs one: a pass claims a group (one user's
 * rows of one series, or of one reservation), mails the events' state at that moment, and
 * deletes the rows only after the SMTP server accepted the mail. A process that dies after
 * claiming leaves the rows to another after CALENDAR_MAIL_LEASE: delivery is at least once.
 */
export class InvitationSender {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> = Promise.resolve();
  private stopped = false;
  private readonly organizer: { name: string; email: string };

  constructor(
    private readonly db: Database,
    private readonly mailer: Mailer,
    private readonly clock: Clock,
    private readonly settings: InvitationSettings,
    private readonly log: FastifyBaseLogger,
  ) {
    this.organizer = parseMailbox(settings.mailFrom);
    this.quota = { mailsPerWindow: settings.mailsPerHour, windowMs: HOUR_MS };
  }

  private readonly quota: MailQuota;

  /** Runs a pass every `intervalMs` (one at a time) until stop(). */
  start(intervalMs: number): void {
    const tick = () => {
      this.running = this.runOnce()
        .catch((error: unknown) => this.log.warn({ err: error }, 'invitation mails: pass failed'))
        .finally(() => {
          if (!this.stopped) this.timer = setTimeout(tick, intervalMs).unref();
        });
    };
    this.timer = setTimeout(tick, intervalMs).unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /** One pass: claims and handles due groups until none is left (or GROUPS_PER_PASS). Answers the mails sent. */
  async runOnce(): Promise<number> {
    const repository = new CalendarRepository(this.db);
    if (!this.settings.mailConfigured) {
      // Nothing can be sent: the queue is emptied in bulk, so bookings never pile rows up.
      while (!this.stopped && (await repository.dropUnclaimed(this.clock.now(), 1000)) === 1000);
      return 0;
    }
    let sent = 0;
    for (let groups = 0; groups < GROUPS_PER_PASS && !this.stopped; groups++) {
      const token = randomUUID();
      const now = this.clock.now();
      const rows = await repository.claimGroup(now, new Date(now.getTime() + this.settings.leaseMs), token, this.quota);
      if (rows.length === 0) break;
      sent += await this.handle(repository, rows, token);
    }
    return sent;
  }

  private async handle(repository: CalendarRepository, rows: OutboxRow[], token: string): Promise<number> {
    const ids = rows.map((row) => row.id);
    const userId = rows[0]!.userId;
    const recipient = await repository.recipient(userId);
    const now = this.clock.now();
    const events = recipient?.enabled && recipient.invitationMails ? await repository.events([...new Set(rows.map((row) => row.reservationId))]) : [];
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
      if (!(await this.send(recipient!, mail.method, mail.events))) {
        const attempts = Math.max(...rows.map((row) => row.attempts));
        if (attempts >= MAX_ATTEMPTS) {
          this.log.error({ userId, attempts }, 'invitation mail given up');
          break;
        }
        if (sent > 0) await repository.countMails(userId, sent, now, this.quota.windowMs);
        await repository.postpone(ids, token, new Date(now.getTime() + retryDelayMs(attempts)));
        return sent;
      }
      if (mail.method === 'REQUEST')
        await repository.markInvited(
          mail.events.map((event) => event.reservationId),
          this.clock.now(),
        );
      sent++;
    }
    if (sent > 0) await repository.countMails(userId, sent, now, this.quota.windowMs);
    await repository.acknowledge(ids, token);
    return sent;
  }

  private async send(recipient: MailRecipient, method: Invitation['method'], events: CalendarEventRow[]): Promise<boolean> {
    const attendee = { name: `${recipient.firstName} ${recipient.lastName}`.trim(), email: recipient.email };
    const invitation = invitationCalendar(method, events, this.organizer, attendee, this.settings);
    const first = events[0]!;
    const changed = method === 'REQUEST' && events.every((event) => event.sequence > 0);
    const what =
      events.length === 1 ? `${summaryOf(first)} on ${day(first.startTime)}` : `${summaryOf(first)}, ${events.length} dates from ${day(first.startTime)}`;
    const subject = method === 'CANCEL' ? `Cancelled: ${what}` : changed ? `Changed: ${what}` : `Booked: ${what}`;
    const lines = events.map((event) => `- ${span(event)}: ${event.location}\n  ${linkOf(event.reservationId, this.settings)}`);
    const intro =
      method === 'CANCEL' ? 'These desk reservations were cancelled:' : changed ? 'Your desk reservations now stand as follows:' : 'Your desk reservations:';
    const text = `${intro}\n\n${lines.join('\n')}\n\nYour calendar app shows the times in your own time zone. Turn these mails off on your profile page.\n`;
    const html = `<p>${escapeHtml(intro)}</p><ul>${events
      .map(
        (event) =>
          `<li>${escapeHtml(span(event))}: ${escapeHtml(event.location)} (<a href="${escapeHtml(linkOf(event.reservationId, this.settings))}">open</a>)</li>`,
      )
      .join('')}</ul><p>Your calendar app shows the times in your own time zone. Turn these mails off on your profile page.</p>`;
    return this.mailer.send({ to: recipient.email, subject, text, html, calendar: invitation });
  }
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
