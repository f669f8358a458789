// The browser's zone is not the office's: run in New York, assign desks in Berlin and Auckland.
process.env.TZ = 'America/New_York';

import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import { assignmentSpan, todayIn } from '../../web/src/features/inventory/assignment.js';

/**
 * The FIXED desk assignment dialog's days (docs/policies.md#booking-for-someone-else): whole local
 * days of the desk's office, in its zone, not the browser's (docs/behaviour.md#office-time-zone).
 */
describe('assignmentSpan', () => {
  it('spans midnight to midnight in the office’s zone, whatever the browser’s', () => {
    expect(new Date('2030-03-04T12:00:00Z').getTimezoneOffset()).toBe(300); // the browser: New York, UTC-5
    expect(assignmentSpan('2030-03-04', '2030-03-08', 'Europe/Berlin')).toEqual({
      startTime: '2030-03-03T23:00:00Z',
      endTime: '2030-03-08T23:00:00Z',
    });
    expect(assignmentSpan('2030-03-04', '2030-03-04', 'Pacific/Auckland')).toEqual({
      startTime: '2030-03-03T11:00:00Z',
      endTime: '2030-03-04T11:00:00Z',
    });
    expect(assignmentSpan('2030-03-04', '2030-03-04', 'UTC')).toEqual({ startTime: '2030-03-04T00:00:00Z', endTime: '2030-03-05T00:00:00Z' });
  });

  it('keeps whole days across a summer-time change of the office (a 23-hour day)', () => {
    // Berlin moves to summer time on 2030-03-31: that day has 23 hours.
    const span = assignmentSpan('2030-03-31', '2030-03-31', 'Europe/Berlin');
    expect(span).toEqual({ startTime: '2030-03-30T23:00:00Z', endTime: '2030-03-31T22:00:00Z' });
  });

  it('suggests today in the office’s zone', () => {
    // 23:30 UTC on the 4th: already the 5th in Berlin, still the 4th in New York (the browser).
    const now = Temporal.Instant.from('2030-03-04T23:30:00Z');
    expect(todayIn('Europe/Berlin', now)).toBe('2030-03-05');
    expect(todayIn('America/Los_Angeles', now)).toBe('2030-03-04');
  });
});
