import { useEffect, useState } from 'react';
import { departmentLabel, deskPhrase, deskTitle } from '../../../lib/labels.js';
import { useTranslation } from 'react-i18next';
import type { OfflineEntry } from '../../../lib/offline.js';
import type { Attendance, Reservation } from '../../../api/types.js';
import { Alert, Dialog, FormButtons, TextField } from '../../../components/ui.js';
import { errorText } from '../../../lib/problems.js';
import { formatRange, isoToLocalWindow, windowToIso } from '../../../lib/time.js';
import { Link } from '../../../router.js';
import { AwaitingApproval } from '../../approvals/AwaitingApproval.js';
import { AttendanceBadge, CheckInButton } from '../../attendance/AttendanceBadge.js';
import { useInventoryNames } from '../../inventory/queries.js';
import { useCancelReservation, useChangeReservation } from '../queries.js';
import { useWindowForm } from '../window-form.js';

export function ReservationItem({
  reservation,
  editable,
  onChanged,
  attendance,
  awaitingApproval = false,
  bookedBy,
  onShown,
}: {
  reservation: Reservation;
  editable: boolean;
  onChanged: (message: string) => void;
  /** Its attendance (docs/behaviour.md#check-in), when known. */
  attendance?: Attendance;
  /** Whether it awaits approval (docs/policies.md#approvals): marked, and it cannot be checked in yet. */
  awaitingApproval?: boolean;
  /** Who booked it for its owner, when someone else did (docs/policies.md#booking-for-someone-else). */
  bookedBy?: { firstName: string; lastName: string };
  /** Hears what the item shows, for the list kept for offline use (docs/pwa.md#offline). */
  onShown?: (entry: OfflineEntry) => void;
}) {
  const { t } = useTranslation('booking');
  const names = useInventoryNames(reservation);
  const [dialog, setDialog] = useState<'change' | 'cancel'>();
  const range = formatRange(reservation.startTime, reservation.endTime);
  const deskLabel = names.deskName ? deskTitle(names.deskName) : t('desk.unknown');
  // Fixed assignments are made and removed by an admin.
  const changeable = editable && reservation.type === 'shared';
  const roomName = names.room?.name;
  const department = names.department ? departmentLabel(names.department) : undefined;
  const { id, startTime, endTime } = reservation;
  useEffect(
    () => onShown?.({ id, startTime, endTime, desk: deskLabel, room: roomName, department }),
    [onShown, id, startTime, endTime, deskLabel, roomName, department],
  );

  return (
    <li className="reservation">
      <div className="reservation-main">
        <p className="reservation-time">{range}</p>
        <p>
          <strong>{deskLabel}</strong>
          {names.room && <> {t('reservations.inRoom', { room: names.room.name })}</>}
          {reservation.type === 'fixed' && <span className="badge">{t('reservations.assigned')}</span>}
          {awaitingApproval && <AwaitingApproval />}
        </p>
        {attendance && attendance.status !== 'NOT_REQUIRED' && (
          <p>
            <AttendanceBadge attendance={attendance} />
          </p>
        )}
        {names.department && <p className="muted">{departmentLabel(names.department)}</p>}
        {bookedBy && <p className="muted">{t('reservations.bookedBy', { person: `${bookedBy.firstName} ${bookedBy.lastName}` })}</p>}
      </div>
      <div className="reservation-actions">
        {attendance && !awaitingApproval && <CheckInButton attendance={attendance} label={`${deskLabel}, ${range}`} onDone={onChanged} />}
        <Link
          to={`/report?departmentId=${reservation.departmentId}&roomId=${reservation.roomId}&deskId=${reservation.deskId}`}
          className="button button-secondary button-small"
          aria-label={names.deskName ? t('reservations.reportAria', { desk: deskPhrase(names.deskName) }) : t('reservations.reportThisDesk')}
        >
          {t('search.report')}
        </Link>
        {changeable && (
          <>
            <button
              type="button"
              className="button-secondary button-small"
              onClick={() => setDialog('change')}
              aria-label={t('reservations.changeAria', { range })}
            >
              {t('reservations.change')}
            </button>
            <button
              type="button"
              className="button-danger button-small"
              onClick={() => setDialog('cancel')}
              aria-label={t('reservations.cancelAria', { range })}
            >
              {t('reservations.cancel')}
            </button>
          </>
        )}
      </div>
      {dialog === 'change' && (
        <ChangeDialog
          reservation={reservation}
          onClose={() => setDialog(undefined)}
          onDone={(updated) => {
            setDialog(undefined);
            onChanged(t('reservations.changed', { range: formatRange(updated.startTime, updated.endTime) }));
          }}
        />
      )}
      {dialog === 'cancel' && (
        <CancelDialog
          reservation={reservation}
          range={range}
          onClose={() => setDialog(undefined)}
          onDone={() => {
            setDialog(undefined);
            onChanged(t('reservations.cancelled', { range }));
          }}
        />
      )}
    </li>
  );
}

function ChangeDialog({ reservation, onClose, onDone }: { reservation: Reservation; onClose: () => void; onDone: (updated: Reservation) => void }) {
  const { t } = useTranslation('booking');
  const form = useWindowForm(isoToLocalWindow(reservation.startTime, reservation.endTime));
  const saving = useChangeReservation(onDone);
  const failure = errorText(saving.error, t('subject.reservation'));
  const submit = form.handleSubmit((when) => {
    const range = windowToIso(when);
    if (range) saving.mutate({ params: { path: { id: reservation.id } }, body: { startTime: range.start, endTime: range.end } });
  });

  return (
    <Dialog title={t('reservations.changeTitle')} onClose={onClose}>
      <form onSubmit={submit} noValidate className="stack">
        {failure && <Alert kind="error">{failure}</Alert>}
        <TextField label={t('common:fields.date')} type="date" {...form.field('date')} />
        <div className="field-pair">
          <TextField label={t('time.from')} type="time" {...form.field('start')} />
          <TextField label={t('time.to')} type="time" {...form.field('end')} />
        </div>
        <FormButtons
          className="dialog-actions"
          cancelLabel={t('reservations.keepAsItIs')}
          onCancel={onClose}
          busy={saving.isPending}
          busyLabel={t('common:saving')}
        >
          {t('reservations.saveTime')}
        </FormButtons>
      </form>
    </Dialog>
  );
}

function CancelDialog({ reservation, range, onClose, onDone }: { reservation: Reservation; range: string; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation('booking');
  const cancelling = useCancelReservation(onDone);
  const failure = errorText(cancelling.error, t('subject.reservation'));
  return (
    <Dialog title={t('reservations.cancelTitle')} onClose={onClose}>
      <p>{t('reservations.cancelText', { range })}</p>
      {failure && <Alert kind="error">{failure}</Alert>}
      <div className="dialog-actions">
        <button type="button" className="button-secondary" onClick={onClose} disabled={cancelling.isPending}>
          {t('reservations.keepIt')}
        </button>
        <button
          type="button"
          className="button-danger"
          onClick={() => cancelling.mutate({ params: { path: { id: reservation.id } } })}
          disabled={cancelling.isPending}
        >
          {cancelling.isPending ? t('reservations.cancelling') : t('reservations.cancelReservation')}
        </button>
      </div>
    </Dialog>
  );
}
