import { useState } from 'react';
import { Alert, Dialog, EmptyState, Loaded, Loading, Pager, SelectField } from '../../components/ui.js';
import { deskTitle } from '../../lib/labels.js';
import { errorText } from '../../lib/problems.js';
import { formatDateTime, formatRange } from '../../lib/time.js';
import { useInventoryNames } from '../inventory/queries.js';
import { describeRule, type SeriesSummary } from './series.js';
import { useCancelSeries, useMySeries, useSeries } from './queries.js';

/** "My series" on My reservations: each series with its rule and what is left of it, cancellable from any date on. */
export function MySeries({ userId, onChanged }: { userId: string; onChanged: (message: string) => void }) {
  const [page, setPage] = useState(0);
  const series = useMySeries(userId, page);
  return (
    <section aria-labelledby="series-heading">
      <h2 id="series-heading">Repeating bookings</h2>
      <Loaded query={series} label="Loading your repeating bookings…">
        {(found) => {
          const active = found.content.filter((item) => item.upcoming > 0);
          return active.length === 0 && found.number === 0 ? (
            <EmptyState>No repeating bookings. Use “Repeat…” next to a free desk to book one every week.</EmptyState>
          ) : (
            <>
              <ul className="reservation-list">
                {active.map((item) => (
                  <SeriesItem key={item.id} series={item} onChanged={onChanged} />
                ))}
              </ul>
              <Pager page={found.number} totalPages={found.totalPages} onPage={setPage} label="Repeating bookings pages" />
            </>
          );
        }}
      </Loaded>
    </section>
  );
}

function SeriesItem({ series, onChanged }: { series: SeriesSummary; onChanged: (message: string) => void }) {
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
          <strong>{names.deskName ? deskTitle(names.deskName) : 'Desk'}</strong>
          {names.room && <> in {names.room.name}</>}
          <span className="badge">Repeats</span>
        </p>
        <p className="muted">
          {series.upcoming} coming {series.upcoming === 1 ? 'date' : 'dates'}
          {series.nextStartTime && <>, next {formatDateTime(series.nextStartTime)}</>}
        </p>
      </div>
      {series.type === 'shared' && (
        <div className="reservation-actions">
          <button type="button" className="button-danger button-small" onClick={() => setCancelling(true)} aria-label={`Cancel the repeating booking: ${rule}`}>
            Cancel…
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
              `Cancelled ${count - kept.length} ${count - kept.length === 1 ? 'date' : 'dates'} of your repeating booking.` +
                (kept.length === 0
                  ? ''
                  : ` ${kept.length} ${kept.length === 1 ? 'date stays' : 'dates stay'} booked: ${kept[0]!.message} (${kept.map((k) => formatRange(k.startTime, k.endTime)).join('; ')}).`),
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
  const detail = useSeries(id);
  const [now] = useState(() => new Date().toISOString());
  const [from, setFrom] = useState<string>();
  const cancel = useCancelSeries();
  const coming = (detail.data?.occurrences ?? []).filter((occurrence) => occurrence.endTime > now);
  const chosen = from ?? coming[0]?.startTime;
  const count = coming.filter((occurrence) => chosen !== undefined && occurrence.startTime >= chosen).length;
  const failure = errorText(cancel.error, 'This repeating booking');
  return (
    <Dialog title="Cancel a repeating booking" onClose={onClose}>
      {detail.isPending ? (
        <Loading label="Loading the dates…" />
      ) : (
        <div className="stack">
          <SelectField label="Cancel from" value={chosen ?? ''} onChange={(event) => setFrom(event.target.value)}>
            {coming.map((occurrence, index) => (
              <option key={occurrence.reservationId} value={occurrence.startTime}>
                {formatRange(occurrence.startTime, occurrence.endTime)}
                {index === 0 ? ' (all coming dates)' : ''}
              </option>
            ))}
          </SelectField>
          <p>
            {count} {count === 1 ? 'date is' : 'dates are'} cancelled; the desk becomes free for others. Earlier dates stay booked.
          </p>
          {failure && <Alert kind="error">{failure}</Alert>}
          <div className="dialog-actions">
            <button type="button" className="button-secondary" onClick={onClose} disabled={cancel.isPending}>
              Keep it
            </button>
            <button
              type="button"
              className="button-danger"
              disabled={cancel.isPending || chosen === undefined}
              onClick={() => cancel.mutate({ params: { path: { id }, query: { from: chosen } } }, { onSuccess: (result) => onDone(count, result.kept) })}
            >
              {cancel.isPending ? 'Cancelling…' : `Cancel ${count} ${count === 1 ? 'date' : 'dates'}`}
            </button>
          </div>
        </div>
      )}
    </Dialog>
  );
}
