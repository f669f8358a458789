import { useForm } from 'react-hook-form';
import { deskPhrase } from '../../lib/labels.js';
import { useTranslation } from 'react-i18next';
import { Alert, Checkbox, Dialog, SelectField, TextField } from '../../components/ui.js';
import { errorText } from '../../lib/problems.js';
import { formatRange, localDate } from '../../lib/time.js';
import { browserTimeZone, conflictLabel, weekdayOf, weekdaysInOrder, type SeriesBody, type Weekday } from './series.js';
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
  const { t } = useTranslation('booking');
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

  // Whose series, in the title and the outcome: the caller's, or someone's they book for.
  const who = {
    desk: deskPhrase(desk.name),
    room: desk.roomName,
    who: bookFor ? 'someone' : 'self',
    person: bookFor ? `${bookFor.firstName} ${bookFor.lastName}` : '',
  };
  const show = form.handleSubmit((v) => preview.mutate({ body: body(v) }));
  const dates = preview.data?.occurrences ?? [];
  const taken = dates.filter((date) => date.conflict !== null).length;
  const book = () =>
    booking.mutate(
      { body: body(form.getValues(), taken > 0) },
      {
        onSuccess: (created) =>
          onBooked(
            t(created.skipped.length > 0 ? 'repeat.bookedSkipped' : 'repeat.booked', {
              ...who,
              count: created.occurrences.length,
              skipped: created.skipped.length,
            }),
          ),
      },
    );
  const failure = errorText(preview.error ?? booking.error, t('subject.desk'));

  return (
    <Dialog title={t('repeat.title', who)} onClose={onClose}>
      <form onSubmit={show} noValidate className="stack repeat-form" aria-label={t('repeat.formLabel')}>
        <p className="muted">{t('repeat.from', { range: formatRange(start, end) })}</p>
        <fieldset>
          <legend>{t('repeat.on')}</legend>
          <div className="checkbox-grid">
            {weekdaysInOrder().map((day) => (
              <Checkbox key={day.code} label={day.name} value={day.code} {...form.register('weekdays', { onChange: () => preview.reset() })} />
            ))}
          </div>
        </fieldset>
        <div className="field-pair">
          <SelectField label={t('repeat.every')} {...form.register('interval', { onChange: () => preview.reset() })}>
            {[1, 2, 3, 4].map((weeks) => (
              <option key={weeks} value={String(weeks)}>
                {t('repeat.weeks', { count: weeks })}
              </option>
            ))}
          </SelectField>
          <SelectField label={t('repeat.ends')} {...form.register('ends', { onChange: () => preview.reset() })}>
            <option value="count">{t('repeat.afterTimes')}</option>
            <option value="until">{t('repeat.onDate')}</option>
          </SelectField>
        </div>
        {values.ends === 'count' ? (
          <TextField
            label={t('repeat.times')}
            type="number"
            min={1}
            max={260}
            {...form.register('count', { valueAsNumber: true, onChange: () => preview.reset() })}
          />
        ) : (
          <TextField label={t('repeat.until')} type="date" {...form.register('until', { onChange: () => preview.reset() })} />
        )}
        {failure && <Alert kind="error">{failure}</Alert>}
        {preview.data && (
          <section aria-label={t('repeat.datesLabel')}>
            <p aria-live="polite">{taken > 0 ? t('repeat.datesTaken', { count: dates.length, taken }) : t('repeat.datesFree', { count: dates.length })}</p>
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
            {t('common:cancel')}
          </button>
          {preview.data && dates.length > taken ? (
            <button type="button" className="button-primary" onClick={book} disabled={booking.isPending}>
              {booking.isPending
                ? t('search.booking')
                : taken > 0
                  ? t('repeat.bookFree', { count: dates.length - taken })
                  : t('repeat.bookAll', { count: dates.length })}
            </button>
          ) : (
            <button type="submit" className="button-primary" disabled={preview.isPending}>
              {preview.isPending ? t('repeat.checking') : t('repeat.show')}
            </button>
          )}
        </div>
      </form>
    </Dialog>
  );
}
