import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parentOf } from '../../src/db/process-identity.js';

/** The V8 flags `npm start` runs the server with (package.json's start script; test/scripts/bench.test.ts checks they agree). */
export const NPM_START_NODE_FLAGS = ['--max-old-space-size=192', '--max-semi-space-size=16'];

/** Node's arguments for the server as `npm start` runs it: dist/server.js, or with `source` src/server.ts through tsx. */
export function serverArguments(source: boolean): string[] {
  const root = path.resolve(import.meta.dirname, '../..');
  return source
    ? [...NPM_START_NODE_FLAGS, '--import', 'tsx', path.join(root, 'src', 'server.ts')]
    : [...NPM_START_NODE_FLAGS, path.join(root, 'dist', 'server.js')];
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** A field of /proc/<pid>/status in bytes (VmRSS: now, VmHWM: the peak so far); undefined when the process is gone or off Linux. */
export function memoryOf(pid: number, field: 'VmRSS' | 'VmHWM'): number | undefined {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

export class ServerProcess {
  private exited = false;
  private exitCode: number | null = null;

  private constructor(
    readonly name: string,
    readonly baseUrl: string,
    readonly logFile: string,
    private readonly child: ChildProcess,
  ) {
    child.once('exit', (code) => {
      this.exited = true;
      this.exitCode = code;
    });
  }

  /** Starts `node <args>` with its output appended to `logFile`, and waits until `readyPath` answers 200. */
  static async start(options: {
    name: string;
    args: string[];
    env: NodeJS.ProcessEnv;
    port: number;
    readyPath: string;
    logFile: string;
    timeoutMs?: number;
  }): Promise<ServerProcess> {
    const log = openSync(options.logFile, 'a');
    const child = spawn(process.execPath, options.args, { env: options.env, stdio: ['ignore', log, log] });
    closeSync(log);
    const server = new ServerProcess(options.name, `http://127.0.0.1:${options.port}`, options.logFile, child);
    const deadline = Date.now() + (options.timeoutMs ?? 60_000);
    while (Date.now() < deadline) {
      if (server.exited) throw new Error(`${options.name} exited with code ${server.exitCode} while starting; see ${options.logFile}`);
      try {
        const response = await fetch(`${server.baseUrl}${options.readyPath}`);
        if (response.ok) return server;
      } catch {
        // Not listening yet.
      }
      await sleep(200);
    }
    await server.stop();
    throw new Error(`${options.name} did not answer ${options.readyPath} within ${(options.timeoutMs ?? 60_000) / 1000} s; see ${options.logFile}`);
  }

  get pid(): number {
    return this.child.pid!;
  }

  get running(): boolean {
    return !this.exited;
  }

  /** See memoryOf; undefined once it exited. */
  memory(field: 'VmRSS' | 'VmHWM'): number | undefined {
    return this.exited ? undefined : memoryOf(this.pid, field);
  }

  /** SIGTERM, then SIGKILL if it has not exited after 10 s. */
  async stop(): Promise<void> {
    if (this.exited) return;
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.kill('SIGTERM');
    const killed = sleep(10_000).then(() => {
      if (!this.exited) this.child.kill('SIGKILL');
    });
    await Promise.race([exited, killed]);
    await exited;
  }
}

/** Samples a process's resident memory while the load runs; VmHWM misses nothing, the samples show the working level. */
export class RssSampler {
  private peak = 0;
  private childrenPeak = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly server: ServerProcess,
    intervalMs = 250,
  ) {
    this.timer = setInterval(() => {
      this.peak = Math.max(this.peak, server.memory('VmRSS') ?? 0);
      this.childrenPeak = Math.max(this.childrenPeak, pssOfDescendants(server.pid));
    }, intervalMs);
    this.timer.unref();
  }

  /** The highest sampled VmRSS and the kernel's high-water mark VmHWM, in bytes. */
  finish(): { sampledPeak: number; highWaterMark: number | undefined } {
    clearInterval(this.timer);
    return { sampledPeak: this.peak, highWaterMark: this.server.memory('VmHWM') };
  }

  /** The highest sampled sum of the proportional set sizes (PSS) of the server's descendants: the embedded PostgreSQL's processes. */
  childrenPss(): { sampledPeak: number } {
    return { sampledPeak: this.childrenPeak };
  }
}

/**
 * The process ids of this machine (Linux: /proc) for which `test` holds. A process that exits
 * while it is looked at, or that this user may not inspect, is left out (`test` may throw).
 */
export function processesWhere(test: (pid: number) => boolean): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (test(Number(entry))) found.push(Number(entry));
    } catch {
      // exited meanwhile, or not ours to see
    }
  }
  return found;
}

/**
 * The postmasters of the embedded cluster of `dataDir`: postgres processes with `-D
 * <dataDir>/postgres/data` on their command line whose parent is not one of them. A backend just
 * forked still shows its postmaster's command line until it sets its own title, so under load it
 * would otherwise be counted as a second postmaster.
 */
export function postmastersOf(dataDir: string): number[] {
  const started = processesWhere((pid) => {
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    return cmdline.includes(`${dataDir}/postgres/data`) && cmdline.includes('-D');
  });
  const all = new Set(started);
  return started.filter((pid) => !all.has(parentOf(pid) ?? -1));
}

/**
 * The processes below `pid` (Linux): the embedded PostgreSQL's postmaster and its backends. Their
 * memory is summed as PSS, which shares each shared page among the processes mapping it (RSS would
 * count the shared buffers once per backend).
 */
function descendantsOf(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const child of processesWhere(() => true)) {
    const ppid = parentOf(child);
    if (ppid !== undefined) children.set(ppid, [...(children.get(ppid) ?? []), child]);
  }
  const found: number[] = [];
  const queue = [...(children.get(pid) ?? [])];
  while (queue.length > 0) {
    const next = queue.shift()!;
    found.push(next);
    queue.push(...(children.get(next) ?? []));
  }
  return found;
}

/** Bytes: the summed PSS of the descendants of `pid` (0 off Linux). */
export function pssOfDescendants(pid: number): number {
  let total = 0;
  for (const child of descendantsOf(pid)) {
    try {
      const match = /^Pss:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${child}/smaps_rollup`, 'utf8'));
      if (match) total += Number(match[1]) * 1024;
    } catch {
      // exited meanwhile
    }
  }
  return total;
}

/**
 * A Deskbook server for the side benches (pooler.ts, replica.ts) on a free port: the built one, as
 * `npm start` runs it, or with `source` from src/ through tsx; ready once /api/health/ready answers.
 * Nothing of the caller's environment is inherited but PATH and HOME, and `env`.
 */
export async function startDeskbook(options: { label: string; source: boolean; logDirectory: string; env: Record<string, string> }): Promise<ServerProcess> {
  const port = await freePort();
  return ServerProcess.start({
    name: options.label,
    args: serverArguments(options.source),
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'production',
      MALLOC_ARENA_MAX: '2',
      PORT: String(port),
      HOST: '127.0.0.1',
      ...options.env,
    },
    port,
    readyPath: '/api/health/ready',
    logFile: path.join(options.logDirectory, `${options.label}.log`),
  });
}
