import type { Database } from '../../db/client.js';
import { DeliveryFailed, type OutboxKind } from '../../infrastructure/outbox/outbox.js';
import type { Mailer } from '../../infrastructure/mail/mailer.js';
import { approvalOutcomeMail, approvalRequestLine, approvalRequestsMail } from '../../infrastructure/mail/templates.js';
import type { Language } from '../../shared/languages.js';
import { formatLocal } from '../../shared/zone.js';
import type { Notice } from '../notifications/notifications.queue.js';
import { approvalPush } from '../notifications/notifications.texts.js';
import { languageOf } from '../preferences/preferences.access.js';
import { APPROVAL_REQUEST_KIND, ApprovalsRepository, type ApprovalRow } from './approvals.repository.js';

/** Requests named in one approver's mail; the rest are counted. */
const LINES = 10;
/** Mails one approver is sent per hour at most; past it the requests wait and go out folded into one. */
const MAILS_PER_HOUR = 4;

/**
 * The approvers' mail as a kind of the outbox (docs/policies.md#approvals): the rows are grouped by
 * approver (their user id) with one topic, so every request queued for one approver before a claim
 * leaves as one mail, and at most MAILS_PER_HOUR such mails go to one approver in an hour (the
 * outbox's per-group limit; the rest wait and fold in). The mail says what is pending at sending
 * time: nothing is sent when everything was decided meanwhile or the approver is disabled.
 */
export function approvalRequestKind(db: Database, mailer: Mailer, publicUrl: string, defaultLanguage: Language = 'en'): OutboxKind<{ reservationId: string }> {
  const repository = new ApprovalsRepository(db);
  return {
    kind: APPROVAL_REQUEST_KIND,
    perGroup: { limit: MAILS_PER_HOUR, windowMs: 3_600_000 },
    maxAttempts: 10,
    async deliver(rows) {
      const digest = await repository.approverDigest(rows[0]!.groupKey, LINES);
      if (!digest || digest.count === 0) return 0;
      // The approver's language: the group key is their user id.
      const language = await languageOf(db, rows[0]!.groupKey, defaultLanguage);
      const mail = approvalRequestsMail({
        to: digest.email,
        firstName: digest.firstName,
        count: digest.count,
        lines: digest.pending.map((row) =>
          approvalRequestLine(language, {
            name: `${row.firstName} ${row.lastName}`.trim(),
            deskName: row.deskName ?? '?',
            roomName: row.roomName ?? '?',
            start: formatLocal(row.startTime, row.timeZone),
            timeZone: row.timeZone,
          }),
        ),
        publicUrl,
        language,
      });
      if (!(await mailer.send(mail))) throw new DeliveryFailed('the SMTP server did not accept the approval mail');
      return 1;
    },
  };
}

/** The owner's mail on a decision or an expiry (kind `mail`, queued in the deciding transaction). */
export const outcomeMail = (row: ApprovalRow, publicUrl: string, language: Language = 'en') =>
  approvalOutcomeMail({
    to: row.email,
    firstName: row.firstName,
    outcome: row.status as 'APPROVED' | 'REJECTED' | 'EXPIRED',
    deskName: row.deskName ?? '?',
    roomName: row.roomName ?? '?',
    start: formatLocal(row.startTime, row.timeZone),
    timeZone: row.timeZone,
    note: row.note,
    publicUrl,
    language,
  });

/**
 * The owner's notice of a decision or an expiry (docs/notifications.md#events): the mail above when
 * mail can go out, and a push; each as the owner's switches of `approval-decided` allow.
 */
export const outcomeNotice = (row: ApprovalRow, options: { publicUrl: string; mails: boolean }, language: Language = 'en'): Notice => ({
  userId: row.userId,
  event: 'approval-decided',
  push: approvalPush(
    {
      reservationId: row.reservationId,
      deskName: row.deskName ?? '?',
      roomName: row.roomName ?? '?',
      start: formatLocal(row.startTime, row.timeZone),
      timeZone: row.timeZone,
    },
    row.status as 'APPROVED' | 'REJECTED' | 'EXPIRED',
    language,
  ),
  mail: options.mails ? outcomeMail(row, options.publicUrl, language) : undefined,
});
