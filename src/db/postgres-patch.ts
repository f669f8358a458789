import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * postgres.js 3.4.9 runs with its queue fixed by patches/postgres+3.4.9.patch, which every
 * install applies to the package's files (`postinstall: patch-package`, a runtime dependency so
 * that `npm ci --omit=dev` applies it too); see docs/upstream/postgres-queue.md. An install made
 * with `--ignore-scripts` skips it, and the server then says so in its log at start.
 */

/** The queue modules of the postgres.js Node loads from here: the ES module build (`import postgres from 'postgres'`) and the CommonJS build (`require`). */
export function driverQueueModules(): { esm: string; cjs: string } {
  const esm = path.join(path.dirname(fileURLToPath(import.meta.resolve('postgres'))), 'queue.js');
  const cjs = path.join(path.dirname(createRequire(import.meta.url).resolve('postgres')), 'queue.js');
  return { esm, cjs };
}

/** A line the patch adds to every copy of the queue. */
const PATCH_MARK = 'const compactAfter = ';

/** Those of `files` (by default the driver's queue modules) that do not carry the patch. */
export function unpatchedDriverQueues(files: readonly string[] = Object.values(driverQueueModules())): string[] {
  return files.filter((file) => !readFileSync(file, 'utf8').includes(PATCH_MARK));
}
