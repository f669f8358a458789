import { useTranslation } from 'react-i18next';
import { Pager } from '../../components/ui.js';
import { deskPhrase } from '../../lib/labels.js';
import { formatRangeIn } from '../../lib/time.js';
import type { paths } from '../../api/schema.js';

type ReservationsPage = paths['/api/closures/preview']['post']['responses'][200]['content']['application/json']['reservations'];
export type OnExisting = 'cancel' | 'keep';

/**
 * The reservations on the days a closure or a holiday import would close, a page at a time, and the
 * admin's choice for them: cancel them with the reason, or keep them (docs/policies.md#closures-and-holidays).
 */
export function ReservationsOnClosedDays({
  reservations,
  page,
  onPage,
  pagerLabel,
  choiceName,
  onExisting,
  setOnExisting,
}: {
  reservations: ReservationsPage;
  page: number;
  onPage: (page: number) => void;
  pagerLabel: string;
  /** The radio group's name, unique on the page. */
  choiceName: string;
  onExisting: OnExisting;
  setOnExisting: (choice: OnExisting) => void;
}) {
  const { t } = useTranslation('closures');
  return (
    <>
      <p>{t('affected.count', { count: reservations.totalElements })}</p>
      <ul className="closure-affected">
        {reservations.content.map((reservation) => (
          <li key={reservation.id}>
            {t(reservation.started ? 'affected.itemStarted' : 'affected.item', {
              name: reservation.userName,
              desk: deskPhrase(reservation.deskName),
              place: reservation.place,
              room: reservation.roomName,
              when: formatRangeIn(reservation.startTime, reservation.endTime, reservation.timeZone),
            })}
          </li>
        ))}
      </ul>
      <Pager page={page} totalPages={reservations.totalPages} onPage={onPage} label={pagerLabel} />
      <fieldset className="closure-choice">
        <legend>{t('affected.legend')}</legend>
        <label>
          <input type="radio" name={choiceName} checked={onExisting === 'cancel'} onChange={() => setOnExisting('cancel')} />
          {t('affected.cancel')}
        </label>
        <label>
          <input type="radio" name={choiceName} checked={onExisting === 'keep'} onChange={() => setOnExisting('keep')} />
          {t('affected.keep')}
        </label>
      </fieldset>
    </>
  );
}

/** The buildings of these offices, once each, as [key, "Location · Building"] (a closure or import of one building). */
export const buildingsOf = (departments: { location: string; building: string }[]): [string, string][] => [
  ...new Map(departments.map((d) => [`${d.location}\u0000${d.building}`, `${d.location} · ${d.building}`])).entries(),
];
