import type { ReportStatus } from '../../../api/types.js';
import { formatDateTime } from '../../../lib/time.js';
import { REPORT_STATUS_LABELS } from '../queries.js';
import '../styles.css';

const BADGE_CLASS: Record<string, string> = { OPEN: 'badge badge-warning', IN_PROGRESS: 'badge badge-accent', RESOLVED: 'badge badge-success' };

/** A report's status as a badge (docs/behaviour.md#report-status). */
export function ReportStatusBadge({ status }: { status: ReportStatus }) {
  return (
    <span className={BADGE_CLASS[status.status] ?? 'badge'} data-status={status.status}>
      {REPORT_STATUS_LABELS[status.status] ?? status.status}
    </span>
  );
}

/** The admins' note and when the status last changed, when there is either. */
export function ReportStatusNote({ status }: { status: ReportStatus }) {
  if (!status.note && !status.changedAt) return null;
  return (
    <p className="report-status-note">
      {status.changedAt && <span className="muted">Updated {formatDateTime(status.changedAt)}</span>}
      {status.note && (
        <>
          {status.changedAt && <span className="muted">: </span>}
          {status.note}
        </>
      )}
    </p>
  );
}
