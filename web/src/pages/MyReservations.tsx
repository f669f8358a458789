import { useState, type FormEvent } from 'react';
import { api, call } from '../api/client.js';
import { placeNames } from '../api/places.js';
import type { Reservation } from '../api/types.js';
import { useUser } from '../auth.js';
import { Alert, Dialog, EmptyState, Loaded, PageHeader, Pager, TextField } from '../components/ui.js';
import { useLoad, useTitle } from '../hooks.js';
import { problemMessage, problemOf } from '../lib/problems.js';
import { placeLabel } from '../lib/search.js';
import { formatRange, isoToLocalWindow, windowToIso, type LocalWindow } from '../lib/time.js';
import { hasErrors, validateWindow, type FormErrors } from '../lib/validation.js';
import { Link } from '../router.js';

const PAGE_SIZE = 20;

export function MyReservations() {
  useTitle('My reservations');
  const { user } = useUser();
  // One instant for both lists, so that an ongoing booking lands in exactly one of them.
  const [now] = useState(() => new Date().toISOString());
  const [upcomingPage, setUpcomingPage] = useState(0);
  const [pastPage, setPastPage] = useState(0);
  const [notice, setNotice] = useState<string>();

  const upcoming = useLoad(
    () => call(api.GET('/api/reservation', { params: { query: { userId: user.id, from: now, sort: ['startTime,asc'], page: upcomingPage, size: PAGE_SIZE } } })),
    [user.id, now, upcomingPage],
  );
  // Reservations that started before now; the ongoing ones are shown as upcoming.
  const past = useLoad(
    () => call(api.GET('/api/reservation', { params: { query: { userId: user.id, to: now, sort: ['startTime,desc'], page: pastPage, size: PAGE_SIZE } } })),
    [user.id, now, pastPage],
  );

  const changed = (message: string) => {
    setNotice(message);
    void upcoming.reload();
  };

  return (
    <div className="page">
      <PageHeader title="My reservations">
        <Link to="/" className="button button-primary">
          Book a desk
        </Link>
      </PageHeader>
      {notice && (
        <Alert kind="success" onDismiss={() => setNotice(undefined)}>
          {notice}
        </Alert>
      )}
      <section aria-labelledby="upcoming-heading">
        <h2 id="upcoming-heading">Upcoming</h2>
        <Loaded state={upcoming.state} retry={() => void upcoming.reload()} label="Loading your reservations…">
          {(page) =>
            page.content.length === 0 ? (
              <EmptyState>
                You have no upcoming reservations. <Link to="/">Find a desk</Link>
              </EmptyState>
            ) : (
              <>
                <ul className="reservation-list">
                  {page.content.map((reservation) => (
                    <ReservationItem key={reservation.id} reservation={reservation} editable onChanged={changed} />
                  ))}
                </ul>
                <Pager page={page.number} totalPages={page.totalPages} onPage={setUpcomingPage} label="Upcoming reservations pages" />
              </>
            )
          }
        </Loaded>
      </section>
      <section aria-labelledby="past-heading">
        <h2 id="past-heading">Past</h2>
        <Loaded state={past.state} retry={() => void past.reload()} label="Loading past reservations…">
          {(page) => {
            const ended = page.content.filter((reservation) => reservation.endTime <= now);
            return ended.length === 0 && page.number === 0 ? (
              <EmptyState>No past reservations yet.</EmptyState>
            ) : (
              <>
                <ul className="reservation-list">
                  {ended.map((reservation) => (
                    <ReservationItem key={reservation.id} reservation={reservation} editable={false} onChanged={changed} />
                  ))}
                </ul>
                <Pager page={page.number} totalPages={page.totalPages} onPage={setPastPage} label="Past reservations pages" />
              </>
            );
          }}
        </Loaded>
      </section>
    </div>
  );
}

