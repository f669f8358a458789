import { createRequire, Module } from 'node:module';
import path from 'node:path';
import type postgresDriver from 'postgres';
import Queue from './postgres-queue.js';

/**
 * postgres.js with our queue (postgres-queue.ts) in place of its own; see
 * docs/benchmarks.md#a-queue-that-never-drained for why. The package's CommonJS build is loaded
 * after its `./queue.js` has been put into the module cache as ours, so the driver finds ours
 * when it requires its own. (Its ES module build cannot be changed from outside without a loader
 * hook, which on Node 20 runs on a thread of its own for the life of the process.)
 */
const require = createRequire(import.meta.url);

/** The path of the module the driver requires as its queue. */
const driverQueuePath = path.join(path.dirname(require.resolve('postgres')), 'queue.js');

function driverWithOurQueue(): typeof postgresDriver {
  if (!require.cache[driverQueuePath]) {
    const ours = new Module(driverQueuePath);
    ours.filename = driverQueuePath;
    ours.loaded = true;
    ours.exports = Queue;
    require.cache[driverQueuePath] = ours;
  }
  return require('postgres') as typeof postgresDriver;
}

export const postgres = driverWithOurQueue();

/** The queue the loaded driver requires (tests check it is ours). */
export const loadedDriverQueue = (): unknown => require.cache[driverQueuePath]?.exports;
