import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.js';
import { outboxRow, sendOutbox } from '../../infrastructure/mail/outbox.js';
import type { Mailer } from '../../infrastructure/mail/mailer.js';
import type { Clock } from '../../shared/clock.js';
import { formatLocal } from '../../shared/zone.js';
import { AttendanceRepository, type ReleasedRow } from './attendance.repository.js';

/** Reservations released per transaction. */
export const RELEASE_BATCH = 500;
/** Batches one round may run before it yields to the next (a backlog is worked off over rounds). */
const MAX_BATCHES_PER_ROUND = 40;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** The mail telling the owner their desk was released (docs/behaviour.md#release-of-no-shows). */
export function releaseMail(row: ReleasedRow, publicUrl: string) {
  const started = formatLocal(row.startTime, row.timeZone);
  const released = formatLocal(row.endTime, row.timeZone);
  const text =
    `Hello ${row.firstName},\n\n` +
    `nobody checked in to your reservation of desk ${row.deskName} in ${row.roomName}, starting ${started} (${row.timeZone}), ` +
    `so the desk was released at ${released} for others to book. The reservation now ends then.\n\n` +
    `Your reservations: ${publicUrl}/reservations\n`;
  const html = `<p>Hello ${escapeHtml(row.firstName)},</p><p>nobody checked in to your reservation of desk <b>${escapeHtml(row.deskName)}</b> in ${escapeHtml(row.roomName)}, starting ${started} (${escapeHtml(row.timeZone)}), so the desk was released at ${released} for others to book. The reservation now ends then.</p><p><a href="${escapeHtml(publicUrl)}/reservations">Your reservations</a></p>`;
  return { to: row.email, subject: `Desk ${row.deskName} released: nobody checked in`, text, html };
}

export interface ReleaseLoopOptions {
  db: Database;
  clock: Clock;
  log: FastifyBaseLogger;
  intervalMs: number;
  /** Set when SMTP is configured: releases then write mails to the outbox, and the loop sends them. */
  mailer?: Mailer;
  publicUrl: string;
}

/**
 * Releases due reservations in every server process (docs/behaviour.md#release-of-no-shows): every
 * `intervalMs` it releases what is due in batches (claimed FOR UPDATE SKIP LOCKED, so processes
 * share the work and never do it twice), then sends the mail outbox. What fell due while no process
 * ran is released at the next round. Started by the app, stopped (awaiting a running round) on close.
 */
export class ReleaseLoop {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;
  /** Callers of nextRound(), answered by the round that starts next. */
  private waiting: ((released: number) => void)[] = [];
  /** Reservations this process released (tests and logs). */
  released = 0;

  constructor(private readonly options: ReleaseLoopOptions) {}

  start(): void {
    this.schedule(0);
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      const waiting = this.waiting.splice(0);
      this.running = this.round()
        .then((released) => waiting.forEach((answer) => answer(released)))
        .catch((error: unknown) => {
          this.options.log.warn({ err: error }, 'attendance release round failed');
          waiting.forEach((answer) => answer(0));
        })
        .finally(() => {
          this.running = undefined;
          this.schedule(this.options.intervalMs);
        });
    }, delayMs);
    this.timer.unref();
  }

  /** One round: release what is due, then send waiting mails. */
  async round(): Promise<number> {
    const { db, clock, mailer, publicUrl } = this.options;
    const repository = new AttendanceRepository(db);
    let total = 0;
    for (let batch = 0; batch < MAX_BATCHES_PER_ROUND && !this.stopped; batch++) {
      const { released } = await repository.releaseDue(
        clock.now(),
        RELEASE_BATCH,
        mailer
          ? (tx, rows) =>
              repository.insertMails(
                tx,
                rows.map((row) => outboxRow(releaseMail(row, publicUrl), clock.now())),
              )
          : undefined,
      );
      total += released;
      if (released < RELEASE_BATCH) break;
    }
    if (total > 0) this.options.log.info({ released: total }, 'reservations released: nobody checked in');
    this.released += total;
    if (mailer && !this.stopped) await sendOutbox(db, mailer, () => clock.now(), this.options.log);
    return total;
  }

  /**
   * Resolves once a whole round that starts after this call has run (with what it released; 0
   * once stopped): a caller that moved the clock waits on the work itself, not on a fixed time
   * (docs/testing.md#background-work).
   */
  nextRound(): Promise<number> {
    if (this.stopped) return Promise.resolve(0);
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
    for (const answer of this.waiting.splice(0)) answer(0);
  }
}
