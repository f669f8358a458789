import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { projectPath } from '../src/shared/paths.js';

/**
 * Builds the web app (web/ → dist/web) with Vite. `npm run build` (and so `npm start`) runs it
 * without arguments: it builds only when the output is missing or stale, judged by a hash of every
 * file under web/, the server files the web app bundles, and package-lock.json (so a dependency
 * upgrade rebuilds too) against the stamp written beside the output. `npm run build:web` passes --force.
 */

export const WEB_SOURCE_DIR = projectPath('web');
export const WEB_OUTPUT_DIR = projectPath('dist', 'web');
/** Files outside web/ that the web app imports (its forms check the server's own field schemas). */
export const WEB_SHARED_SOURCES = [projectPath('src', 'shared', 'fields.ts')];
const LOCK_FILE = projectPath('package-lock.json');
const STAMP = '.source-hash';

function filesUnder(dir: string): string[] {
  return (
    readdirSync(dir, { withFileTypes: true, recursive: true })
      // A workspace may have a node_modules of its own: installed packages count through the lock file.
      .filter((entry) => entry.isFile() && !path.relative(dir, entry.parentPath).split(path.sep).includes('node_modules'))
      .map((entry) => path.join(entry.parentPath, entry.name))
  );
}

/** Hash of what the build is made from: paths (relative to the source folder's parent) and contents, in a fixed order. */
export function webSourceHash(sourceDir = WEB_SOURCE_DIR, lockFile = LOCK_FILE, sharedFiles = WEB_SHARED_SOURCES): string {
  const base = path.dirname(sourceDir);
  const files = [...filesUnder(sourceDir), ...sharedFiles].map((file) => path.relative(base, file).split(path.sep).join('/')).sort();
  const hash = createHash('sha256');
  for (const file of files)
    hash
      .update(file)
      .update('\0')
      .update(readFileSync(path.join(base, file)))
      .update('\0');
  hash.update(path.basename(lockFile)).update('\0').update(readFileSync(lockFile));
  return hash.digest('hex');
}

/** Whether the output holds a build of exactly these sources. */
export function webBuildIsCurrent(outputDir = WEB_OUTPUT_DIR, sourceDir = WEB_SOURCE_DIR, lockFile = LOCK_FILE, sharedFiles = WEB_SHARED_SOURCES): boolean {
  const stamp = path.join(outputDir, STAMP);
  if (!existsSync(path.join(outputDir, 'index.html')) || !existsSync(stamp)) return false;
  return readFileSync(stamp, 'utf8').trim() === webSourceHash(sourceDir, lockFile, sharedFiles);
}

export async function buildWeb(): Promise<void> {
  // React and Vite pick their production code paths from NODE_ENV; a test runner sets it to "test".
  process.env.NODE_ENV = 'production';
  const hash = webSourceHash();
  // Vite is a devDependency of the web workspace, installed (hoisted) with the root's dev install.
  const { build } = await import('vite');
  await build({ root: WEB_SOURCE_DIR, configFile: path.join(WEB_SOURCE_DIR, 'vite.config.ts'), mode: 'production', logLevel: 'warn' });
  writeFileSync(path.join(WEB_OUTPUT_DIR, STAMP), `${hash}\n`);
}

/** Builds when forced or stale; answers whether it built. */
export async function ensureWebBuilt(force = false): Promise<boolean> {
  if (!force && webBuildIsCurrent()) return false;
  await buildWeb();
  return true;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const force = process.argv.includes('--force');
  const started = Date.now();
  const built = await ensureWebBuilt(force);
  console.log(built ? `web app built into dist/web in ${((Date.now() - started) / 1000).toFixed(1)} s` : 'web app is up to date (dist/web)');
}
