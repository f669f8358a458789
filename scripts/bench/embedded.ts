/**
 * The embedded PostgreSQL's start, memory and crash figures (docs/benchmarks.md#the-embedded-postgresql):
 * the built server as `npm start` runs it, with DATABASE_URL unset, on a new DATA_DIR:
 * - first start on an empty DATA_DIR (initdb, migrations, first admin) until readiness;
 * - idle memory after start: the server's RSS and the PSS of all the PostgreSQL processes;
 * - a restart on the existing DATA_DIR after a clean stop;
 * - SIGKILL under booking load, `--kills` times: each restart's time to readiness (it finds and
 *   stops the orphaned postmaster first), acknowledged bookings lost, postmasters left at the end.
 *
 *   npm run build && npx tsx scripts/bench/embedded.ts [--kills 5] [--idle 5] [--source]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { freePort, memoryOf, postmastersOf, pssOfDescendants, serverArguments } from './processes.js';

const { values } = parseArgs({
  options: { kills: { type: 'string', default: '5' }, idle: { type: 'string', default: '5' }, source: { type: 'boolean', default: false } },
});
const kills = Number(values.kills);
const idleSeconds = Number(values.idle);
// As root, the server lets the cluster's system user through this 0700 folder (docs/deployment.md#the-embedded-postgresql).
const dataDir = mkdtempSync(path.join(tmpdir(), 'deskbook-embedded-bench-'));
const ADMIN_EMAIL = 'bench-admin@example.test';
const ADMIN_PASSWORD = 'bench-admin-password-1';
const MB = 1024 * 1024;

interface Running {
  child: ChildProcess;
  base: string;
  exited: Promise<number | null>;
}

async function start(): Promise<{ server: Running; readyMs: number }> {
  const port = await freePort();
  const began = performance.now();
  const child = spawn(process.execPath, serverArguments(values.source), {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'production',
      MALLOC_ARENA_MAX: '2',
      DATA_DIR: dataDir,
      PORT: String(port),
      LOG_LEVEL: 'warn',
      ADMIN_EMAIL,
      ADMIN_PASSWORD,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const server = { child, base: `http://127.0.0.1:${port}`, exited };
  let done = false;
  void exited.then(() => (done = true));
  for (;;) {
    if (done) throw new Error('the server exited while starting');
    try {
      if ((await fetch(`${server.base}/api/health/ready`)).ok) return { server, readyMs: performance.now() - began };
    } catch {
      // not listening yet
    }
    await sleep(10);
  }
}

const postmasters = () => postmastersOf(dataDir);

async function json<T>(response: Response): Promise<T> {
  if (!response.ok) throw new Error(`${response.url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

async function post<T>(server: Running, url: string, token: string | undefined, body: unknown): Promise<T> {
  return json<T>(
    await fetch(`${server.base}${url}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    }),
  );
}

const signIn = async (server: Running) =>
  (await post<{ accessToken: string }>(server, '/api/auth/login', undefined, { email: ADMIN_EMAIL, password: ADMIN_PASSWORD })).accessToken;

try {
  const first = await start();
  console.log(`first start on an empty DATA_DIR: ready in ${Math.round(first.readyMs)} ms`);
  await sleep(idleSeconds * 1000);
  const serverRss = memoryOf(first.server.child.pid!, 'VmRSS');
  if (serverRss === undefined) throw new Error('the server has no VmRSS in /proc (this bench runs on Linux)');
  const databasePss = pssOfDescendants(first.server.child.pid!);
  console.log(
    `idle after start (${idleSeconds} s): server RSS ${(serverRss / MB).toFixed(1)} MB, PostgreSQL PSS ${(databasePss / MB).toFixed(1)} MB, together ${((serverRss + databasePss) / MB).toFixed(1)} MB`,
  );
  first.server.child.kill('SIGTERM');
  console.log(`clean stop: exit code ${await first.server.exited}, postmasters left: ${postmasters().length}`);

  let { server, readyMs } = await start();
  console.log(`start on the existing DATA_DIR: ready in ${Math.round(readyMs)} ms`);
  let token = await signIn(server);
  const department = await post<{ id: string }>(server, '/api/departments', token, { location: 'Bench', building: 'E', floor: 1 });
  const room = await post<{ id: string }>(server, `/api/departments/${department.id}/rooms`, token, { name: 'Kill' });
  const desk = await post<{ id: string }>(server, `/api/departments/${department.id}/rooms/${room.id}/desks`, token, { name: 'K-01' });
  const acknowledged: string[] = [];
  const restarts: number[] = [];
  let next = 0;
  const slot = (n: number) => ({
    deskId: desk.id,
    startTime: new Date(Date.UTC(2032, 0, 5) + n * 900_000).toISOString(),
    endTime: new Date(Date.UTC(2032, 0, 5) + (n + 1) * 900_000).toISOString(),
  });
  for (let cycle = 0; cycle < kills; cycle++) {
    let killed = false;
    let answered = 0;
    const current = server;
    const workers = Array.from({ length: 8 }, async () => {
      while (!killed) {
        try {
          const response = await fetch(`${current.base}/api/reservation`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
            body: JSON.stringify(slot(next++)),
          });
          const body = (await response.json()) as { id?: string };
          if (response.status === 200) {
            acknowledged.push(body.id!);
            answered++;
          } else throw new Error(`booking answered ${response.status}`);
        } catch (error) {
          if (!killed && !(error instanceof TypeError)) throw error;
        }
      }
    });
    while (answered < 50) await sleep(5);
    current.child.kill('SIGKILL');
    await current.exited;
    killed = true;
    await Promise.all(workers);
    ({ server, readyMs } = await start());
    restarts.push(Math.round(readyMs));
    token = await signIn(server);
  }
  const stored = new Set<string>();
  for (let page = 0; ; page++) {
    const body = await json<{ content: { id: string }[]; last: boolean }>(
      await fetch(`${server.base}/api/reservation?deskId=${desk.id}&size=1000&page=${page}`, { headers: { authorization: `Bearer ${token}` } }),
    );
    for (const item of body.content) stored.add(item.id);
    if (body.last) break;
  }
  const lost = acknowledged.filter((id) => !stored.has(id)).length;
  server.child.kill('SIGTERM');
  await server.exited;
  console.log(
    `${kills} SIGKILLs under booking load: restarts ready in ${restarts.join(', ')} ms; ${acknowledged.length} bookings acknowledged, ${lost} lost; postmasters left after the last stop: ${postmasters().length}`,
  );
} finally {
  for (const pid of postmasters()) process.kill(pid, 'SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
}
