import { describe, expect, it } from 'vitest';
import { DecodeQueue } from '../../../src/infrastructure/images/images.js';
import { AppError } from '../../../src/shared/errors.js';

/**
 * The process-wide queue of image decodes (IMAGE_DECODE_MEMORY): decodes whose decoded sizes
 * fit the budget together run at once, the others wait their turn in arrival order, an image
 * larger than the whole budget runs alone, and beyond the waiting limit an upload is refused
 * with 503 SERVER_BUSY and Retry-After.
 */

/** A decode that runs until released, recording when it started. */
function decode(queue: DecodeQueue, cost: number, log: string[], name: string) {
  let finish!: () => void;
  const done = queue.run(cost, async () => {
    log.push(name);
    await new Promise<void>((resolve) => (finish = resolve));
    return name;
  });
  return { done, finish: () => finish() };
}
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('image decode queue', () => {
  it('runs decodes that fit the budget together and the next ones in arrival order as memory frees up', async () => {
    const queue = new DecodeQueue(100, 10);
    const log: string[] = [];
    const a = decode(queue, 40, log, 'a');
    const b = decode(queue, 50, log, 'b');
    const c = decode(queue, 30, log, 'c'); // 40 + 50 + 30 > 100: waits
    const d = decode(queue, 5, log, 'd'); // would fit, but does not overtake c
    await settle();
    expect(log).toEqual(['a', 'b']);
    a.finish();
    await settle();
    expect(log).toEqual(['a', 'b', 'c', 'd']);
    b.finish();
    c.finish();
    d.finish();
    expect(await Promise.all([a.done, b.done, c.done, d.done])).toEqual(['a', 'b', 'c', 'd']);
  });

  it('decodes an image larger than the whole budget alone', async () => {
    const queue = new DecodeQueue(100, 10);
    const log: string[] = [];
    const small = decode(queue, 10, log, 'small');
    const huge = decode(queue, 500, log, 'huge');
    const after = decode(queue, 10, log, 'after');
    await settle();
    expect(log).toEqual(['small']);
    small.finish();
    await settle();
    expect(log).toEqual(['small', 'huge']);
    huge.finish();
    await settle();
    expect(log).toEqual(['small', 'huge', 'after']);
    after.finish();
    await Promise.all([small.done, huge.done, after.done]);
  });

  it('refuses beyond the waiting limit with 503 SERVER_BUSY and Retry-After, and frees the memory of a failed decode', async () => {
    const queue = new DecodeQueue(100, 2);
    const log: string[] = [];
    const running = decode(queue, 100, log, 'running');
    const waiting = [decode(queue, 100, log, 'w1'), decode(queue, 100, log, 'w2')];
    const refused = await queue.run(1, async () => 'never').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ code: 'SERVER_BUSY', status: 503, extras: { retryAfter: 2 } });

    running.finish();
    await settle();
    expect(log).toEqual(['running', 'w1']);
    waiting[0]!.finish();
    await settle();
    expect(log).toEqual(['running', 'w1', 'w2']);
    waiting[1]!.finish();
    await Promise.all([running.done, ...waiting.map((entry) => entry.done)]);

    await expect(queue.run(100, async () => Promise.reject(new Error('not an image')))).rejects.toThrow('not an image');
    const after = decode(queue, 100, log, 'after');
    await settle();
    expect(log.at(-1)).toBe('after');
    after.finish();
    await after.done;
  });
});
