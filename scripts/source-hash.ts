import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * How `npm start` tells a build is stale (docs/architecture.md#building): a SHA-256 over the paths
 * and contents of its sources, shared by the server build (scripts/build-server.ts) and the web
 * build (scripts/build-web.ts).
 */

/** Every file under `dir`, outside any node_modules folder (installed packages count through the lock file). */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && !path.relative(dir, entry.parentPath).split(path.sep).includes('node_modules'))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/**
 * Hash of `files`: each one's path relative to `base` and its contents, in a fixed order (so a
 * file that comes, goes, moves or changes changes it; times do not). A file that does not exist
 * (a project without a lock file) counts as empty.
 */
export function hashFiles(base: string, files: readonly string[]): string {
  const named = files
    .map((file) => ({ file, name: path.relative(base, file).split(path.sep).join('/') }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const hash = createHash('sha256');
  for (const { file, name } of named) {
    hash.update(name).update('\0');
    if (existsSync(file)) hash.update(readFileSync(file));
    hash.update('\0');
  }
  return hash.digest('hex');
}
