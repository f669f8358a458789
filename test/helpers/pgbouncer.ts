import { spawn, type ChildProcess } from 'node:child_process';
import { chownSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { serverAddress, throughLocalPort } from './database-url.js';
import { freePort } from './slapd.js';

/**
 * Debian's PgBouncer (1.18) in transaction mode in front of a PostgreSQL server, on its own port
 * and temporary directory (docs/deployment.md#through-pgbouncer-in-transaction-mode). auth_type
 * `any`: every client is let in and connects as the server URL's user. PgBouncer refuses to run as
 * root, so as root it runs as the postgres user.
 */

export const PGBOUNCER = '/usr/sbin/pgbouncer';
export const pgbouncerInstalled = (): boolean => existsSync(PGBOUNCER);

export interface PgBouncer {
  port: number;
  /** `url` (a postgres:// URL of the server) rewritten to go through PgBouncer. */
  through(url: string): string;
  log(): string;
  stop(): Promise<void>;
}

export async function startPgBouncer(serverUrl: string, options: { poolSize: number; maxClients?: number }): Promise<PgBouncer> {
  const server = serverAddress(serverUrl);
  const dir = mkdtempSync(path.join(tmpdir(), 'deskbook-pgbouncer-'));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) chownSync(dir, Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim()), -1);
  const port = await freePort();
  const password = server.password ? ` password=${server.password}` : '';
  writeFileSync(
    path.join(dir, 'pgbouncer.ini'),
    [
      '[databases]',
      // host: a name, an address or a Unix socket directory (the embedded test PostgreSQL's).
      `* = host=${server.host} port=${server.port} user=${server.user}${password}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = any',
      'pool_mode = transaction',
      `default_pool_size = ${options.poolSize}`,
      'min_pool_size = 0',
      'reserve_pool_size = 0',
      `max_client_conn = ${options.maxClients ?? 500}`,
      // postgres.js sends none of these; other clients (psql, pg_dump) may.
      'ignore_startup_parameters = extra_float_digits,options',
      'server_reset_query =',
      `logfile = ${path.join(dir, 'pgbouncer.log')}`,
      `pidfile = ${path.join(dir, 'pgbouncer.pid')}`,
      '',
    ].join('\n'),
  );
  if (asRoot) chownSync(path.join(dir, 'pgbouncer.ini'), Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim()), -1);
  const args = [PGBOUNCER, path.join(dir, 'pgbouncer.ini')];
  const child: ChildProcess = asRoot
    ? spawn('runuser', ['-u', 'postgres', '--', ...args], { stdio: 'ignore' })
    : spawn(args[0]!, args.slice(1), { stdio: 'ignore' });
  let exited = false;
  child.once('exit', () => (exited = true));
  const log = () => {
    try {
      return readFileSync(path.join(dir, 'pgbouncer.log'), 'utf8');
    } catch {
      return '';
    }
  };
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (exited) throw new Error(`pgbouncer exited at start:\n${log()}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => (socket.end(), resolve(true)));
      socket.once('error', () => resolve(false));
    });
    if (open) break;
    if (Date.now() > deadline) throw new Error(`pgbouncer did not listen within 10 s:\n${log()}`);
    await sleep(50);
  }
  return {
    port,
    through: (url: string) => throughLocalPort(url, port),
    log,
    async stop() {
      if (!exited) {
        // runuser passes SIGTERM on to pgbouncer (which then exits at once).
        child.kill('SIGTERM');
        await Promise.race([new Promise((resolve) => child.once('exit', resolve)), sleep(5000)]);
        if (!exited) child.kill('SIGKILL');
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
