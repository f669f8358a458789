import { useForm } from 'react-hook-form';
import { Alert, Checkbox, Dialog, SelectField, TextField } from '../../components/ui.js';
import { errorText } from '../../lib/problems.js';
import { deskPhrase } from '../../lib/labels.js';
import { formatRange, localDate } from '../../lib/time.js';
import { browserTimeZone, conflictLabel, WEEKDAYS, weekdayOf, type SeriesBody, type Weekday } from './series.js';
import { useBookSeries, usePreviewSeries } from './queries.js';
import './styles.css';

interface RepeatValues {
  weekdays: Weekday[];
  interval: string;
  ends: 'count' | 'until';
  count: number;
  until: string;
}

/**
 * "Repeat…" in the booking flow: the same desk and hours on chosen weekdays, every week or two,
 * a number of times or until a date. "Show the dates" previews every date and whether it is free;
 * booking is all or nothing unless the person chooses to skip the taken dates.
 */
export function RepeatDialog({
  desk,
  start,
  end,
  onClose,
  onBooked,
  bookFor,
}: {
  desk: { id: string; name: string; roomName: string };
  start: string;
  end: string;
  onClose: () => void;
  onBooked: (message: string) => void;
  /** The person the series is for, when someone books for them (docs/policies.md#booking-for-someone-else). */
  bookFor?: { id: string; firstName: string; lastName: string };
}) {
  const first = new Date(start);
  const form = useForm<RepeatValues>({
    defaultValues: {
      weekdays: [weekdayOf(first)],
      interval: '1',
      ends: 'count',
      count: 8,
      until: localDate(new Date(first.getFullYear(), first.getMonth(), first.getDate() + 56)),
    },
  });
  const values = form.watch();
  const preview = usePreviewSeries();
  const booking = useBookSeries();

  const body = (v: RepeatValues, skipConflicts = false): SeriesBody => ({
    deskId: desk.id,
    startTime: start,
    endTime: end,
    timeZone: browserTimeZone(),
    rule: {
      frequency: 'WEEKLY',
      weekdays: v.weekdays.length > 0 ? v.weekdays : [weekdayOf(first)],
      interval: Number(v.interval),
      ...(v.ends === 'count' ? { count: Number(v.count) } : { until: v.until }),
    },
    ...(skipConflicts ? { skipConflicts } : {}),
    ...(bookFor ? { userId: bookFor.id } : {}),
  });

  const show = form.handleSubmit((v) => preview.mutate({ body: body(v) }));
  const dates = preview.data?.occurrences ?? [];
  const taken = dates.filter((date) => date.conflict !== null).length;
  const book = () =>
    booking.mutate(
      { body: body(form.getValues(), taken > 0) },
      {
        onSuccess: (created) =>
          onBooked(
            `Booked ${deskPhrase(desk.name)} in ${desk.roomName}${bookFor ? ` for ${bookFor.firstName} ${bookFor.lastName}` : ''} on ${created.occurrences.length} dates` +
              (created.skipped.length > 0 ? ` (${created.skipped.length} skipped: taken).` : '.'),
          ),
      },
    );
  const failure = errorText(preview.error ?? booking.error, 'This desk');

  return (
    <Dialog title={`Repeat: ${deskPhrase(desk.name)} in ${desk.roomName}${bookFor ? ` for ${bookFor.firstName} ${bookFor.lastName}` : ''}`} onClose={onClose}>
      <form onSubmit={show} noValidate className="stack repeat-form" aria-label="Repeat the booking">
        <p className="muted">From {formatRange(start, end)}, same hours.</p>
        <fieldset>
          <legend>On</legend>
          <div className="checkbox-grid">
            {WEEKDAYS.map((day) => (
              <Checkbox key={day.code} label={day.long} value={day.code} {...form.register('weekdays', { onChange: () => preview.reset() })} />
            ))}
          </div>
        </fieldset>
        <div className="field-pair">
          <SelectField label="Every" {...form.register('interval', { onChange: () => preview.reset() })}>
            <option value="1">week</option>
            <option value="2">2 weeks</option>
            <option value="3">3 weeks</option>
            <option value="4">4 weeks</option>
          </SelectField>
          <SelectField label="Ends" {...form.register('ends', { onChange: () => preview.reset() })}>
            <option value="count">after a number of times</option>
            <option value="until">on a date</option>
          </SelectField>
        </div>
        {values.ends === 'count' ? (
          <TextField label="Times" type="number" min={1} max={260} {...form.register('count', { valueAsNumber: true, onChange: () => preview.reset() })} />
        ) : (
          <TextField label="Until (inclusive)" type="date" {...form.register('until', { onChange: () => preview.reset() })} />
        )}
        {failure && <Alert kind="error">{failure}</Alert>}
        {preview.data && (
          <section aria-label="Dates of the series">
            <p aria-live="polite">
              {dates.length} dates{taken > 0 ? `, ${taken} of them taken` : ', all free'}.
            </p>
            <ul className="series-dates">
              {dates.map((date) => (
                <li key={date.date} className={date.conflict ? 'series-date taken' : 'series-date'}>
                  {formatRange(date.startTime, date.endTime)} — {conflictLabel(date.conflict)}
                </li>
              ))}
            </ul>
          </section>
        )}
        <div className="dialog-actions">
          <button type="button" className="button-secondary" onClick={onClose} disabled={booking.isPending}>
            Cancel
          </button>
          {preview.data && dates.length > taken ? (
            <button type="button" className="button-primary" onClick={book} disabled={booking.isPending}>
              {booking.isPending ? 'Booking…' : taken > 0 ? `Book the ${dates.length - taken} free dates` : `Book ${dates.length} dates`}
            </button>
          ) : (
            <button type="submit" className="button-primary" disabled={preview.isPending}>
              {preview.isPending ? 'Checking…' : 'Show the dates'}
            </button>
          )}
        </div>
      </form>
    </Dialog>
  );
}
