import { spawn } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { postmastersOf, processesWhere } from '../../scripts/bench/processes.js';
import { openDatabase } from '../../src/db/client.js';
import { DataDirInUseError } from '../../src/db/data-dir-lock.js';
import {
  clusterAccount,
  EMBEDDED_SYSTEM_USER,
  LegacyDataDirError,
  reachableBinaries,
  startEmbeddedPostgres,
  type EmbeddedCluster,
} from '../../src/db/embedded-postgres.js';
import { pgErrorCode } from '../../src/db/errors.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../helpers/app.js';
import { TEST_ONLY_ENV } from '../helpers/test-env.js';
import { adminWithDesk, call, slot, timed, type Outcome } from '../helpers/load.js';
import { freePort, killServers, startServer, waitHealthy, type ServerProcess } from '../helpers/server-process.js';

/**
 * The embedded PostgreSQL, the default set-up (docs/deployment.md#the-embedded-postgresql): a real
 * server process per DATA_DIR, its postmaster surviving a SIGKILL of Deskbook and found again, one
 * owner per DATA_DIR, root handled, an old PGlite folder refused, statements really cancelled.
 */

const dirs: string[] = [];
const clusters: EmbeddedCluster[] = [];
const isRoot = process.getuid?.() === 0;

function dataDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'deskbook-embedded-'));
  chmodSync(dir, 0o755);
  dirs.push(dir);
  return dir;
}

async function started(options: Parameters<typeof startEmbeddedPostgres>[0]): Promise<EmbeddedCluster> {
  const cluster = await startEmbeddedPostgres({ fsync: false, ...options });
  clusters.push(cluster);
  return cluster;
}

/** Processes whose working directory is `dir`'s cluster (a postmaster and its backends chdir there). */
const backendsOf = (dir: string) => processesWhere((pid) => readlinkSync(`/proc/${pid}/cwd`) === `${dir}/postgres/data`);

const uidOf = (pid: number) => Number(/^Uid:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);

async function startOn(dir: string): Promise<{ server: ServerProcess; readyMs: number }> {
  const began = performance.now();
  const server = startServer({ DATA_DIR: dir, ADMIN_EMAIL, ADMIN_PASSWORD, LOG_LEVEL: 'info', REQUEST_LOG: 'false' }, await freePort());
  await waitHealthy(server);
  return { server, readyMs: performance.now() - began };
}

