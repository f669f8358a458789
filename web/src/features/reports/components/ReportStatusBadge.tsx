import { useTranslation } from 'react-i18next';
import type { ReportStatus } from '../../../api/types.js';
import { formatDateTime } from '../../../lib/time.js';
import '../styles.css';

const BADGE_CLASS: Record<string, string> = { OPEN: 'badge badge-warning', IN_PROGRESS: 'badge badge-accent', RESOLVED: 'badge badge-success' };

/** A report's status as a badge (docs/behaviour.md#report-status): `status` in reports.json names OPEN, IN_PROGRESS and RESOLVED. */
export function ReportStatusBadge({ status }: { status: ReportStatus }) {
  const { t } = useTranslation('reports');
  return (
    <span className={BADGE_CLASS[status.status] ?? 'badge'} data-status={status.status}>
      {t('status', { status: status.status })}
    </span>
  );
}

/** The admins' note and when the status last changed, when there is either. */
export function ReportStatusNote({ status }: { status: ReportStatus }) {
  const { t } = useTranslation('reports');
  if (!status.note && !status.changedAt) return null;
  return (
    <p className="report-status-note">
      {status.changedAt && <span className="muted">{t('updated', { date: formatDateTime(status.changedAt) })}</span>}
      {status.note && (
        <>
          {status.changedAt && <span className="muted">: </span>}
          {status.note}
        </>
      )}
    </p>
  );
}
