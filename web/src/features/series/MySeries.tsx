import { useState } from 'react';
import { deskTitle } from '../../lib/labels.js';
import { useTranslation } from 'react-i18next';
import { Alert, Dialog, EmptyState, Loaded, Loading, Pager, SelectField } from '../../components/ui.js';
import { errorText } from '../../lib/problems.js';
import { formatDateTime, formatRange } from '../../lib/time.js';
import { useInventoryNames } from '../inventory/queries.js';
import { describeRule, type SeriesSummary } from './series.js';
import { useCancelSeries, useMySeries, useSeries } from './queries.js';

/** "My series" on My reservations: each series with its rule and what is left of it, cancellable from any date on. */
export function MySeries({ userId, onChanged }: { userId: string; onChanged: (message: string) => void }) {
  const { t } = useTranslation('booking');
  const [page, setPage] = useState(0);
  const series = useMySeries(userId, page);
  return (
    <section aria-labelledby="series-heading">
      <h2 id="series-heading">{t('series.heading')}</h2>
      <Loaded query={series} label={t('series.loading')}>
        {(found) => {
          const active = found.content.filter((item) => item.upcoming > 0);
          return active.length === 0 && found.number === 0 ? (
            <EmptyState>{t('series.none')}</EmptyState>
          ) : (
            <>
              <ul className="reservation-list">
                {active.map((item) => (
                  <SeriesItem key={item.id} series={item} onChanged={onChanged} />
                ))}
              </ul>
              <Pager page={found.number} totalPages={found.totalPages} onPage={setPage} label={t('series.pages')} />
            </>
          );
        }}
      </Loaded>
    </section>
  );
}

function SeriesItem({ series, onChanged }: { series: SeriesSummary; onChanged: (message: string) => void }) {
  const { t } = useTranslation('booking');
  const names = useInventoryNames(series);
  const [cancelling, setCancelling] = useState(false);
  const rule = describeRule(series.rule);
  const hours = formatRange(series.startTime, series.endTime).split(', ').pop();
  return (
    <li className="reservation">
      <div className="reservation-main">
        <p className="reservation-time">
          {rule}, {hours}
        </p>
        <p>
          <strong>{names.deskName ? deskTitle(names.deskName) : t('desk.unknown')}</strong>
          {names.room && <> {t('reservations.inRoom', { room: names.room.name })}</>}
          <span className="badge">{t('series.repeats')}</span>
        </p>
        <p className="muted">
          {series.nextStartTime
            ? t('series.comingNext', { count: series.upcoming, next: formatDateTime(series.nextStartTime) })
            : t('series.coming', { count: series.upcoming })}
        </p>
      </div>
      {series.type === 'shared' && (
        <div className="reservation-actions">
          <button type="button" className="button-danger button-small" onClick={() => setCancelling(true)} aria-label={t('series.cancelAria', { rule })}>
            {t('series.cancel')}
          </button>
        </div>
      )}
      {cancelling && (
        <CancelSeriesDialog
          id={series.id}
          onClose={() => setCancelling(false)}
          onDone={(count, kept) => {
            setCancelling(false);
            // Dates within the cancellation lead time stay booked (docs/policies.md#cancelling-a-series).
            onChanged(
              t('series.cancelled', { count: count - kept.length }) +
                (kept.length === 0
                  ? ''
                  : ` ${t('series.kept', { count: kept.length, reason: kept[0]!.message, ranges: kept.map((k) => formatRange(k.startTime, k.endTime)).join('; ') })}`),
            );
          }}
        />
      )}
    </li>
  );
}

function CancelSeriesDialog({
  id,
  onClose,
  onDone,
}: {
  id: string;
  onClose: () => void;
  onDone: (count: number, kept: { startTime: string; endTime: string; message: string }[]) => void;
}) {
  const { t } = useTranslation('booking');
  const detail = useSeries(id);
  const [now] = useState(() => new Date().toISOString());
  const [from, setFrom] = useState<string>();
  const cancel = useCancelSeries();
  const coming = (detail.data?.occurrences ?? []).filter((occurrence) => occurrence.endTime > now);
  const chosen = from ?? coming[0]?.startTime;
  const count = coming.filter((occurrence) => chosen !== undefined && occurrence.startTime >= chosen).length;
  const failure = errorText(cancel.error, t('subject.series'));
  return (
    <Dialog title={t('series.cancelTitle')} onClose={onClose}>
      {detail.isPending ? (
        <Loading label={t('series.loadingDates')} />
      ) : (
        <div className="stack">
          <SelectField label={t('series.cancelFrom')} value={chosen ?? ''} onChange={(event) => setFrom(event.target.value)}>
            {coming.map((occurrence, index) => (
              <option key={occurrence.reservationId} value={occurrence.startTime}>
                {index === 0
                  ? t('series.allComing', { range: formatRange(occurrence.startTime, occurrence.endTime) })
                  : formatRange(occurrence.startTime, occurrence.endTime)}
              </option>
            ))}
          </SelectField>
          <p>{t('series.cancelText', { count })}</p>
          {failure && <Alert kind="error">{failure}</Alert>}
          <div className="dialog-actions">
            <button type="button" className="button-secondary" onClick={onClose} disabled={cancel.isPending}>
              {t('reservations.keepIt')}
            </button>
            <button
              type="button"
              className="button-danger"
              disabled={cancel.isPending || chosen === undefined}
              onClick={() => cancel.mutate({ params: { path: { id }, query: { from: chosen } } }, { onSuccess: (result) => onDone(count, result.kept) })}
            >
              {cancel.isPending ? t('reservations.cancelling') : t('series.cancelDates', { count })}
            </button>
          </div>
        </div>
      )}
    </Dialog>
  );
}
