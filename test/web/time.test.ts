// Local-time behaviour is checked in a zone with summer time; set before any date is made.
process.env.TZ = 'Europe/Berlin';

import { beforeAll, describe, expect, it } from 'vitest';
import { startTestI18n } from '../helpers/i18n.js';
import {
  formatDateTime,
  formatDay,
  formatRange,
  formatRangeIn,
  formatTimeIn,
  formatUtcDay,
  formatWait,
  isoToLocalWindow,
  localToIso,
  tomorrowWindow,
  windowToIso,
} from '../../web/src/lib/time.js';

// The problem sentences and waits are English keys' values (docs/i18n.md).
beforeAll(() => startTestI18n('en'));

describe('local time ↔ UTC', () => {
  it('sends local wall-clock times as UTC instants, by the offset of that date', () => {
    expect(localToIso('2030-01-15', '09:00')).toBe('2030-01-15T08:00:00.000Z'); // CET, +01:00
    expect(localToIso('2030-07-15', '09:00')).toBe('2030-07-15T07:00:00.000Z'); // CEST, +02:00
    // The day summer time starts: 09:00 is already CEST.
    expect(localToIso('2030-03-31', '09:00')).toBe('2030-03-31T07:00:00.000Z');
    expect(localToIso('2030-03-30', '09:00')).toBe('2030-03-30T08:00:00.000Z');
  });

  it('moves a time that does not exist (the summer-time gap) forward, as clocks do', () => {
    expect(localToIso('2030-03-31', '02:30')).toBe('2030-03-31T01:30:00.000Z'); // 03:30 CEST
  });

  it('refuses impossible or incomplete values instead of rolling them over', () => {
    expect(localToIso('2030-02-31', '09:00')).toBeUndefined();
    expect(localToIso('2030-13-01', '09:00')).toBeUndefined();
    expect(localToIso('2030-01-01', '24:00')).toBeUndefined();
    expect(localToIso('2030-01-01', '09:60')).toBeUndefined();
    expect(localToIso('', '09:00')).toBeUndefined();
    expect(localToIso('2030-01-01', '')).toBeUndefined();
    expect(localToIso('01/02/2030', '09:00')).toBeUndefined();
  });

  it('shows stored UTC ranges in local form fields', () => {
    expect(isoToLocalWindow('2030-07-15T07:00:00.000Z', '2030-07-15T10:30:00.000Z')).toEqual({ date: '2030-07-15', start: '09:00', end: '12:30' });
    expect(isoToLocalWindow('2030-12-31T23:15:00Z', '2031-01-01T00:00:00Z')).toEqual({ date: '2031-01-01', start: '00:15', end: '01:00' });
  });

  it('makes both ends of a window, or nothing when one is missing', () => {
    expect(windowToIso({ date: '2030-07-15', start: '09:00', end: '12:00' })).toEqual({ start: '2030-07-15T07:00:00.000Z', end: '2030-07-15T10:00:00.000Z' });
    expect(windowToIso({ date: '2030-07-15', start: '09:00', end: '' })).toBeUndefined();
  });
});

describe('the default search window', () => {
  it('is tomorrow 09:00–17:00 in local time', () => {
    expect(tomorrowWindow(new Date('2030-07-15T10:00:00Z'))).toEqual({ date: '2030-07-16', start: '09:00', end: '17:00' });
  });

  it('follows the local calendar, not the UTC one', () => {
    // 23:30 UTC on the 14th is already 01:30 on the 15th in Berlin: tomorrow is the 16th.
    expect(tomorrowWindow(new Date('2030-07-14T23:30:00Z')).date).toBe('2030-07-16');
    expect(tomorrowWindow(new Date('2030-12-31T12:00:00Z')).date).toBe('2031-01-01');
    // Across the change to summer time (the local day is 23 hours long).
    expect(tomorrowWindow(new Date('2030-03-30T22:30:00Z')).date).toBe('2030-03-31');
  });
});

describe('formatting', () => {
  it('writes a range on one day with the date once, in local time', () => {
    expect(formatRange('2030-05-15T07:00:00Z', '2030-05-15T10:00:00Z')).toBe('Wed, 15 May 2030, 09:00–12:00');
  });

  it('writes both dates of a range over midnight', () => {
    expect(formatRange('2030-05-15T20:00:00Z', '2030-05-16T06:30:00Z')).toBe('Wed, 15 May 2030, 22:00 – Thu, 16 May 2030, 08:30');
  });

  it('writes moments in local time with a 24-hour clock', () => {
    expect(formatDateTime('2030-05-15T12:05:00Z')).toBe('15 May 2030, 14:05');
  });

  it('names statistics days by their UTC date, whatever the local zone', () => {
    expect(formatUtcDay('2030-05-15T00:00:00Z')).toBe('15 May');
    expect(formatUtcDay('2030-05-14T23:00:00Z')).toBe('14 May');
  });

  it('says how long to wait in words', () => {
    expect(formatWait(0.2)).toBe('1 second');
    expect(formatWait(42)).toBe('42 seconds');
    expect(formatWait(60)).toBe('1 minute');
    expect(formatWait(61)).toBe('2 minutes');
    expect(formatWait(900)).toBe('15 minutes');
  });
});

// The desk page shows the office's time, not the browser's (docs/behaviour.md#office-time-zone).
describe('times in an office zone', () => {
  it('formats in the zone given, whatever the process zone', () => {
    expect(formatTimeIn('2030-01-21T17:00:00Z', 'Europe/Berlin')).toBe('18:00');
    expect(formatTimeIn('2030-01-21T17:00:00Z', 'America/New_York')).toBe('12:00');
    expect(formatRangeIn('2030-01-21T08:00:00Z', '2030-01-21T17:00:00Z', 'Europe/Berlin')).toBe('Mon, 21 Jan 2030, 09:00–18:00');
    expect(formatRangeIn('2030-01-21T20:00:00Z', '2030-01-22T01:00:00Z', 'Asia/Tokyo')).toBe('Tue, 22 Jan 2030, 05:00–10:00');
    expect(formatDay('2030-06-04')).toBe('Tue, 4 Jun 2030');
  });
});
