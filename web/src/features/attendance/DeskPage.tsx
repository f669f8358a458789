import { useState } from 'react';
import { departmentLabel, deskPhrase, deskTitle } from '../../lib/labels.js';
import { useTranslation } from 'react-i18next';
import type { DeskDay } from '../../api/types.js';
import { Alert, EmptyState, Loaded, PageHeader } from '../../components/ui.js';
import { useTitle } from '../../hooks.js';
import { errorText } from '../../lib/problems.js';
import { browserZone, formatRangeIn, formatTimeIn } from '../../lib/time.js';
import { Link } from '../../router.js';
import { DeskFeatures } from '../../components/DeskFeatures.js';
import { AttendanceBadge, CheckInButton } from './AttendanceBadge.js';
import { checkInOpen, useDeskDay, useEquipmentOfDesk, useWalkIn } from './queries.js';

/**
 * The page a desk's QR code opens (`/d/{deskId}`; signed-out visitors sign in first and come
 * back): the desk and its day, a one-tap check-in of the caller's current reservation, or a
 * walk-in booking when the desk is free now (docs/behaviour.md#walk-in).
 */
export function DeskPage({ deskId }: { deskId: string }) {
  // The desk's words (its name, type and equipment) are the booking pages'.
  const { t } = useTranslation(['checkin', 'booking']);
  const day = useDeskDay(deskId);
  useTitle(day.data ? deskTitle(day.data.desk.name) : t('desk'));
  return (
    <div className="page desk-page">
      <Loaded query={day} subject={t('subject.desk')} label={t('loading')}>
        {(loaded) => <DeskDayView day={loaded} />}
      </Loaded>
    </div>
  );
}

function DeskDayView({ day }: { day: DeskDay }) {
  const { t } = useTranslation(['checkin', 'booking']);
  const [notice, setNotice] = useState<string>();
  const walkIn = useWalkIn();
  const now = Date.now();
  const mineNow = day.reservations.find(
    (reservation) =>
      reservation.mine && reservation.attendance && Date.parse(reservation.startTime) - 60 * 60_000 <= now && Date.parse(reservation.endTime) > now,
  );
  const failure = errorText(walkIn.error, t('subject.desk'));
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
      {zone !== browserZone() && <p className="muted">{t('officeTime', { zone })}</p>}
      <DeskFeatures type={day.desk.type} equipment={equipment.data?.content} />
      {notice && (
        <Alert kind="success" onDismiss={() => setNotice(undefined)}>
          {notice}
        </Alert>
      )}
      <section className="panel desk-now" aria-labelledby="now-heading">
        <h2 id="now-heading">{t('now')}</h2>
        {mineNow?.attendance ? (
          <div className="stack">
            <p>
              {t('yours')} <strong>{range(mineNow.startTime, mineNow.endTime)}</strong> <AttendanceBadge attendance={mineNow.attendance} />
            </p>
            {checkInOpen(mineNow.attendance) && (
              <div>
                <CheckInButton attendance={mineNow.attendance} label={deskPhrase(day.desk.name)} onDone={setNotice} />
              </div>
            )}
          </div>
        ) : day.freeNow && day.walkInUntil ? (
          <div className="stack">
            <p>{t('freeUntil', { time: formatTimeIn(day.walkInUntil, zone) })}</p>
            {failure && <Alert kind="error">{failure}</Alert>}
            <div>
              <button
                type="button"
                className="button-primary"
                disabled={walkIn.isPending}
                onClick={() =>
                  walkIn.mutate(
                    { params: { path: { deskId: day.desk.id } } },
                    { onSuccess: (booked) => setNotice(t('walkedIn', { range: range(booked.startTime, booked.endTime) })) },
                  )
                }
              >
                {walkIn.isPending ? t('booking') : t('bookNow')}
              </button>
            </div>
          </div>
        ) : (
          <p>{day.freeNow ? t('notOnTheSpot') : t('taken')}</p>
        )}
      </section>
      <section className="panel" aria-labelledby="day-heading">
        <h2 id="day-heading">{t('today', { date: day.date })}</h2>
        {day.reservations.length === 0 ? (
          <EmptyState>{t('noneToday')}</EmptyState>
        ) : (
          <ul className="reservation-list">
            {day.reservations.map((reservation) => (
              <li key={`${reservation.startTime}-${reservation.endTime}`} className="reservation">
                <div className="reservation-main">
                  <p className="reservation-time">{range(reservation.startTime, reservation.endTime)}</p>
                  <p>{reservation.mine ? t('you') : t('reserved')}</p>
                </div>
                {reservation.attendance && <AttendanceBadge attendance={reservation.attendance} />}
              </li>
            ))}
          </ul>
        )}
      </section>
      <p>
        <Link to="/reservations">{t('myReservations')}</Link>
      </p>
    </>
  );
}
