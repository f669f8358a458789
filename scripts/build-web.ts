import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { projectPath } from '../src/shared/paths.js';
import { filesUnder, hashFiles } from './source-hash.js';

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

/** Hash of what the build is made from: every file under the source folder, the shared files and the lock file (scripts/source-hash.ts). */
export function webSourceHash(sourceDir = WEB_SOURCE_DIR, lockFile = LOCK_FILE, sharedFiles = WEB_SHARED_SOURCES): string {
  return hashFiles(path.dirname(sourceDir), [...filesUnder(sourceDir), ...sharedFiles, lockFile]);
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
