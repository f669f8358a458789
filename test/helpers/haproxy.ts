import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from './slapd.js';

/**
 * Debian's HAProxy (2.6) in front of server processes, with the configuration of
 * docs/deployment.md#behind-a-load-balancer: round robin, readiness checked on
 * /api/health/ready every 200 ms (down after 2 failures, up after 2 successes), a request whose
 * connection failed or met a closed connection tried again on another server.
 */

export const HAPROXY = '/usr/sbin/haproxy';
export const haproxyInstalled = (): boolean => existsSync(HAPROXY);

export interface HaProxy {
  port: number;
  base: string;
  /** The names (s1, s2, …) of the servers HAProxy's checks hold UP now (from its stats socket). */
  serversUp(): Promise<string[]>;
  /** Resolves once HAProxy holds exactly these servers UP (polled, 10 s at most). */
  waitUp(names: string[], timeoutMs?: number): Promise<void>;
  stderr(): string;
  stop(): Promise<void>;
}

export function haproxyConfig(port: number, servers: number[], statsSocket?: string): string {
  return [
    'global',
    '  maxconn 2000',
    ...(statsSocket ? [`  stats socket ${statsSocket} mode 600 level user`] : []),
    'defaults',
    '  mode http',
    '  timeout connect 2s',
    '  timeout client 30s',
    '  timeout server 30s',
    '  retries 3',
    '  option redispatch',
    '  retry-on conn-failure empty-response',
    'frontend web',
    `  bind 127.0.0.1:${port}`,
    '  default_backend deskbook',
    'backend deskbook',
    '  balance roundrobin',
    '  option httpchk',
    '  http-check send meth GET uri /api/health/ready',
    '  http-check expect status 200',
    '  default-server inter 200ms fall 2 rise 2',
    ...servers.map((server, index) => `  server s${index + 1} 127.0.0.1:${server} check`),
    '',
  ].join('\n');
}

export async function startHaProxy(servers: number[]): Promise<HaProxy> {
  const dir = mkdtempSync(path.join(tmpdir(), 'deskbook-haproxy-'));
  const port = await freePort();
  const file = path.join(dir, 'haproxy.cfg');
  const statsSocket = path.join(dir, 'stats.sock');
  writeFileSync(file, haproxyConfig(port, servers, statsSocket));
  const child: ChildProcess = spawn(HAPROXY, ['-db', '-f', file], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  let exited = false;
  child.once('exit', () => (exited = true));
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (exited) throw new Error(`haproxy exited at start:\n${err}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => (socket.end(), resolve(true)));
      socket.once('error', () => resolve(false));
    });
    if (open) break;
    if (Date.now() > deadline) throw new Error(`haproxy did not listen within 10 s:\n${err}`);
    await sleep(50);
  }
  const serversUp = () =>
    new Promise<string[]>((resolve, reject) => {
      let csv = '';
      const socket = net.connect(statsSocket, () => socket.write('show stat\n'));
      socket.setEncoding('utf8').on('data', (chunk: string) => (csv += chunk));
      socket.once('error', reject);
      socket.once('end', () => {
        const [header, ...rows] = csv.trim().split('\n');
        const columns = (header ?? '').replace(/^# /, '').split(',');
        const [name, status] = [columns.indexOf('svname'), columns.indexOf('status')];
        resolve(
          rows
            .map((row) => row.split(','))
            .filter((cells) => /^s\d+$/.test(cells[name] ?? '') && cells[status] === 'UP')
            .map((cells) => cells[name]!),
        );
      });
    });
  return {
    port,
    base: `http://127.0.0.1:${port}`,
    serversUp,
    async waitUp(names, timeoutMs = 10_000) {
      const until = Date.now() + timeoutMs;
      const wanted = [...names].sort().join(',');
      let up: string[] = [];
      while (Date.now() < until) {
        up = await serversUp().catch(() => []);
        if (up.sort().join(',') === wanted) return;
        await sleep(50);
      }
      throw new Error(`HAProxy holds ${up.join(',') || 'none'} up, not ${wanted}, after ${timeoutMs} ms\n${err}`);
    },
    stderr: () => err,
    async stop() {
      if (!exited) {
        child.kill('SIGTERM');
        await Promise.race([new Promise((resolve) => child.once('exit', resolve)), sleep(5000)]);
        if (!exited) child.kill('SIGKILL');
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
