import { and, eq, inArray, isNotNull, isNull, lte, or, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.js';
import { mailOutbox } from '../../db/schema.js';
import type { PurgeJob } from '../housekeeping/housekeeping.js';
import type { Mail, Mailer } from './mailer.js';

/** A claimed mail is left to its process this long before another process may send it again. */
export const OUTBOX_CLAIM_MS = 2 * 60_000;
/** Attempts before a mail is given up (marked failed). */
export const OUTBOX_MAX_ATTEMPTS = 5;
const BATCH = 20;

/** Rows for the mail outbox, written with the transaction (`db`) that decided the mail. */
export function outboxRow(mail: Mail, now: Date) {
  return { toAddress: mail.to, subject: mail.subject, text: mail.text, html: mail.html, createdAt: now, nextAttemptAt: now };
}

/**
 * Sends what the outbox holds (docs/behaviour.md#mails-of-the-release). Each mail is claimed
 * first (a short statement taking rows FOR UPDATE SKIP LOCKED and setting `claimed_until`), then
 * sent, then marked sent: two processes never send one mail, and a process that dies between the
 * claim and the mark leaves it to be sent again after OUTBOX_CLAIM_MS. A refused mail is tried
 * again later (1, 2, 4, 8 minutes), then marked failed.
 */
export async function sendOutbox(db: Database, mailer: Mailer, now: () => Date, log: FastifyBaseLogger): Promise<number> {
  let sent = 0;
  for (;;) {
    const at = now();
    const claimable = db
      .select({ id: mailOutbox.id })
      .from(mailOutbox)
      .where(
        and(
          isNull(mailOutbox.sentAt),
          isNull(mailOutbox.failedAt),
          lte(mailOutbox.nextAttemptAt, at),
          or(isNull(mailOutbox.claimedUntil), lte(mailOutbox.claimedUntil, at)),
        ),
      )
      .orderBy(mailOutbox.nextAttemptAt)
      .limit(BATCH)
      .for('update', { skipLocked: true });
    const claimed = await db
      .update(mailOutbox)
      .set({ claimedUntil: new Date(at.getTime() + OUTBOX_CLAIM_MS), attempts: sql`${mailOutbox.attempts} + 1` })
      .where(inArray(mailOutbox.id, claimable))
      .returning();
    if (claimed.length === 0) return sent;
    for (const row of claimed) {
      const ok = await mailer.send({ to: row.toAddress, subject: row.subject, text: row.text, html: row.html });
      if (ok) {
        await db.update(mailOutbox).set({ sentAt: now(), claimedUntil: null }).where(eq(mailOutbox.id, row.id));
        sent++;
      } else if (row.attempts >= OUTBOX_MAX_ATTEMPTS) {
        log.error({ mailId: row.id, subject: row.subject }, 'mail given up after repeated failures');
        await db.update(mailOutbox).set({ failedAt: now(), claimedUntil: null }).where(eq(mailOutbox.id, row.id));
      } else {
        const retryAt = new Date(now().getTime() + 60_000 * 2 ** (row.attempts - 1));
        await db.update(mailOutbox).set({ nextAttemptAt: retryAt, claimedUntil: null }).where(eq(mailOutbox.id, row.id));
      }
    }
    if (claimed.length < BATCH) return sent;
  }
}

/**
 * Housekeeping: mails sent or given up before `before` leave the outbox with their address,
 * subject and text (MAIL_RETENTION, docs/behaviour.md#mails-of-the-release). Answers how many.
 */
export async function purgeMailOutbox(db: Database, before: Date): Promise<number> {
  const rows = await db
    .delete(mailOutbox)
    .where(
      and(
        or(isNotNull(mailOutbox.sentAt), isNotNull(mailOutbox.failedAt)),
        sql`coalesce(${mailOutbox.sentAt}, ${mailOutbox.failedAt}) < ${before.toISOString()}::timestamptz`,
      ),
    )
    .returning({ id: mailOutbox.id });
  return rows.length;
}

/** Housekeeping (src/infrastructure/housekeeping): mails sent or given up more than `retentionMs` ago. */
export const mailOutboxPurge = (retentionMs: number): PurgeJob => ({
  name: 'sent and given-up mails',
  purge: (db, now) => purgeMailOutbox(db, new Date(now.getTime() - retentionMs)),
});
