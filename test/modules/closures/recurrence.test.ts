import ICAL from 'ical.js';
import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import { expandClosureRule, MAX_CLOSURE_DAYS, parseClosureRule } from '../../../src/modules/closures/closures.recurrence.js';
import { AppError } from '../../../src/shared/errors.js';

/**
 * The closed days of a recurring closure (docs/policies.md#closures-and-holidays): parsed by
 * ical.js, expanded by our bounded walk. ical.js's own iterator is the reference for ordinary
 * rules; the bounds hold for rules it would loop on.
 */

const days = (rule: string, start: string) => expandClosureRule('rrule', parseClosureRule('rrule', rule), Temporal.PlainDate.from(start));

/** ical.js's expansion, for rules it handles (the first day included only when the rule selects it, as ours). */
function reference(rule: string, start: string, limit = 500): string[] {
  const iterator = ICAL.Recur.fromString(rule).iterator(ICAL.Time.fromDateString(start));
  const out: string[] = [];
  for (let next = iterator.next(); next && out.length < limit; next = iterator.next()) out.push(next.toString());
  return out;
}

function refusal(run: () => unknown): { field: string; message: string } {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return (error as AppError).extras.errors![0]!;
  }
  throw new Error('expected a refusal');
}

describe('closure recurrence', () => {
  it.each([
    ['FREQ=YEARLY;BYMONTH=12;BYMONTHDAY=25;COUNT=5', '2030-12-25'],
    ['FREQ=WEEKLY;BYDAY=MO,FR;UNTIL=20300630', '2030-04-01'],
    ['FREQ=WEEKLY;INTERVAL=2;BYDAY=WE;COUNT=10', '2030-04-03'],
    ['FREQ=MONTHLY;BYDAY=1MO;COUNT=12', '2030-04-01'],
    ['FREQ=MONTHLY;BYDAY=-1FR;UNTIL=20311231', '2030-04-26'],
    ['FREQ=MONTHLY;BYMONTHDAY=-1;COUNT=6', '2030-04-30'],
    ['FREQ=DAILY;INTERVAL=3;COUNT=20', '2030-04-01'],
    ['FREQ=YEARLY;BYMONTH=5;BYDAY=-1MO;COUNT=4', '2030-05-27'],
  ])('%s from %s gives the days ical.js gives', (rule, start) => {
    expect(days(rule, start)).toEqual(reference(rule, start));
  });

  it('needs an end and a supported rule, naming the field', () => {
    expect(refusal(() => days('FREQ=DAILY', '2030-04-01'))).toEqual({ field: 'rrule', message: 'needs an end: COUNT or UNTIL' });
    expect(refusal(() => days('FREQ=DAILY;COUNT=2;UNTIL=20300501', '2030-04-01')).field).toBe('rrule');
    expect(refusal(() => days('FREQ=MINUTELY;COUNT=2', '2030-04-01')).message).toMatch(/whole days/);
    expect(refusal(() => days('FREQ=DAILY;COUNT=2;BYHOUR=9', '2030-04-01')).message).toMatch(/BYHOUR is not supported/);
    expect(refusal(() => days('FREQ=DAILY;INTERVAL=0;COUNT=2', '2030-04-01')).message).toMatch(/INTERVAL/);
    expect(refusal(() => days('RRULE:COUNT=2', '2030-04-01')).message).toMatch(/FREQ/);
    expect(refusal(() => days('FREQ=WEEKLY;BYDAY=1MO;COUNT=2', '2030-04-01')).message).toMatch(/ordinal/);
  });

  it('is bounded: at most MAX_CLOSURE_DAYS days within five years, and an impossible rule ends at once', () => {
    expect(refusal(() => days(`FREQ=DAILY;COUNT=${MAX_CLOSURE_DAYS + 1}`, '2030-04-01')).message).toMatch(/COUNT must be/);
    expect(refusal(() => days('FREQ=DAILY;UNTIL=20320101', '2030-04-01')).message).toMatch(/at most 400 days/);
    expect(refusal(() => days('FREQ=YEARLY;COUNT=3;UNTIL=20400101', '2030-04-01')).field).toBe('rrule');
    expect(refusal(() => days('FREQ=YEARLY;UNTIL=20400101', '2030-04-01')).message).toMatch(/within 5 years/);
    // ical.js's own iterator never returns for this one (RFC 5545 says an impossible date is ignored).
    const started = performance.now();
    expect(refusal(() => days('FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30;COUNT=2', '2030-04-01')).message).toMatch(/gives no day/);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(days(`FREQ=DAILY;COUNT=${MAX_CLOSURE_DAYS}`, '2030-04-01')).toHaveLength(MAX_CLOSURE_DAYS);
  });
});
