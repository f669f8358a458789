import { useState } from 'react';
import type { DeskDay } from '../../api/types.js';
import { Alert, EmptyState, Loaded, PageHeader } from '../../components/ui.js';
import { useTitle } from '../../hooks.js';
import { errorText } from '../../lib/problems.js';
import { browserZone, formatRangeIn, formatTimeIn } from '../../lib/time.js';
import { Link } from '../../router.js';
import { departmentLabel, deskPhrase, deskTitle } from '../../lib/labels.js';
import { DeskFeatures } from '../../components/DeskFeatures.js';
import { AttendanceBadge, CheckInButton } from './AttendanceBadge.js';
import { checkInOpen, useDeskDay, useEquipmentOfDesk, useWalkIn } from './queries.js';

/**
 * The page a desk's QR code opens (`/d/{deskId}`; signed-out visitors sign in first and come
 * back): the desk and its day, a one-tap check-in of the caller's current reservation, or a
 * walk-in booking when the desk is free now (docs/behaviour.md#walk-in).
 */
export function DeskPage({ deskId }: { deskId: string }) {
  const day = useDeskDay(deskId);
  useTitle(day.data ? deskTitle(day.data.desk.name) : 'Desk');
  return (
    <div className="page desk-page">
      <Loaded query={day} subject="This desk" label="Loading the desk…">
        {(loaded) => <DeskDayView day={loaded} />}
      </Loaded>
    </div>
  );
}

function DeskDayView({ day }: { day: DeskDay }) {
  const [notice, setNotice] = useState<string>();
  const walkIn = useWalkIn();
  const now = Date.now();
  const mineNow = day.reservations.find(
    (reservation) =>
      reservation.mine && reservation.attendance && Date.parse(reservation.startTime) - 60 * 60_000 <= now && Date.parse(reservation.endTime) > now,
  );
  const failure = errorText(walkIn.error, 'This desk');
  // Times of the office, in its own zone (docs/behaviour.md#office-time-zone): "free until 18:00"
  // is the office's 18:00, whatever the phone's zone.
  const zone = day.timeZone;
  const range = (startTime: string, endTime: string) => formatRangeIn(startTime, endTime, zone);
  const equipment = useEquipmentOfDesk({ departmentId: day.department.id, roomId: day.room.id, deskId: day.desk.id });
  return (
    <>
      <PageHeader title={deskTitle(day.desk.name)} />
      <p className="muted">
        {day.room.name} · {departmentLabel(day.department)}
      </p>
      {zone !== browserZone() && <p className="muted">Times are the office's local time ({zone}).</p>}
      <DeskFeatures type={day.desk.type} equipment={equipment.data?.content} />
      {notice && (
        <Alert kind="success" onDismiss={() => setNotice(undefined)}>
          {notice}
        </Alert>
      )}
      <section className="panel desk-now" aria-labelledby="now-heading">
        <h2 id="now-heading">Now</h2>
        {mineNow?.attendance ? (
          <div className="stack">
            <p>
              Your reservation: <strong>{range(mineNow.startTime, mineNow.endTime)}</strong> <AttendanceBadge attendance={mineNow.attendance} />
            </p>
            {checkInOpen(mineNow.attendance) && (
              <div>
                <CheckInButton attendance={mineNow.attendance} label={deskPhrase(day.desk.name)} onDone={setNotice} />
              </div>
            )}
          </div>
        ) : day.freeNow && day.walkInUntil ? (
          <div className="stack">
            <p>This desk is free now, until {formatTimeIn(day.walkInUntil, zone)}.</p>
            {failure && <Alert kind="error">{failure}</Alert>}
            <div>
              <button
                type="button"
                className="button-primary"
                disabled={walkIn.isPending}
                onClick={() =>
                  walkIn.mutate(
                    { params: { path: { deskId: day.desk.id } } },
                    { onSuccess: (booked) => setNotice(`Booked and checked in: ${range(booked.startTime, booked.endTime)}.`) },
                  )
                }
              >
                {walkIn.isPending ? 'Booking…' : 'Book it now'}
              </button>
            </div>
          </div>
        ) : (
          <p>{day.freeNow ? 'This desk cannot be booked on the spot now.' : 'This desk is taken right now.'}</p>
        )}
      </section>
      <section className="panel" aria-labelledby="day-heading">
        <h2 id="day-heading">Today ({day.date})</h2>
        {day.reservations.length === 0 ? (
          <EmptyState>No reservations today.</EmptyState>
        ) : (
          <ul className="reservation-list">
            {day.reservations.map((reservation) => (
              <li key={`${reservation.startTime}-${reservation.endTime}`} className="reservation">
                <div className="reservation-main">
                  <p className="reservation-time">{range(reservation.startTime, reservation.endTime)}</p>
                  <p>{reservation.mine ? 'You' : 'Reserved'}</p>
                </div>
                {reservation.attendance && <AttendanceBadge attendance={reservation.attendance} />}
              </li>
            ))}
          </ul>
        )}
      </section>
      <p>
        <Link to="/reservations">My reservations</Link>
      </p>
    </>
  );
}
