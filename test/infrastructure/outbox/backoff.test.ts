import { describe, expect, it } from 'vitest';
import { DEFAULT_BACKOFF, isDead, retryDelayMs } from '../../../src/infrastructure/outbox/backoff.js';

/** The outbox's retry schedule (docs/architecture.md#the-outbox): doubling from a minute, capped at an hour. */
describe('outbox backoff', () => {
  const MIN = 60_000;

  it('waits 1, 2, 4, 8 … minutes after each failed try, never more than an hour', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((attempts) => retryDelayMs(attempts) / MIN)).toEqual([1, 2, 4, 8, 16, 32, 60, 60, 60, 60]);
    expect(retryDelayMs(1_000_000)).toBe(DEFAULT_BACKOFF.capMs);
  });

  it('follows a backoff of its own', () => {
    const backoff = { baseMs: 1000, capMs: 5000 };
    expect([1, 2, 3, 4].map((attempts) => retryDelayMs(attempts, backoff))).toEqual([1000, 2000, 4000, 5000]);
  });

  it('treats a count below one as the first try', () => {
    expect(retryDelayMs(0)).toBe(MIN);
    expect(retryDelayMs(-3)).toBe(MIN);
    expect(retryDelayMs(Number.NaN)).toBe(MIN);
  });

  it('is dead once the tries reach the kind’s maximum', () => {
    expect(isDead(4, 5)).toBe(false);
    expect(isDead(5, 5)).toBe(true);
    expect(isDead(6, 5)).toBe(true);
  });
});
