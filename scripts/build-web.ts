import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
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

/** Assets worth compressing (images other than SVG are compressed already). */
const COMPRESSIBLE = /\.(js|css|svg|html|json|txt)$/;
/** Smaller files gain nothing that pays for a second file (@fastify/static sends them as they are). */
const COMPRESS_MIN_BYTES = 1024;

/**
 * Writes `<file>.br` (brotli, quality 11) and `<file>.gz` (gzip, level 9) beside every compressible
 * asset, once at build time, so that the server sends them without compressing per request
 * (@fastify/static `preCompressed`, src/plugins/web.ts; docs/architecture.md#building). Answers
 * the files compressed with their sizes.
 */
export function precompress(assetsDir: string): { file: string; bytes: number; brotli: number; gzip: number }[] {
  const done = [];
  for (const name of readdirSync(assetsDir)) {
    if (!COMPRESSIBLE.test(name)) continue;
    const file = path.join(assetsDir, name);
    const data = readFileSync(file);
    if (data.length < COMPRESS_MIN_BYTES) continue;
    const brotli = brotliCompressSync(data, {
      params: { [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY, [zlib.BROTLI_PARAM_SIZE_HINT]: data.length },
    });
    const gzip = gzipSync(data, { level: 9 });
    writeFileSync(`${file}.br`, brotli);
    writeFileSync(`${file}.gz`, gzip);
    done.push({ file: name, bytes: data.length, brotli: brotli.length, gzip: gzip.length });
  }
  return done;
}

export interface BuildWebOptions {
  /** Where to build (default dist/web; a test builds elsewhere). */
  outDir?: string;
  /** Hears each warning Vite prints (a chunk over its size limit is one). */
  onWarning?: (message: string) => void;
}

export async function buildWeb(options: BuildWebOptions = {}): Promise<void> {
  // React and Vite pick their production code paths from NODE_ENV; a test runner sets it to "test".
  process.env.NODE_ENV = 'production';
  const outDir = options.outDir ?? WEB_OUTPUT_DIR;
  const hash = webSourceHash();
  // Vite is a devDependency of the web workspace, installed (hoisted) with the root's dev install.
  const { build, createLogger } = await import('vite');
  const logger = createLogger('warn');
  const warn = logger.warn.bind(logger);
  logger.warn = (message, warnOptions) => {
    options.onWarning?.(message);
    warn(message, warnOptions);
  };
  await build({
    root: WEB_SOURCE_DIR,
    configFile: path.join(WEB_SOURCE_DIR, 'vite.config.ts'),
    mode: 'production',
    logLevel: 'warn',
    customLogger: logger,
    build: { outDir },
  });
  precompress(path.join(outDir, 'assets'));
  writeFileSync(path.join(outDir, STAMP), `${hash}\n`);
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
