import { useState } from 'react';
import type { Reservation } from '../../api/types.js';
import { Loaded } from '../../components/ui.js';
import { deskTitle } from '../../lib/labels.js';
import { localDate } from '../../lib/time.js';
import { useInventoryNames } from '../inventory/queries.js';
import { useReservations } from './queries.js';
import './styles.css';

const DAY_LABEL = new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', month: 'short' });
const TIME = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });

/** Monday 00:00 local of the week `offset` weeks from the one holding `today`. */
function mondayOf(today: Date, offset: number): Date {
  return new Date(today.getFullYear(), today.getMonth(), today.getDate() - ((today.getDay() + 6) % 7) + offset * 7);
}

/** My reservations as a week (Monday to Sunday, local time), one column per day; previous and next week. */
export function WeekView({ userId }: { userId: string }) {
  const [offset, setOffset] = useState(0);
  const monday = mondayOf(new Date(), offset);
  const days = Array.from({ length: 7 }, (_, i) => new Date(monday.getFullYear(), monday.getMonth(), monday.getDate() + i));
  const nextMonday = new Date(monday.getFullYear(), monday.getMonth(), monday.getDate() + 7);
  const week = useReservations({ userId, from: monday.toISOString(), to: nextMonday.toISOString(), size: 200, sort: ['startTime,asc'] });
  const label = `${DAY_LABEL.format(days[0]!)} – ${DAY_LABEL.format(days[6]!)}`;
  return (
    <section aria-labelledby="week-heading">
      <div className="week-head">
        <h2 id="week-heading">Week of {label}</h2>
        <div className="week-nav">
          <button type="button" className="button-secondary button-small" onClick={() => setOffset(offset - 1)} aria-label="Previous week">
            ‹ Previous
          </button>
          <button type="button" className="button-secondary button-small" onClick={() => setOffset(0)} disabled={offset === 0}>
            This week
          </button>
          <button type="button" className="button-secondary button-small" onClick={() => setOffset(offset + 1)} aria-label="Next week">
            Next ›
          </button>
        </div>
      </div>
      <Loaded query={week} label="Loading the week…">
        {(page) => (
          <ol className="week" aria-label={`My reservations, week of ${label}`}>
            {days.map((day) => {
              const key = localDate(day);
              const onDay = page.content.filter((reservation) => localDate(new Date(reservation.startTime)) === key);
              return (
                <li key={key} className={key === localDate(new Date()) ? 'week-day today' : 'week-day'}>
                  <h3>{DAY_LABEL.format(day)}</h3>
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
  const names = useInventoryNames(reservation);
  return (
    <li className="week-entry">
      <span className="week-time">
        {TIME.format(new Date(reservation.startTime))}–{TIME.format(new Date(reservation.endTime))}
      </span>{' '}
      {names.deskName ? deskTitle(names.deskName) : 'Desk'}
      {names.room && <span className="muted"> · {names.room.name}</span>}
    </li>
  );
}