afterAll(async () => {
  await killServers();
  for (const cluster of clusters) await cluster.stop().catch(() => {});
  for (const dir of dirs) {
    for (const pid of postmastersOf(dir)) process.kill(pid, 'SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
});

describe('the embedded PostgreSQL', () => {
  it('is a real PostgreSQL 17 on a Unix socket only, durable, and cancels a statement at DATABASE_STATEMENT_TIMEOUT', async () => {
    const cluster = await started({ dataDir: dataDir(), fsync: true, database: 'deskbook' });
    expect(cluster.url).toContain('?host=');
    const database = await openDatabase({ kind: 'postgres', url: cluster.url, poolSize: 2, statementTimeoutMs: 300 });
    try {
      const [settings] = (await database.db.execute(
        `select current_setting('server_version_num')::int as version, current_setting('listen_addresses') as listen, current_setting('fsync') as fsync, current_setting('synchronous_commit') as sync` as never,
      )) as unknown as { version: number; listen: string; fsync: string; sync: string }[];
      expect(settings).toEqual({ version: expect.any(Number), listen: '', fsync: 'on', sync: 'on' });
      expect(settings!.version).toBeGreaterThanOrEqual(170000);
      const began = performance.now();
      const error = await database.db.execute('select pg_sleep(5)' as never).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      // 57014: canceled by statement_timeout, long before the 5 s sleep would end.
      expect(pgErrorCode(error)).toBe('57014');
      expect(performance.now() - began).toBeLessThan(4000);
      // The connection serves on.
      expect(await database.db.execute('select 1 as one' as never)).toEqual([{ one: 1 }]);
    } finally {
      await database.close();
    }
  });

  it.runIf(isRoot)('runs as the system user deskbook-postgres when Deskbook runs as root', async () => {
    const cluster = await started({ dataDir: dataDir() });
    const owner = /^deskbook-postgres:x:(\d+):/m.exec(readFileSync('/etc/passwd', 'utf8'));
    expect(owner, `${EMBEDDED_SYSTEM_USER} in /etc/passwd`).not.toBeNull();
    expect(uidOf(cluster.pid)).toBe(Number(owner![1]));
  });

  it.runIf(isRoot)('as root, lets the system user through a DATA_DIR closed to others (search bit only) and changes no folder above', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'deskbook-embedded-')); // 0700, as mkdtemp makes it
    dirs.push(dir);
    const above = statSync(path.dirname(dir)).mode;
    const logs: string[] = [];
    const cluster = await started({ dataDir: dir, log: (line) => logs.push(line) });
    expect(uidOf(cluster.pid)).not.toBe(0);
    // docs/deployment.md#the-embedded-postgresql: others may pass through, not list.
    expect(statSync(dir).mode & 0o777).toBe(0o701);
    expect(statSync(path.dirname(dir)).mode).toBe(above);
    expect(logs.join('\n')).toContain(`pass through ${dir}`);
  });

  it.runIf(isRoot)('runs binaries the system user cannot reach (a checkout in a 0700 folder) from a root-owned copy, made once', () => {
    const closed = dataDir();
    chmodSync(closed, 0o700);
    const root = path.join(closed, 'package');
    mkdirSync(path.join(root, 'native', 'bin'), { recursive: true });
    mkdirSync(path.join(root, 'native', 'lib'));
    writeFileSync(path.join(root, 'native', 'bin', 'postgres'), `#!/bin/sh\n# ${closed}\n`, { mode: 0o755 });
    writeFileSync(path.join(root, 'native', 'bin', 'initdb'), '#!/bin/sh\n', { mode: 0o755 });
    writeFileSync(path.join(root, 'native', 'lib', 'libpq.so.5.17'), 'library');
    symlinkSync('libpq.so.5.17', path.join(root, 'native', 'lib', 'libpq.so.5'));
    const binaries = {
      root,
      bin: path.join(root, 'native', 'bin'),
      postgres: path.join(root, 'native', 'bin', 'postgres'),
      initdb: path.join(root, 'native', 'bin', 'initdb'),
    };
    const logs: string[] = [];
    const account = clusterAccount(() => {});
    const staged = reachableBinaries(binaries, account, (line) => logs.push(line));
    dirs.push(staged.root);
    expect(staged.root.startsWith(closed)).toBe(false);
    expect(readFileSync(staged.postgres, 'utf8')).toContain(closed);
    expect(statSync(staged.postgres).mode & 0o755).toBe(0o755);
    expect(readlinkSync(path.join(staged.root, 'native', 'lib', 'libpq.so.5'))).toBe('libpq.so.5.17');
    expect(statSync(staged.root).uid).toBe(0);
    expect(logs).toHaveLength(1);
    // Made once: the next start uses the same copy.
    expect(reachableBinaries(binaries, account, (line) => logs.push(line))).toEqual(staged);
    expect(logs).toHaveLength(1);
    // A copy others may write is not trusted: it is made again.
    chmodSync(staged.root, 0o777);
    expect(reachableBinaries(binaries, account, (line) => logs.push(line))).toEqual(staged);
    expect(logs).toHaveLength(2);
    expect(lstatSync(staged.root).mode & 0o022).toBe(0);
    // Binaries the system user can reach are used where they are.
    const open = { ...binaries };
    chmodSync(closed, 0o755);
    expect(reachableBinaries(open, account, () => {})).toEqual(open);
  });

  it.runIf(isRoot)('refuses a DATA_DIR the system user cannot reach, naming the folder', async () => {
    const closed = dataDir();
    chmodSync(closed, 0o700);
    const error = await startEmbeddedPostgres({ dataDir: path.join(closed, 'data') }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toContain(`${closed} is closed to other users`);
    expect(existsSync(path.join(closed, 'data', 'postgres'))).toBe(false);
  });

  it('lets one process own a DATA_DIR: a second start is refused with the owner named, a tool joins it', async () => {
    const dir = dataDir();
    const cluster = await started({ dataDir: dir });
    const refused = await startEmbeddedPostgres({ dataDir: dir }).catch((caught: unknown) => caught);
    expect(refused).toBeInstanceOf(DataDirInUseError);
    expect((refused as Error).message).toContain(`pid ${process.pid}`);
    const joined = await startEmbeddedPostgres({ dataDir: dir, shareWithOwner: true, database: 'other' });
    expect(joined.owned).toBe(false);
    const database = await openDatabase({ kind: 'postgres', url: joined.url, poolSize: 1 });
    expect(await database.db.execute('select current_database() as name' as never)).toEqual([{ name: 'other' }]);
    await database.close();
    await joined.stop(); // a no-op: the owner's cluster runs on
    const again = await openDatabase({ kind: 'postgres', url: cluster.url, poolSize: 1 });
    expect(await again.db.execute('select 1 as one' as never)).toEqual([{ one: 1 }]);
    await again.close();
  });

  it('stops a postmaster left running with other settings and starts its own', async () => {
    const dir = dataDir();
    const first = await startEmbeddedPostgres({ dataDir: dir, fsync: false });
    // Its Deskbook is gone: the lock names a process that no longer runs.
    const gone = spawn('true');
    await new Promise((resolve) => gone.once('exit', resolve));
    const lockFile = path.join(dir, 'deskbook.lock');
    writeFileSync(lockFile, JSON.stringify({ ...JSON.parse(readFileSync(lockFile, 'utf8')), pid: gone.pid, startTicks: '1' }));
    const logs: string[] = [];
    const second = await started({ dataDir: dir, fsync: true, log: (line) => logs.push(line) });
    expect(logs.join('\n')).toContain(`stopping the embedded PostgreSQL (pid ${first.pid}`);
    expect(second.pid).not.toBe(first.pid);
    expect(postmastersOf(dir)).toEqual([second.pid]);
  });

  it('refuses a DATA_DIR holding an old PGlite database, changing nothing', async () => {
    const dir = dataDir();
    mkdirSync(path.join(dir, 'pgdata'));
    writeFileSync(path.join(dir, 'pgdata', 'PG_VERSION'), '17\n');
    const error = await startEmbeddedPostgres({ dataDir: dir }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(LegacyDataDirError);
    expect((error as Error).message).toContain('npm run db:convert-pglite');
    expect(readdirSync(dir)).toEqual(['pgdata']);
  });

  it('starts after a crash whose postmaster.pid names a process that is not a postgres (recycled id), leaving that process alone', async () => {
    const dir = dataDir();
    // Durable, as the service runs it (without, a crash may lose the last commits: synchronous_commit off).
    const cluster = await started({ dataDir: dir, database: 'deskbook', fsync: true });
    const database = await openDatabase({ kind: 'postgres', url: cluster.url, poolSize: 1 });
    await database.db.execute('create table kept (n int); insert into kept values (42)' as never);
    await database.close();
    const clusterUid = uidOf(cluster.pid);
    // A machine crash: the postmaster dies without a word (SIGKILL leaves postmaster.pid behind).
    process.kill(cluster.pid, 'SIGKILL');
    while (postmastersOf(dir).length > 0 || backendsOf(dir).length > 0) await new Promise((resolve) => setTimeout(resolve, 20));
    const pidFile = path.join(dir, 'postgres', 'data', 'postmaster.pid');
    // …and so did the Deskbook process that owned DATA_DIR: its lock names a process that is gone.
    const gone = spawn('true');
    await new Promise((resolve) => gone.once('exit', resolve));
    const lockFile = path.join(dir, 'deskbook.lock');
    writeFileSync(lockFile, JSON.stringify({ ...JSON.parse(readFileSync(lockFile, 'utf8')), pid: gone.pid, startTicks: '1' }));
    const bystander = spawn('sleep', ['30'], { stdio: 'ignore' });
    const lines = readFileSync(pidFile, 'utf8').split('\n');
    lines[0] = String(bystander.pid);
    writeFileSync(pidFile, lines.join('\n'));
    if (isRoot) chownSync(pidFile, clusterUid, clusterUid);
    const logs: string[] = [];
    const again = await started({ dataDir: dir, database: 'deskbook', fsync: true, log: (line) => logs.push(line) });
    expect(logs.join('\n')).toContain('removing a stale postmaster.pid');
    expect(bystander.exitCode).toBeNull();
    bystander.kill();
    const after = await openDatabase({ kind: 'postgres', url: again.url, poolSize: 1 });
    expect(await after.db.execute('select n from kept' as never)).toEqual([{ n: 42 }]);
    await after.close();
  });
});

describe('a Deskbook server on the embedded PostgreSQL', () => {
  it('refuses a second server on the same DATA_DIR with a sentence naming the first, and stops its cluster on SIGTERM', async () => {
    const dir = dataDir();
    const { server: first } = await startOn(dir);
    const second = startServer({ DATA_DIR: dir, LOG_LEVEL: 'info' }, await freePort());
    const exit = await second.exited;
    expect(exit.code).toBe(1);
    expect(second.stderr()).toContain(`in use by another Deskbook process (pid ${first.child.pid}`);
    expect(second.stderr()).not.toMatch(/\n\s+at /); // no stack trace
    const health = await call(first, 'GET', '/api/health/ready');
    expect(health.status).toBe(200);

    first.child.kill('SIGTERM');
    expect((await first.exited).code).toBe(0);
    expect(postmastersOf(dir)).toEqual([]);
    expect(existsSync(path.join(dir, 'deskbook.lock'))).toBe(false);
    expect(first.stdout()).toContain('stopping the embedded PostgreSQL');
  });

  it('lets `npm run seed` (even with --reset) fill the running server’s database through its socket, never a second cluster', async () => {
    const dir = dataDir();
    const { server } = await startOn(dir);
    const seed = (...args: string[]) =>
      new Promise<{ code: number | null; output: string }>((resolve) => {
        const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/seed.ts', '--profile', 'small', ...args], {
          env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dir, ...TEST_ONLY_ENV },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let output = '';
        child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
        child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
        child.once('exit', (code) => resolve({ code, output }));
      });
    const first = await seed();
    expect(first.code, first.output).toBe(0);
    expect(first.output).toContain(`run by the Deskbook process ${server.child.pid}`);
    expect(postmastersOf(dir)).toHaveLength(1);
    const login = await call(server, 'POST', '/api/auth/login', { body: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD } });
    const token = ((await login.json()) as { accessToken: string }).accessToken;
    const departments = async () =>
      ((await (await call(server, 'GET', '/api/departments?size=100', { token })).json()) as { totalElements: number }).totalElements;
    expect(await departments()).toBe(5);
    const again = await seed('--reset');
    expect(again.code, again.output).toBe(0);
    expect(await departments()).toBe(5);
    expect((await call(server, 'GET', '/api/health/ready')).status).toBe(200);
  }, 180_000);

  it('loses no acknowledged booking across five SIGKILLs under load, finds the orphaned postmaster each time, and leaves none behind', async () => {
    const dir = dataDir();
    let { server } = await startOn(dir);
    const { token: firstToken, deskId } = await adminWithDesk(server);
    let token = firstToken;
    const acknowledged: string[] = [];
    const restarts: number[] = [];
    let next = 0;
    for (let cycle = 0; cycle < 5; cycle++) {
      const t0 = Date.now();
      const outcomes: Outcome[] = [];
      let killed = false;
      const current = server;
      const workers = Array.from({ length: 4 }, async () => {
        while (!killed) {
          const n = next++;
          outcomes.push(await timed(t0, 'book', () => call(current, 'POST', '/api/reservation', { token, body: slot(deskId, n) })));
        }
      });
      // Kill once this cycle has had some bookings answered: waits on the work, not a clock.
      while (outcomes.filter((o) => o.status === 200).length < 10) await new Promise((resolve) => setTimeout(resolve, 20));
      const postmaster = postmastersOf(dir);
      expect(postmaster).toHaveLength(1);
      current.child.kill('SIGKILL');
      await current.exited;
      killed = true;
      await Promise.all(workers);
      expect(outcomes.filter((o) => o.status !== 200 && o.status !== 0)).toEqual([]);
      acknowledged.push(...outcomes.filter((o) => o.status === 200).map((o) => o.id!));
      // The postmaster outlived Deskbook (re-parented); the next start must deal with it.
      expect(postmastersOf(dir)).toEqual(postmaster);

      const restarted = await startOn(dir);
      server = restarted.server;
      restarts.push(Math.round(restarted.readyMs));
      // Started with the same settings: taken over as it runs.
      expect(server.stdout()).toContain(`taking over the embedded PostgreSQL (pid ${postmaster[0]}, parent 1)`);
      expect(postmastersOf(dir)).toEqual(postmaster);
      const login = await call(server, 'POST', '/api/auth/login', { body: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD } });
      token = ((await login.json()) as { accessToken: string }).accessToken;
    }
    console.log(`embedded restarts after SIGKILL (tsx, from source): ${restarts.join(', ')} ms; ${acknowledged.length} acknowledged bookings`);
    const stored = new Set<string>();
    for (let page = 0; ; page++) {
      const response = await call(server, 'GET', `/api/reservation?deskId=${deskId}&size=1000&page=${page}`, { token });
      const body = (await response.json()) as { content: { id: string }[]; last: boolean };
      for (const item of body.content) stored.add(item.id);
      if (body.last) break;
    }
    expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);
    server.child.kill('SIGTERM');
    expect((await server.exited).code).toBe(0);
    expect(postmastersOf(dir)).toEqual([]);
  }, 180_000);
});
