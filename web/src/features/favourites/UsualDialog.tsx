import { useState } from 'react';
import { deskPhrase } from '../../lib/labels.js';
import { useTranslation } from 'react-i18next';
import { Alert, Dialog, Loaded } from '../../components/ui.js';
import { dateLocale } from '../../lib/locale.js';
import { translate } from '../../lib/translate.js';
import { errorText } from '../../lib/problems.js';
import { formatRange } from '../../lib/time.js';
import { useBookUsual, useUsualPreview } from './queries.js';
import './styles.css';

type Reason = 'DESK_RESERVED' | 'USER_OVERLAP' | 'CLOSED' | 'POLICY' | 'NOT_ALLOWED';

/** Why a day cannot be booked, in words; `message` is the service's sentence for policies and rules. */
export function usualReason(reason: Reason, message: string | undefined): string {
  switch (reason) {
    case 'DESK_RESERVED':
      return translate('booking:usual.deskTaken');
    case 'USER_OVERLAP':
      return translate('booking:usual.otherBooking');
    case 'CLOSED':
      return message ?? translate('booking:usual.closed');
    default:
      return message ?? translate('booking:usual.notAllowed');
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

const dayLabel = (day: Day) =>
  translate('booking:usual.day', { range: formatRange(day.startTime, day.endTime), desk: deskPhrase(day.deskName), room: day.roomName });

/**
 * "Book my usual" (docs/favourites.md#book-my-usual): last week's bookings proposed for the coming
 * week, each day free or why not; "Book the N free days" books them, then lists what was booked
 * and what was refused, per day.
 */
export function UsualDialog({ onClose, onBooked }: { onClose: () => void; onBooked: (text: string) => void }) {
  const { t } = useTranslation('booking');
  const preview = useUsualPreview();
  const booking = useBookUsual();
  const [done, setDone] = useState<{ booked: (Day & { awaitingApproval: boolean })[]; refused: (Day & { reason: Reason; message: string })[] }>();
  const failure = errorText(booking.error);
  const book = () => booking.mutate({ body: {} }, { onSuccess: (result) => setDone(result) });

  return (
    <Dialog title={t('usual.title')} onClose={onClose}>
      <div className="stack">
        {failure && <Alert kind="error">{failure}</Alert>}
        {done ? (
          <section aria-label={t('usual.doneLabel')}>
            <p aria-live="polite">
              {done.refused.length > 0
                ? t('usual.bookedRefused', { count: done.booked.length, refused: done.refused.length })
                : t('usual.booked', { count: done.booked.length })}
            </p>
            <ul className="usual-days">
              {done.booked.map((day) => (
                <li key={`${day.deskId}-${day.startTime}`} className="usual-day">
                  <span>{dayLabel(day)}</span>
                  <span className="usual-status">{day.awaitingApproval ? t('usual.awaiting') : t('usual.bookedDay')}</span>
                </li>
              ))}
              {done.refused.map((day) => (
                <li key={`${day.deskId}-${day.startTime}`} className="usual-day refused">
                  <span>{dayLabel(day)}</span>
                  <span className="usual-status">{t('usual.notBooked', { reason: usualReason(day.reason, day.message) })}</span>
                </li>
              ))}
            </ul>
            <div className="dialog-actions">
              <button type="button" className="button-primary" onClick={() => onBooked(t('usual.bookedWeek', { count: done.booked.length }))}>
                {t('usual.done')}
              </button>
            </div>
          </section>
        ) : (
          <Loaded query={preview} label={t('usual.loading')}>
            {(proposal) => {
              const free = proposal.days.filter((day) => day.conflict === null).length;
              return (
                <section aria-label={t('usual.weekLabel')}>
                  {proposal.days.length === 0 ? (
                    <p>{t('usual.none')}</p>
                  ) : (
                    <>
                      <p aria-live="polite">
                        {t('usual.proposal', {
                          week: new Date(`${proposal.week}T12:00:00`).toLocaleDateString(dateLocale(), { day: 'numeric', month: 'short' }),
                          free,
                          count: proposal.days.length,
                        })}
                      </p>
                      <ul className="usual-days">
                        {proposal.days.map((day) => (
                          <li key={`${day.deskId}-${day.startTime}`} className={day.conflict ? 'usual-day refused' : 'usual-day'}>
                            <span>{dayLabel(day)}</span>
                            <span className="usual-status">{day.conflict ? usualReason(day.conflict, day.message) : t('usual.free')}</span>
                          </li>
                        ))}
                      </ul>
                    </>
                  )}
                  <div className="dialog-actions">
                    <button type="button" className="button-secondary" onClick={onClose} disabled={booking.isPending}>
                      {t('common:cancel')}
                    </button>
                    {free > 0 && (
                      <button type="button" className="button-primary" onClick={book} disabled={booking.isPending}>
                        {booking.isPending ? t('search.booking') : t('usual.bookFree', { count: free })}
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
