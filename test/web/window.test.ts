process.env.TZ = 'Europe/Berlin';

import { beforeAll, describe, expect, it } from 'vitest';
import { startTestI18n } from '../helpers/i18n.js';
import { formatDuration, validateWindow } from '../../web/src/features/reservations/window.js';

const NOW = new Date('2030-07-15T10:00:00Z'); // 12:00 in Berlin
const LIMITS = { reservationMaxLengthSeconds: 24 * 3600, reservationHorizonSeconds: 90 * 86_400 };

// The messages are the English ones of the booking namespace (docs/i18n.md).
beforeAll(() => startTestI18n('en'));

describe('booking windows', () => {
  it('accepts a later window on one day', () => {
    expect(validateWindow({ date: '2030-07-16', start: '09:00', end: '12:00' }, NOW)).toEqual({});
    expect(validateWindow({ date: '2030-07-15', start: '12:30', end: '13:00' }, NOW)).toEqual({});
  });

  it('wants the end after the start', () => {
    expect(validateWindow({ date: '2030-07-16', start: '12:00', end: '12:00' }, NOW)).toEqual({ end: 'The end must be after the start.' });
    expect(validateWindow({ date: '2030-07-16', start: '12:00', end: '09:00' }, NOW)).toEqual({ end: 'The end must be after the start.' });
  });

  it('refuses a window that has started, unless the past is allowed', () => {
    const started = { date: '2030-07-15', start: '11:00', end: '14:00' };
    expect(validateWindow(started, NOW)).toEqual({ start: 'This time has already started; choose a later one.' });
    expect(validateWindow(started, NOW, { allowPast: true })).toEqual({});
  });

  it('names each missing or malformed part', () => {
    expect(validateWindow({ date: '', start: '', end: '' }, NOW)).toEqual({
      date: 'Choose a date.',
      start: 'Choose a start time.',
      end: 'Choose an end time.',
    });
    expect(validateWindow({ date: '2030-02-30', start: '09:00', end: '10:00' }, NOW)).toEqual({ date: 'Choose a date.' });
    expect(validateWindow({ date: '2030-07-16', start: '9:00', end: '25:00' }, NOW)).toEqual({ start: 'Choose a start time.', end: 'Choose an end time.' });
  });

  it('applies the published booking rules when given (users; admins are exempt)', () => {
    const short = { reservationMaxLengthSeconds: 2 * 3600, reservationHorizonSeconds: 7 * 86_400 };
    expect(validateWindow({ date: '2030-07-16', start: '09:00', end: '12:00' }, NOW, { limits: short })).toEqual({
      end: 'A booking may last at most 2 hours.',
    });
    expect(validateWindow({ date: '2030-07-23', start: '09:00', end: '10:00' }, NOW, { limits: short })).toEqual({
      date: 'Bookings can be made at most 7 days ahead.',
    });
    expect(validateWindow({ date: '2030-07-22', start: '09:00', end: '11:00' }, NOW, { limits: short })).toEqual({});
    expect(validateWindow({ date: '2030-10-14', start: '09:00', end: '17:00' }, NOW, { limits: LIMITS })).toEqual({
      date: 'Bookings can be made at most 90 days ahead.',
    });
    expect(validateWindow({ date: '2030-10-14', start: '09:00', end: '17:00' }, NOW)).toEqual({});
  });

  it('says durations in words', () => {
    expect(formatDuration(24 * 3600)).toBe('24 hours');
    expect(formatDuration(90 * 86_400)).toBe('90 days');
    expect(formatDuration(3600)).toBe('1 hour');
    expect(formatDuration(90 * 60)).toBe('90 minutes');
  });
});
