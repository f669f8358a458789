import { describe, expect, it } from 'vitest';
import Queue from '../../src/db/postgres-queue.js';

/** The queue postgres.js is handed instead of its own (docs/benchmarks.md#a-queue-that-never-drained). */
describe('the driver queue', () => {
  it('is first in, first out, and counts what it holds', () => {
    const queue = Queue(['a']);
    queue.push('b');
    queue.push('c');
    expect(queue.length).toBe(3);
    expect([queue.shift(), queue.shift()]).toEqual(['a', 'b']);
    expect(queue.length).toBe(1);
    expect(queue.shift()).toBe('c');
    expect(queue.length).toBe(0);
    expect(queue.shift()).toBeUndefined();
    expect(queue.length).toBe(0);
  });

  it('removes an item wherever it is, and answers null for one it does not hold', () => {
    const queue = Queue<string>();
    for (const item of ['a', 'b', 'c', 'd']) queue.push(item);
    expect(queue.shift()).toBe('a');
    expect(queue.remove('a')).toBeNull();
    expect(queue.remove('c')).toBe('c');
    expect(queue.remove('c')).toBeNull();
    expect(queue.length).toBe(2);
    expect([queue.shift(), queue.shift()]).toEqual(['b', 'd']);
  });

  it('keeps its order through compactions when it never runs empty', () => {
    // The pattern of a pool under constant load: one goes out, one comes in, the queue never empties.
    const queue = Queue<number>([0, 1, 2]);
    let next = 3;
    const taken: number[] = [];
    for (let i = 0; i < 10_000; i++) {
      taken.push(queue.shift()!);
      queue.push(next++);
      if (i % 7 === 0) {
        // the driver's move(): a connection leaves whatever queue it is in
        const removed = queue.remove(next - 2);
        if (removed !== null) queue.push(removed);
      }
    }
    expect(queue.length).toBe(3);
    // Every item came out once, none twice.
    expect(new Set(taken).size).toBe(taken.length);
    const rest = [queue.shift()!, queue.shift()!, queue.shift()!];
    expect(new Set([...taken, ...rest]).size).toBe(10_003);
  });

  it('is the queue of the postgres.js the service connects with', async () => {
    const { loadedDriverQueue } = await import('../../src/db/postgres-driver.js');
    expect(loadedDriverQueue()).toBe(Queue);
    // That the driver works with it on a database: postgres-driver.test.ts (api tier).
  });
});
