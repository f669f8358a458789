import { sql } from 'drizzle-orm';
import { queryRows, type Database } from '../../db/client.js';
import { queueMails } from '../../infrastructure/mail/mail-kind.js';
import { reportStatusMail } from '../../infrastructure/mail/templates.js';
import type { Language } from '../../shared/languages.js';
import { languageOf } from '../preferences/preferences.access.js';
import type { ReportStatusNotifier } from './reports.service.js';

/**
 * Tells the reporter of a status change by mail, queued in the outbox inside the transaction that
 * changes the status (docs/behaviour.md#report-status): sent once the change commits, never for
 * one rolled back. Nobody is mailed for a change they made themselves, nor when the reporter's
 * account is disabled or gone.
 */
export function mailReporter(publicUrl: string, defaultLanguage: Language = 'en'): ReportStatusNotifier {
  return async (tx: Database, change) => {
    if (change.changedBy === change.reportedBy) return;
    const [reporter] = await queryRows<{ email: string; firstName: string }>(
      tx,
      sql`select email, first_name as "firstName" from users where id = ${change.reportedBy} and enabled`,
    );
    if (!reporter) return;
    const language = await languageOf(tx, change.reportedBy, defaultLanguage);
    await queueMails(tx, [
      reportStatusMail({ to: reporter.email, firstName: reporter.firstName, title: change.title, status: change.to, note: change.note, publicUrl, language }),
    ]);
  };
}
