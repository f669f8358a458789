import { useState } from 'react';
import { deskTitle } from '../../lib/labels.js';
import { useTranslation } from 'react-i18next';
import type { Reservation } from '../../api/types.js';
import { Loaded } from '../../components/ui.js';
import { dateLocale, firstDayOfWeek } from '../../lib/locale.js';
import { localDate } from '../../lib/time.js';
import { useInventoryNames } from '../inventory/queries.js';
import { useReservations } from './queries.js';
import './styles.css';

/** "Wed, 15 May" in the language in use (docs/i18n.md#dates-and-times). */
const dayLabel = (day: Date) => new Intl.DateTimeFormat(dateLocale(), { weekday: 'short', day: 'numeric', month: 'short' }).format(day);
/** "09:00", the locale's clock. */
const timeLabel = (iso: string) => new Intl.DateTimeFormat(dateLocale(), { hour: '2-digit', minute: '2-digit' }).format(new Date(iso));

/** 00:00 local of the first day (the locale's: Monday, or Sunday) of the week `offset` weeks from the one holding `today`. */
function weekStartOf(today: Date, offset: number, firstDay = firstDayOfWeek()): Date {
  // ISO weekday 1 (Monday) to 7 (Sunday), as firstDayOfWeek counts.
  const isoDay = today.getDay() === 0 ? 7 : today.getDay();
  return new Date(today.getFullYear(), today.getMonth(), today.getDate() - ((isoDay - firstDay + 7) % 7) + offset * 7);
}

/** My reservations as a week (from the locale's first day of the week, local time), one column per day; previous and next week. */
export function WeekView({ userId }: { userId: string }) {
  const { t } = useTranslation('booking');
  const [offset, setOffset] = useState(0);
  const first = weekStartOf(new Date(), offset);
  const days = Array.from({ length: 7 }, (_, i) => new Date(first.getFullYear(), first.getMonth(), first.getDate() + i));
  const nextFirst = new Date(first.getFullYear(), first.getMonth(), first.getDate() + 7);
  const week = useReservations({ userId, from: first.toISOString(), to: nextFirst.toISOString(), size: 200, sort: ['startTime,asc'] });
  const label = `${dayLabel(days[0]!)} – ${dayLabel(days[6]!)}`;
  return (
    <section aria-labelledby="week-heading">
      <div className="week-head">
        <h2 id="week-heading">{t('week.heading', { range: label })}</h2>
        <div className="week-nav">
          <button type="button" className="button-secondary button-small" onClick={() => setOffset(offset - 1)} aria-label={t('week.previousLabel')}>
            ‹ {t('week.previous')}
          </button>
          <button type="button" className="button-secondary button-small" onClick={() => setOffset(0)} disabled={offset === 0}>
            {t('week.this')}
          </button>
          <button type="button" className="button-secondary button-small" onClick={() => setOffset(offset + 1)} aria-label={t('week.nextLabel')}>
            {t('week.next')} ›
          </button>
        </div>
      </div>
      <Loaded query={week} label={t('week.loading')}>
        {(page) => (
          <ol className="week" aria-label={t('week.label', { range: label })}>
            {days.map((day) => {
              const key = localDate(day);
              const onDay = page.content.filter((reservation) => localDate(new Date(reservation.startTime)) === key);
              return (
                <li key={key} className={key === localDate(new Date()) ? 'week-day today' : 'week-day'}>
                  <h3>{dayLabel(day)}</h3>
                  {onDay.length === 0 ? (
                    <p className="muted">—</p>
                  ) : (
                    <ul>
                      {onDay.map((reservation) => (
                        <WeekEntry key={reservation.id} reservation={reservation} />
                      ))}
                    </ul>
                  )}
                </li>
              );
            })}
          </ol>
        )}
      </Loaded>
    </section>
  );
}

function WeekEntry({ reservation }: { reservation: Reservation }) {
  const { t } = useTranslation('booking');
  const names = useInventoryNames(reservation);
  return (
    <li className="week-entry">
      <span className="week-time">
        {timeLabel(reservation.startTime)}–{timeLabel(reservation.endTime)}
      </span>{' '}
      {names.deskName ? deskTitle(names.deskName) : t('desk.unknown')}
      {names.room && <span className="muted"> · {names.room.name}</span>}
    </li>
  );
}