function ReservationItem({ reservation, editable, onChanged }: { reservation: Reservation; editable: boolean; onChanged: (message: string) => void }) {
  const names = useLoad(() => placeNames(reservation), [reservation.departmentId, reservation.roomId, reservation.deskId]);
  const [dialog, setDialog] = useState<'change' | 'cancel'>();
  const range = formatRange(reservation.startTime, reservation.endTime);
  const place = names.state.data;
  const deskLabel = place?.deskName ? `Desk ${place.deskName}` : 'Desk';
  // Fixed assignments are made and removed by an admin.
  const changeable = editable && reservation.type === 'shared';

  return (
    <li className="reservation">
      <div className="reservation-main">
        <p className="reservation-time">{range}</p>
        <p>
          <strong>{deskLabel}</strong>
          {place?.room && <> in {place.room.name}</>}
          {reservation.type === 'fixed' && <span className="badge">Assigned</span>}
        </p>
        {place?.department && <p className="muted">{placeLabel(place.department)}</p>}
      </div>
      <div className="reservation-actions">
        <Link
          to={`/report?departmentId=${reservation.departmentId}&roomId=${reservation.roomId}&deskId=${reservation.deskId}`}
          className="button button-secondary button-small"
          aria-label={`Report a problem with ${place?.deskName ? `desk ${place.deskName}` : 'this desk'}`}
        >
          Report a problem
        </Link>
        {changeable && (
          <>
            <button type="button" className="button-secondary button-small" onClick={() => setDialog('change')} aria-label={`Change the time of the reservation of ${range}`}>
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
  const [when, setWhen] = useState<LocalWindow>(() => isoToLocalWindow(reservation.startTime, reservation.endTime));
  const [errors, setErrors] = useState<FormErrors>({});
  const [failure, setFailure] = useState<string>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validateWindow(when, new Date());
    setErrors(found);
    const range = windowToIso(when);
    if (hasErrors(found) || !range) return;
    setBusy(true);
    setFailure(undefined);
    try {
      onDone(await call(api.PUT('/api/reservation/{id}', { params: { path: { id: reservation.id } }, body: { startTime: range.start, endTime: range.end } })));
    } catch (error) {
      setFailure(problemMessage(problemOf(error), 'This reservation'));
      setBusy(false);
    }
  };

  return (
    <Dialog title="Change the time" onClose={onClose}>
      <form onSubmit={submit} noValidate className="stack">
        {failure && <Alert kind="error">{failure}</Alert>}
        <TextField label="Date" type="date" value={when.date} onChange={(event) => setWhen({ ...when, date: event.target.value })} error={errors.date} />
        <div className="field-pair">
          <TextField label="From" type="time" value={when.start} onChange={(event) => setWhen({ ...when, start: event.target.value })} error={errors.start} />
          <TextField label="To" type="time" value={when.end} onChange={(event) => setWhen({ ...when, end: event.target.value })} error={errors.end} />
        </div>
        <div className="dialog-actions">
          <button type="button" className="button-secondary" onClick={onClose} disabled={busy}>
            Keep as it is
          </button>
          <button type="submit" className="button-primary" disabled={busy}>
            {busy ? 'Saving…' : 'Save the new time'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

function CancelDialog({ reservation, range, onClose, onDone }: { reservation: Reservation; range: string; onClose: () => void; onDone: () => void }) {
  const [failure, setFailure] = useState<string>();
  const [busy, setBusy] = useState(false);
  const cancel = async () => {
    setBusy(true);
    try {
      await call(api.DELETE('/api/reservation/{id}', { params: { path: { id: reservation.id } } }));
      onDone();
    } catch (error) {
      setFailure(problemMessage(problemOf(error), 'This reservation'));
      setBusy(false);
    }
  };
  return (
    <Dialog title="Cancel this reservation?" onClose={onClose}>
      <p>{range}. The desk becomes free for others.</p>
      {failure && <Alert kind="error">{failure}</Alert>}
      <div className="dialog-actions">
        <button type="button" className="button-secondary" onClick={onClose} disabled={busy}>
          Keep it
        </button>
        <button type="button" className="button-danger" onClick={() => void cancel()} disabled={busy}>
          {busy ? 'Cancelling…' : 'Cancel the reservation'}
        </button>
      </div>
    </Dialog>
  );
}
