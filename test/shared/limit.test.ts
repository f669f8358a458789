import { describe, expect, it } from 'vitest';
import { concurrencyLimit } from '../../src/shared/limit.js';

/** The limit on password hashes at once (docs/benchmarks.md#memory). */

describe('concurrencyLimit', () => {
  it('runs at most max tasks at once, the others in the order they came, and answers each its own result', async () => {
    const limit = concurrencyLimit(2);
    let running = 0;
    let most = 0;
    const started: number[] = [];
    const finish: (() => void)[] = [];
    const results = [0, 1, 2, 3, 4].map((n) =>
      limit(async () => {
        started.push(n);
        most = Math.max(most, ++running);
        await new Promise<void>((resolve) => finish.push(resolve));
        running--;
        return n * 10;
      }),
    );
    const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
    await settle();
    expect(started).toEqual([0, 1]);
    finish.shift()!();
    await settle();
    expect(started).toEqual([0, 1, 2]);
    while (finish.length > 0) {
      finish.shift()!();
      await settle();
    }
    expect(await Promise.all(results)).toEqual([0, 10, 20, 30, 40]);
    expect(started).toEqual([0, 1, 2, 3, 4]);
    expect(most).toBe(2);
  });

  it('frees the slot of a task that fails', async () => {
    const limit = concurrencyLimit(1);
    await expect(limit(() => Promise.reject(new Error('no')))).rejects.toThrow('no');
    expect(await limit(async () => 'next')).toBe('next');
  });
});
