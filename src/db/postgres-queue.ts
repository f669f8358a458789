/**
 * The FIFO queue postgres.js keeps its connections and waiting queries in, replacing the driver's
 * own `queue.js` (3.4.9) through postgres-driver.ts
 * (docs/benchmarks.md#a-queue-that-never-drained).
 *
 * The driver's queue empties its array only when a shift takes the last element; until then each
 * shift leaves a hole at the front, and `remove` (called on every move of a connection between
 * its idle, busy and full queues, so on every statement) searches the array from its start. Under
 * sustained load the busy queue is never empty, so the array grew by every statement and each
 * statement searched it: a server lost a fifth of its list throughput within 40 s and kept
 * slowing. This queue drops the consumed front once it is half the array, and searches only
 * the live part.
 */
export interface DriverQueue<T> {
  readonly length: number;
  push(item: T): T;
  shift(): T | undefined;
  /** Takes `item` out wherever it is; answers it, or null when it was not queued. */
  remove(item: T): T | null;
}

/** Consumed slots tolerated at the front before the array is compacted. */
const COMPACT_AFTER = 64;

export default function Queue<T>(initial: readonly T[] = []): DriverQueue<T> {
  let items: (T | undefined)[] = initial.slice();
  let head = 0;
  return {
    get length() {
      return items.length - head;
    },
    push(item) {
      items.push(item);
      return item;
    },
    shift() {
      if (head === items.length) return undefined;
      const item = items[head];
      items[head++] = undefined;
      if (head === items.length) {
        items = [];
        head = 0;
      } else if (head >= COMPACT_AFTER && head * 2 >= items.length) {
        items = items.slice(head);
        head = 0;
      }
      return item;
    },
    remove(item) {
      const index = items.indexOf(item, head);
      if (index === -1) return null;
      items.splice(index, 1);
      return item;
    },
  };
}
