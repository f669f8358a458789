import { useEffect, useState } from 'react';
import type { OfflineEntry } from '../../../lib/offline.js';
import type { Attendance, Reservation } from '../../../api/types.js';
import { Alert, Dialog, FormButtons, TextField } from '../../../components/ui.js';
import { errorText } from '../../../lib/problems.js';
import { formatRange, isoToLocalWindow, windowToIso } from '../../../lib/time.js';
import { Link } from '../../../router.js';
import { departmentLabel, deskPhrase, deskTitle } from '../../../lib/labels.js';
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
  const names = useInventoryNames(reservation);
  const [dialog, setDialog] = useState<'change' | 'cancel'>();
  const range = formatRange(reservation.startTime, reservation.endTime);
  const deskLabel = names.deskName ? deskTitle(names.deskName) : 'Desk';
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
          {names.room && <> in {names.room.name}</>}
          {reservation.type === 'fixed' && <span className="badge">Assigned</span>}
          {awaitingApproval && <AwaitingApproval />}
        </p>
        {attendance && attendance.status !== 'NOT_REQUIRED' && (
          <p>
            <AttendanceBadge attendance={attendance} />
          </p>
        )}
        {names.department && <p className="muted">{departmentLabel(names.department)}</p>}
        {bookedBy && (
          <p className="muted">
            Booked for you by {bookedBy.firstName} {bookedBy.lastName}
          </p>
        )}
      </div>
      <div className="reservation-actions">
        {attendance && !awaitingApproval && <CheckInButton attendance={attendance} label={`${deskLabel}, ${range}`} onDone={onChanged} />}
        <Link
          to={`/report?departmentId=${reservation.departmentId}&roomId=${reservation.roomId}&deskId=${reservation.deskId}`}
          className="button button-secondary button-small"
          aria-label={`Report a problem with ${names.deskName ? deskPhrase(names.deskName) : 'this desk'}`}
        >
          Report a problem
        </Link>
        {changeable && (
          <>
            <button
              type="button"
              className="button-secondary button-small"
              onClick={() => setDialog('change')}
              aria-label={`Change the time of the reservation of ${range}`}
            >
              Change
            </button>
            <button type="button" className="button-danger button-small" onClick={() => setDialog('cancel')} aria-label={`Cancel the reservation of ${range}`}>
              Cancel
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
            onChanged(`Changed to ${formatRange(updated.startTime, updated.endTime)}.`);
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
            onChanged(`Cancelled your reservation of ${range}.`);
          }}
        />
      )}
    </li>
  );
}

function ChangeDialog({ reservation, onClose, onDone }: { reservation: Reservation; onClose: () => void; onDone: (updated: Reservation) => void }) {
  const form = useWindowForm(isoToLocalWindow(reservation.startTime, reservation.endTime));
  const saving = useChangeReservation(onDone);
  const failure = errorText(saving.error, 'This reservation');
  const submit = form.handleSubmit((when) => {
    const range = windowToIso(when);
    if (range) saving.mutate({ params: { path: { id: reservation.id } }, body: { startTime: range.start, endTime: range.end } });
  });

  return (
    <Dialog title="Change the time" onClose={onClose}>
      <form onSubmit={submit} noValidate className="stack">
        {failure && <Alert kind="error">{failure}</Alert>}
        <TextField label="Date" type="date" {...form.field('date')} />
        <div className="field-pair">
          <TextField label="From" type="time" {...form.field('start')} />
          <TextField label="To" type="time" {...form.field('end')} />
        </div>
        <FormButtons className="dialog-actions" cancelLabel="Keep as it is" onCancel={onClose} busy={saving.isPending} busyLabel="Saving…">
          Save the new time
        </FormButtons>
      </form>
    </Dialog>
  );
}

function CancelDialog({ reservation, range, onClose, onDone }: { reservation: Reservation; range: string; onClose: () => void; onDone: () => void }) {
  const cancelling = useCancelReservation(onDone);
  const failure = errorText(cancelling.error, 'This reservation');
  return (
    <Dialog title="Cancel this reservation?" onClose={onClose}>
      <p>{range}. The desk becomes free for others.</p>
      {failure && <Alert kind="error">{failure}</Alert>}
      <div className="dialog-actions">
        <button type="button" className="button-secondary" onClick={onClose} disabled={cancelling.isPending}>
          Keep it
        </button>
        <button
          type="button"
          className="button-danger"
          onClick={() => cancelling.mutate({ params: { path: { id: reservation.id } } })}
          disabled={cancelling.isPending}
        >
          {cancelling.isPending ? 'Cancelling…' : 'Cancel the reservation'}
        </button>
      </div>
    </Dialog>
  );
}
