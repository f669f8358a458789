import { useTranslation } from 'react-i18next';
import type { Attendance } from '../../api/types.js';
import { errorText } from '../../lib/problems.js';
import { formatDateTime } from '../../lib/time.js';
import { checkInOpen, statusLabel, useCheckIn } from './queries.js';

const BADGE_CLASS: Record<string, string> = {
  PENDING: 'badge badge-warning',
  CHECKED_IN: 'badge badge-success',
  NO_SHOW: 'badge badge-accent',
  NOT_REQUIRED: 'badge',
};

/** A reservation's attendance as a badge, with when check-in opens or closes. */
export function AttendanceBadge({ attendance }: { attendance: Attendance }) {
  const { t } = useTranslation('checkin');
  const hint =
    attendance.status === 'PENDING' && attendance.releaseAt
      ? Date.now() < Date.parse(attendance.checkInOpensAt)
        ? t('badge.opens', { time: formatDateTime(attendance.checkInOpensAt) })
        : t('badge.until', { time: formatDateTime(attendance.releaseAt) })
      : attendance.status === 'NO_SHOW' && attendance.releasedAt
        ? t('badge.at', { time: formatDateTime(attendance.releasedAt) })
        : undefined;
  return (
    <span className={BADGE_CLASS[attendance.status] ?? 'badge'} data-status={attendance.status}>
      {statusLabel(attendance.status)}
      {hint && <span className="badge-hint"> ({hint})</span>}
    </span>
  );
}

/** "Check in" while the window is open; the server has the last word (its refusal is shown). */
export function CheckInButton({ attendance, label, onDone }: { attendance: Attendance; label: string; onDone?: (message: string) => void }) {
  const { t } = useTranslation('checkin');
  const checkIn = useCheckIn(() => onDone?.(t('checkedIn', { label })));
  if (!checkInOpen(attendance)) return null;
  const failure = errorText(checkIn.error, t('subject.reservation'));
  return (
    <>
      <button
        type="button"
        className="button-primary button-small"
        disabled={checkIn.isPending}
        onClick={() => checkIn.mutate({ params: { path: { id: attendance.reservationId } } })}
        aria-label={t('checkInLabel', { label })}
      >
        {checkIn.isPending ? t('checkingIn') : t('checkIn')}
      </button>
      {failure && (
        <span role="alert" className="field-error">
          {failure}
        </span>
      )}
    </>
  );
}
