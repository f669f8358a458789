import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'vitest';
import { TEST_ONLY_ENV } from './test-env.js';
import { freePort } from './slapd.js';

export { freePort };

/**
 * Real server processes for tests: `node --import tsx src/server.ts` with a controlled
 * environment (with the test-only password hashing cost, TEST_ONLY_ENV), talked to over HTTP.
 * Call `killServers()` in afterAll.
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const START_TIMEOUT_MS = 30_000;

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ServerProcess {
  child: ChildProcess;
  port: number;
  base: string;
  stdout(): string;
  stderr(): string;
  /** Parsed JSON lines of stdout (a line that is not JSON fails the test). */
  logLines(): Record<string, unknown>[];
  exited: Promise<Exit>;
  /** Set once the process has exited. */
  exit?: Exit;
}

const children: ServerProcess[] = [];

/** Only what the test sets, plus what node needs to run at all: nothing leaks in from the test runner. */
export function baseEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of ['PATH', 'HOME', 'TMPDIR', 'LANG']) {
    const value = process.env[key];
    if (value !== undefined) env[key] = value;
  }
  return env;
}

export function startServer(env: Record<string, string>, port?: number): ServerProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: ROOT,
    env: { ...baseEnv(), ...TEST_ONLY_ENV, HOST: '127.0.0.1', ...env, ...(port !== undefined ? { PORT: String(port) } : {}) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const server: ServerProcess = {
    child,
    port: port ?? Number(env.PORT),
    base: `http://127.0.0.1:${port ?? env.PORT}`,
    stdout: () => out,
    stderr: () => err,
    logLines: () =>
      out
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => {
          try {
            return JSON.parse(line) as Record<string, unknown>;
          } catch {
            throw new Error(`log line is not JSON: ${line}`);
          }
        }),
    exited: new Promise<Exit>((resolve) => {
      child.once('exit', (code, signal) => {
        server.exit = { code, signal };
        resolve(server.exit);
      });
    }),
  };
  children.push(server);
  return server;
}

/** Polls GET /api/health until it answers 200; fails if the process exits or the time runs out. */
export async function waitHealthy(server: ServerProcess, timeoutMs = START_TIMEOUT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.exit)
      throw new Error(`server exited (${JSON.stringify(server.exit)}) before it was healthy\nstdout:\n${server.stdout()}\nstderr:\n${server.stderr()}`);
    try {
      const response = await fetch(`${server.base}/api/health`, { signal: AbortSignal.timeout(2000) });
      if (response.status === 200) {
        expect(await response.json()).toEqual({ status: 'ok' });
        return;
      }
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error(`server did not become healthy within ${timeoutMs} ms\nstdout:\n${server.stdout()}\nstderr:\n${server.stderr()}`);
}

export async function startHealthy(env: Record<string, string>): Promise<ServerProcess> {
  const server = startServer(env, await freePort());
  await waitHealthy(server);
  return server;
}

/** Sends SIGTERM and waits for the exit (SIGKILL and a failure after `timeoutMs`). */
export async function stopServer(server: ServerProcess, timeoutMs = 15_000): Promise<Exit> {
  if (server.exit) return server.exit;
  server.child.kill('SIGTERM');
  const exit = await Promise.race([server.exited, sleep(timeoutMs).then(() => undefined)]);
  if (exit === undefined) {
    server.child.kill('SIGKILL');
    throw new Error(`server did not exit within ${timeoutMs} ms of SIGTERM\nstdout:\n${server.stdout()}`);
  }
  return exit;
}

/** Kills every server a test file started and has not stopped. */
export async function killServers(): Promise<void> {
  for (const server of children.splice(0)) {
    if (!server.exit) {
      server.child.kill('SIGKILL');
      await Promise.race([server.exited, sleep(5000)]);
    }
  }
}
