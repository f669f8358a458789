import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { driverQueueModules, unpatchedDriverQueues } from '../../src/db/postgres-patch.js';
import { projectPath } from '../../src/shared/paths.js';

/**
 * postgres.js's queue as installed: patches/postgres+3.4.9.patch must have been applied to the
 * files the driver loads, in its ES module build (what the service, drizzle, scripts and tests
 * import) and its CommonJS build (docs/upstream/postgres-queue.md). No database here: every
 * test that talks to one goes through this driver and so this queue.
 */
interface DriverQueue<T> {
  readonly length: number;
  push(item: T): T;
  shift(): T | undefined;
  remove(item: T): T | null;
}
type QueueFactory = <T>(initial?: T[]) => DriverQueue<T>;

const modules = driverQueueModules();
const builds: [string, () => Promise<QueueFactory>][] = [
  ['ES module', async () => ((await import(pathToFileURL(modules.esm).href)) as { default: QueueFactory }).default],
  ['CommonJS', async () => createRequire(import.meta.url)(modules.cjs) as QueueFactory],
];

/**
 * Runs `work`, adding to `searches`, for every `Array.prototype.indexOf` call in it (the queue's
 * `remove` searches with it), the length of the array searched and where the search started.
 */
function watchingSearches<T>(searches: { length: number; from: number }[], work: () => T): T {
  const indexOf = Array.prototype.indexOf;
  Array.prototype.indexOf = function (this: unknown[], ...args: [unknown, number?]) {
    searches.push({ length: this.length, from: args[1] ?? 0 });
    return indexOf.apply(this, args);
  };
  try {
    return work();
  } finally {
    Array.prototype.indexOf = indexOf;
  }
}

describe('the driver’s files', () => {
  it('are those of the installed postgres package, both builds, and carry the patch', () => {
    const root = projectPath('node_modules', 'postgres');
    expect(modules).toEqual({ esm: path.join(root, 'src', 'queue.js'), cjs: path.join(root, 'cjs', 'src', 'queue.js') });
    expect(unpatchedDriverQueues()).toEqual([]);
    // The Cloudflare Workers build has its own copy; the patch covers it too.
    expect(unpatchedDriverQueues([path.join(root, 'cf', 'src', 'queue.js')])).toEqual([]);
    expect(readFileSync(projectPath('package.json'), 'utf8')).toContain('"postinstall": "patch-package --error-on-fail');
  });

  it('are reported when they lack the patch (what the server warns about at start)', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'deskbook-queue-'));
    try {
      const unpatched = path.join(dir, 'queue.js');
      writeFileSync(unpatched, 'module.exports = Queue\nfunction Queue(initial = []) {}\n');
      expect(unpatchedDriverQueues([modules.esm, unpatched])).toEqual([unpatched]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.each(builds)('the driver’s queue (%s build)', (_, load) => {
  it('is first in, first out, counts what it holds, and answers undefined when empty', async () => {
    const Queue = await load();
    const queue = Queue(['a']);
    queue.push('b');
    queue.push('c');
    expect(queue.length).toBe(3);
    expect([queue.shift(), queue.shift()]).toEqual(['a', 'b']);
    expect(queue.shift()).toBe('c');
    expect(queue.length).toBe(0);
    expect(queue.shift()).toBeUndefined();
    expect(queue.shift()).toBeUndefined();
    expect(queue.length).toBe(0);
    queue.push('d');
    expect([queue.length, queue.shift(), queue.length]).toEqual([1, 'd', 0]);
  });

  it('removes an item wherever it is, and answers null for one it does not hold', async () => {
    const Queue = await load();
    const queue = Queue<string>();
    for (const item of ['a', 'b', 'c', 'd']) queue.push(item);
    expect(queue.shift()).toBe('a');
    expect(queue.remove('a')).toBeNull();
    expect(queue.remove('c')).toBe('c');
    expect(queue.remove('c')).toBeNull();
    expect(queue.length).toBe(2);
    expect([queue.shift(), queue.shift()]).toEqual(['b', 'd']);
  });

  it('under steady load that never empties it, keeps its order and searches a bounded array from its live front', async () => {
    // A pool under constant load: one connection goes out, one comes in, some move between
    // queues (the driver's move(): remove, then push), and the busy queue never runs empty.
    // A plain array is the reference for what must come out, in which order.
    const Queue = await load();
    const live = 10;
    const reference = Array.from({ length: live }, (_, i) => i);
    const queue = Queue<number>(reference.slice());
    let next = live;
    const taken: (number | undefined)[] = [];
    const expected: (number | undefined)[] = [];
    const searches: { length: number; from: number }[] = [];
    for (let i = 0; i < 20_000; i++) {
      taken.push(queue.shift());
      expected.push(reference.shift());
      queue.push(next);
      reference.push(next++);
      if (i % 3 === 0) {
        const moved = watchingSearches(searches, () => queue.remove(next - 2));
        if (moved !== null) queue.push(moved);
        reference.push(...reference.splice(reference.indexOf(next - 2), 1));
      }
    }
    expect(taken).toEqual(expected);
    expect(queue.length).toBe(live);
    expect(Array.from({ length: live }, () => queue.shift())).toEqual(reference);
    // Unpatched, the array keeps every shifted slot: it reaches 20,000 and each search starts at 0.
    expect(searches.length).toBeGreaterThan(6_000);
    expect(Math.max(...searches.map((s) => s.length))).toBeLessThanOrEqual(2 * (64 + live));
    expect(Math.max(...searches.map((s) => s.length - s.from))).toBeLessThanOrEqual(live);
  });
});
