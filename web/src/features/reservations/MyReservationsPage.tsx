import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, EmptyState, Loaded, PageHeader, Pager } from '../../components/ui.js';
import { useTitle } from '../../hooks.js';
import { Link } from '../../router.js';
import { useUser } from '../auth/AuthProvider.js';
import { useMyPendingApprovals } from '../approvals/queries.js';
import { useMyAttendance } from '../attendance/queries.js';
import { browserStorage, saveOfflineSnapshot, type OfflineEntry } from '../../lib/offline.js';
import { MySeries } from '../series/MySeries.js';
import { ReservationItem } from './components/ReservationItem.js';
import { useBookedByOthers, useReservations } from './queries.js';
import { WeekView } from './WeekView.js';

const PAGE_SIZE = 20;

export function MyReservationsPage() {
  const { t } = useTranslation('booking');
  useTitle(t('reservations.title'));
  const { user } = useUser();
  // One instant for both lists, so that an ongoing booking lands in exactly one of them.
  const [now] = useState(() => new Date().toISOString());
  const [upcomingPage, setUpcomingPage] = useState(0);
  const [pastPage, setPastPage] = useState(0);
  const [notice, setNotice] = useState<string>();

  const mine = { userId: user.id, size: PAGE_SIZE };
  // Attendance of the reservations not ended yet, for the badges and check-in buttons.
  const attendance = useMyAttendance(user.id, now);
  // Which of them await approval (docs/policies.md#approvals).
  const pending = useMyPendingApprovals();
  // Who booked which of them for the caller (docs/policies.md#booking-for-someone-else).
  const bookedByOthers = useBookedByOthers();
  const bookers = new Map((bookedByOthers.data ?? []).map((entry) => [entry.reservationId, entry.bookedBy]));
  const upcoming = useReservations({ ...mine, from: now, sort: ['startTime,asc'], page: upcomingPage });
  // Reservations that started before now; the ongoing ones are shown as upcoming.
  const past = useReservations({ ...mine, to: now, sort: ['startTime,desc'], page: pastPage });

  // The first page of upcoming reservations, as shown, is kept for the offline page (docs/pwa.md#offline).
  const shown = useRef(new Map<string, OfflineEntry>());
  const firstUpcoming = upcomingPage === 0 && !upcoming.isPlaceholderData ? upcoming.data?.content : undefined;
  const keepForOffline = useCallback(() => {
    const storage = browserStorage();
    if (!firstUpcoming || !storage) return;
    const entries = firstUpcoming.map(
      (reservation) =>
        shown.current.get(reservation.id) ?? { id: reservation.id, startTime: reservation.startTime, endTime: reservation.endTime, desk: t('desk.unknown') },
    );
    saveOfflineSnapshot(storage, user.id, entries, new Date());
  }, [firstUpcoming, user.id, t]);
  useEffect(keepForOffline, [keepForOffline]);
  const onShown = useCallback(
    (entry: OfflineEntry) => {
      shown.current.set(entry.id, entry);
      keepForOffline();
    },
    [keepForOffline],
  );

  return (
    <div className="page">
      <PageHeader title={t('reservations.title')}>
        <Link to="/" className="button button-primary">
          {t('reservations.bookDesk')}
        </Link>
      </PageHeader>
      {notice && (
        <Alert kind="success" onDismiss={() => setNotice(undefined)}>
          {notice}
        </Alert>
      )}
      <WeekView userId={user.id} />
      <MySeries userId={user.id} onChanged={setNotice} />
      <section aria-labelledby="upcoming-heading">
        <h2 id="upcoming-heading">{t('reservations.upcoming')}</h2>
        <Loaded query={upcoming} label={t('reservations.loadingUpcoming')}>
          {(page) =>
            page.content.length === 0 ? (
              <EmptyState>
                {t('reservations.noUpcoming')} <Link to="/">{t('search.title')}</Link>
              </EmptyState>
            ) : (
              <>
                <ul className="reservation-list">
                  {page.content.map((reservation) => (
                    <ReservationItem
                      key={reservation.id}
                      reservation={reservation}
                      editable
                      onChanged={setNotice}
                      attendance={attendance.data?.get(reservation.id)}
                      awaitingApproval={pending.data?.has(reservation.id) ?? false}
                      bookedBy={bookers.get(reservation.id)}
                      onShown={onShown}
                    />
                  ))}
                </ul>
                <Pager page={page.number} totalPages={page.totalPages} onPage={setUpcomingPage} label={t('reservations.upcomingPages')} />
              </>
            )
          }
        </Loaded>
      </section>
      <section aria-labelledby="past-heading">
        <h2 id="past-heading">{t('reservations.past')}</h2>
        <Loaded query={past} label={t('reservations.loadingPast')}>
          {(page) => {
            const ended = page.content.filter((reservation) => reservation.endTime <= now);
            return ended.length === 0 && page.number === 0 ? (
              <EmptyState>{t('reservations.noPast')}</EmptyState>
            ) : (
              <>
                <ul className="reservation-list">
                  {ended.map((reservation) => (
                    <ReservationItem key={reservation.id} reservation={reservation} editable={false} onChanged={setNotice} />
                  ))}
                </ul>
                <Pager page={page.number} totalPages={page.totalPages} onPage={setPastPage} label={t('reservations.pastPages')} />
              </>
            );
          }}
        </Loaded>
      </section>
    </div>
  );
}
