import { useState } from 'react';
import { Alert, Dialog, Loaded } from '../../components/ui.js';
import { deskPhrase } from '../../lib/labels.js';
import { errorText } from '../../lib/problems.js';
import { formatRange } from '../../lib/time.js';
import { useBookUsual, useUsualPreview } from './queries.js';
import './styles.css';

type Reason = 'DESK_RESERVED' | 'USER_OVERLAP' | 'CLOSED' | 'POLICY' | 'NOT_ALLOWED';

/** Why a day cannot be booked, in words; `message` is the service's sentence for policies and rules. */
export function usualReason(reason: Reason, message: string | undefined): string {
  switch (reason) {
    case 'DESK_RESERVED':
      return 'Desk taken';
    case 'USER_OVERLAP':
      return 'You have another booking then';
    case 'CLOSED':
      return message ?? 'The office is closed';
    default:
      return message ?? 'Not allowed';
  }
}

interface Day {
  date: string;
  deskId: string;
  deskName: string;
  roomName: string;
  startTime: string;
  endTime: string;
}

const dayLabel = (day: Day) => `${formatRange(day.startTime, day.endTime)} — ${deskPhrase(day.deskName)} in ${day.roomName}`;

/**
 * "Book my usual" (docs/favourites.md#book-my-usual): last week's bookings proposed for the coming
 * week, each day free or why not; "Book the N free days" books them, then lists what was booked
 * and what was refused, per day.
 */
export function UsualDialog({ onClose, onBooked }: { onClose: () => void; onBooked: (text: string) => void }) {
  const preview = useUsualPreview();
  const booking = useBookUsual();
  const [done, setDone] = useState<{ booked: (Day & { awaitingApproval: boolean })[]; refused: (Day & { reason: Reason; message: string })[] }>();
  const failure = errorText(booking.error);
  const book = () => booking.mutate({ body: {} }, { onSuccess: (result) => setDone(result) });

  return (
    <Dialog title="Book my usual" onClose={onClose}>
      <div className="stack">
        {failure && <Alert kind="error">{failure}</Alert>}
        {done ? (
          <section aria-label="What was booked">
            <p aria-live="polite">
              Booked {done.booked.length} {done.booked.length === 1 ? 'day' : 'days'}
              {done.refused.length > 0 ? `; ${done.refused.length} could not be booked` : ''}.
            </p>
            <ul className="usual-days">
              {done.booked.map((day) => (
                <li key={`${day.deskId}-${day.startTime}`} className="usual-day">
                  <span>{dayLabel(day)}</span>
                  <span className="usual-status">{day.awaitingApproval ? 'Booked, awaiting approval' : 'Booked'}</span>
                </li>
              ))}
              {done.refused.map((day) => (
                <li key={`${day.deskId}-${day.startTime}`} className="usual-day refused">
                  <span>{dayLabel(day)}</span>
                  <span className="usual-status">Not booked: {usualReason(day.reason, day.message)}</span>
                </li>
              ))}
            </ul>
            <div className="dialog-actions">
              <button
                type="button"
                className="button-primary"
                onClick={() => onBooked(`Booked your usual week: ${done.booked.length} ${done.booked.length === 1 ? 'day' : 'days'}.`)}
              >
                Done
              </button>
            </div>
          </section>
        ) : (
          <Loaded query={preview} label="Looking at last week…">
            {(proposal) => {
              const free = proposal.days.filter((day) => day.conflict === null).length;
              return (
                <section aria-label="Your usual week">
                  {proposal.days.length === 0 ? (
                    <p>You had no bookings last week to repeat.</p>
                  ) : (
                    <>
                      <p aria-live="polite">
                        Last week again, from Monday {new Date(`${proposal.week}T12:00:00`).toLocaleDateString('en-GB', { day: 'numeric', month: 'short' })}:{' '}
                        {free} of {proposal.days.length} {proposal.days.length === 1 ? 'day is' : 'days are'} free.
                      </p>
                      <ul className="usual-days">
                        {proposal.days.map((day) => (
                          <li key={`${day.deskId}-${day.startTime}`} className={day.conflict ? 'usual-day refused' : 'usual-day'}>
                            <span>{dayLabel(day)}</span>
                            <span className="usual-status">{day.conflict ? usualReason(day.conflict, day.message) : 'Free'}</span>
                          </li>
                        ))}
                      </ul>
                    </>
                  )}
                  <div className="dialog-actions">
                    <button type="button" className="button-secondary" onClick={onClose} disabled={booking.isPending}>
                      Cancel
                    </button>
                    {free > 0 && (
                      <button type="button" className="button-primary" onClick={book} disabled={booking.isPending}>
                        {booking.isPending ? 'Booking…' : `Book the ${free} free ${free === 1 ? 'day' : 'days'}`}
                      </button>
                    )}
                  </div>
                </section>
              );
            }}
          </Loaded>
        )}
      </div>
    </Dialog>
  );
}
