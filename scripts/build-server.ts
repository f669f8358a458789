import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { projectPath } from '../src/shared/paths.js';
import { filesUnder, hashFiles } from './source-hash.js';

/**
 * Compiles the server (src/ → dist/) with `tsc -p tsconfig.build.json`, but only when its output
 * is missing or stale: `npm start` runs `scripts/build.ts`, which calls this, on every start, and
 * tsc costs 4–40 s even when nothing changed (it reads and checks every file). Stale is judged as
 * the web build judges it (scripts/build-web.ts): a hash of every file under src/, both tsconfig
 * files, package.json and package-lock.json (a new TypeScript or @types version compiles anew),
 * against the stamp written beside the output; and every src/**\/*.ts must have its dist/**\/*.js.
 * `npm run build:server` passes --force. See docs/architecture.md#building.
 */

/** What the server build is made from, relative to the project root. */
const SERVER_SOURCE_DIR = 'src';
const SERVER_CONFIG_FILES = ['tsconfig.json', 'tsconfig.build.json', 'package.json', 'package-lock.json'];
const SERVER_OUTPUT_DIR = 'dist';
const STAMP = '.server-source-hash';

/** Hash of what the build is made from: every file under src/ and the config files (scripts/source-hash.ts). */
export function serverSourceHash(root = projectPath()): string {
  return hashFiles(root, [...filesUnder(path.join(root, SERVER_SOURCE_DIR)), ...SERVER_CONFIG_FILES.map((file) => path.join(root, file))]);
}

/** The compiled files the sources must have produced: one .js per .ts (declarations aside). */
function expectedOutputs(root: string): string[] {
  const sourceDir = path.join(root, SERVER_SOURCE_DIR);
  return filesUnder(sourceDir)
    .filter((file) => /\.(m|c)?ts$/.test(file) && !/\.d\.(m|c)?ts$/.test(file))
    .map((file) => path.join(root, SERVER_OUTPUT_DIR, path.relative(sourceDir, file)).replace(/\.(m|c)?ts$/, (ext) => ext.replace('ts', 'js')));
}

/** Whether dist/ holds a build of exactly these sources. */
export function serverBuildIsCurrent(root = projectPath()): boolean {
  const stamp = path.join(root, SERVER_OUTPUT_DIR, STAMP);
  if (!existsSync(stamp)) return false;
  if (readFileSync(stamp, 'utf8').trim() !== serverSourceHash(root)) return false;
  return expectedOutputs(root).every((file) => existsSync(file));
}

/** Runs the TypeScript compiler on tsconfig.build.json in `root`, on this Node; throws when it fails. */
function compileServer(root = projectPath()): void {
  const tsc = path.join(projectPath('node_modules', 'typescript', 'bin', 'tsc'));
  const result = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
  if (result.error) throw result.error;
  if (result.status !== 0) throw new Error(`tsc -p tsconfig.build.json exited with ${result.status ?? result.signal}`);
}

/**
 * Compiles when forced or stale; answers whether it compiled. The hash is taken before compiling,
 * so a file changed during the build leaves the stamp stale and the next start compiles again.
 * A failed compile writes no stamp.
 */
export function ensureServerBuilt(options: { root?: string; force?: boolean; compile?: (root: string) => void } = {}): boolean {
  const { root = projectPath(), force = false, compile = compileServer } = options;
  if (!force && serverBuildIsCurrent(root)) return false;
  const hash = serverSourceHash(root);
  compile(root);
  writeFileSync(path.join(root, SERVER_OUTPUT_DIR, STAMP), `${hash}\n`);
  return true;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const started = Date.now();
  const built = ensureServerBuilt({ force: process.argv.includes('--force') });
  console.log(built ? `server compiled into dist/ in ${((Date.now() - started) / 1000).toFixed(1)} s` : 'server is up to date (dist/)');
}
