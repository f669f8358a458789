import { enqueue, DeliveryFailed, type OutboxKind, type OutboxMessage } from '../outbox/outbox.js';
import type { Database } from '../../db/client.js';
import type { Mail, Mailer } from './mailer.js';

/** The outbox kind of a mail written out when it was decided (the release of a no-show): nothing in it is secret. */
export const MAIL_KIND = 'mail';

/** A mail as one outbox message, grouped by its (lower-cased) address. */
export const mailMessage = (mail: Mail): OutboxMessage => ({ kind: MAIL_KIND, groupKey: mail.to.toLowerCase(), payload: { ...mail } });

/** Queues mails in the caller's transaction (docs/architecture.md#the-outbox). */
export const queueMails = (db: Database, mails: Mail[]): Promise<void> => enqueue(db, mails.map(mailMessage));

/** Sends the mails of MAIL_KIND: one row, one mail; tried 5 times (1, 2, 4, 8 minutes apart), then dead. */
export function mailKind(mailer: Mailer): OutboxKind<Mail> {
  return {
    kind: MAIL_KIND,
    maxAttempts: 5,
    async deliver(rows) {
      let sent = 0;
      for (const row of rows) {
        if (!(await mailer.send(row.payload))) throw new DeliveryFailed('the SMTP server did not accept the mail', sent);
        sent++;
      }
      return sent;
    },
  };
}
