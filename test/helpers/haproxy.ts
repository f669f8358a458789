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
  stderr(): string;
  stop(): Promise<void>;
}

export function haproxyConfig(port: number, servers: number[]): string {
  return [
    'global',
    '  maxconn 2000',
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
  writeFileSync(file, haproxyConfig(port, servers));
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
  return {
    port,
    base: `http://127.0.0.1:${port}`,
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
