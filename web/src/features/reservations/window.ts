import type { PublishedSettings } from '../../lib/published.js';
import type { FormErrors } from '../../lib/forms.js';
import { localMoment, type LocalWindow } from '../../lib/time.js';
import { translate } from '../../lib/translate.js';

/** The booking rules the service publishes (admins are exempt from them). */
export type BookingLimits = Pick<PublishedSettings, 'reservationMaxLengthSeconds' | 'reservationHorizonSeconds'>;

const isTimeOfDay = (value: string) => /^([01]\d|2[0-3]):[0-5]\d$/.test(value);

/** "24 hours", "90 days", "30 minutes" (in the language in use). */
export function formatDuration(seconds: number): string {
  const [count, unit] =
    seconds >= 2 * 86_400 && seconds % 86_400 === 0
      ? [seconds / 86_400, 'days']
      : seconds >= 3600 && seconds % 3600 === 0
        ? [seconds / 3600, 'hours']
        : [Math.ceil(seconds / 60), 'minutes'];
  return translate(`booking:duration.${unit}`, { count });
}

/**
 * A booking window on one local day. `now` rules out windows already started; with `limits` (a
 * user's booking, the service's published rules) too long a window and one too far ahead. The
 * service checks again; its answer wins.
 */
export function validateWindow(window: LocalWindow, now: Date, options: { allowPast?: boolean; limits?: BookingLimits } = {}): FormErrors {
  const errors: FormErrors = {};
  const start = localMoment(window.date, window.start);
  const end = localMoment(window.date, window.end);
  if (!localMoment(window.date, '00:00')) errors.date = translate('booking:window.date');
  if (!isTimeOfDay(window.start)) errors.start = translate('booking:window.start');
  if (!isTimeOfDay(window.end)) errors.end = translate('booking:window.end');
  if (!start || !end) return errors;
  const { limits } = options;
  if (end.getTime() <= start.getTime()) errors.end = translate('booking:window.endAfterStart');
  else if (!options.allowPast && start.getTime() < now.getTime()) errors.start = translate('booking:window.started');
  else if (limits && end.getTime() - start.getTime() > limits.reservationMaxLengthSeconds * 1000)
    errors.end = translate('booking:window.tooLong', { duration: formatDuration(limits.reservationMaxLengthSeconds) });
  else if (limits && start.getTime() > now.getTime() + limits.reservationHorizonSeconds * 1000)
    errors.date = translate('booking:window.tooFar', { duration: formatDuration(limits.reservationHorizonSeconds) });
  return errors;
}
