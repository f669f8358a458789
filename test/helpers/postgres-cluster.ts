import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './slapd.js';

/**
 * A throwaway PostgreSQL cluster of its own (initdb, pg_ctl) that a test may stop and start to
 * play an outage, without touching the shared server. The recipe is .ci/run's: initdb refuses to
 * run as root, so as root every command runs as the postgres user.
 */

const run = promisify(execFile);

function binDir(): string {
  const base = '/usr/lib/postgresql';
  const versions = existsSync(base) ? readdirSync(base).sort((a, b) => Number(b) - Number(a)) : [];
  for (const version of versions) if (existsSync(path.join(base, version, 'bin', 'pg_ctl'))) return path.join(base, version, 'bin');
  throw new Error('PostgreSQL binaries not found under /usr/lib/postgresql (Debian package postgresql)');
}

export interface PostgresCluster {
  /** Admin connection to the cluster's `postgres` database. */
  url: string;
  port: number;
  start(): Promise<void>;
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  /** Stops the cluster (if running) and removes its files. */
  destroy(): Promise<void>;
}

const asRoot = () => process.getuid?.() === 0;
const command = (program: string, args: string[]) => {
  const bin = binDir();
  return asRoot() ? run('runuser', ['-u', 'postgres', '--', path.join(bin, program), ...args]) : run(path.join(bin, program), args);
};

async function clusterDir(): Promise<string> {
  const dir = mkdtempSync(path.join(tmpdir(), 'deskbook-pg-'));
  if (asRoot()) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    chownSync(dir, Number(stdout.trim()), -1);
  }
  return dir;
}

/** A new cluster (initdb). Its defaults (wal_level replica, trust for replication from 127.0.0.1) let startStandby copy it. */
export async function startPostgresCluster(): Promise<PostgresCluster> {
  const dir = await clusterDir();
  const data = path.join(dir, 'data');
  await command('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync']);
  return runCluster(dir, data);
}

/**
 * A streaming replica of `primary` (pg_basebackup -R: a hot standby that follows it), for the
 * read-replica tests (docs/deployment.md#with-a-read-replica).
 */
export async function startStandby(primary: PostgresCluster): Promise<PostgresCluster> {
  const dir = await clusterDir();
  const data = path.join(dir, 'data');
  await command('pg_basebackup', [
    '-h',
    '127.0.0.1',
    '-p',
    String(primary.port),
    '-U',
    'postgres',
    '-D',
    data,
    '-R',
    '-X',
    'stream',
    '-c',
    'fast',
    '--no-sync',
  ]);
  return runCluster(dir, data);
}

async function runCluster(dir: string, data: string): Promise<PostgresCluster> {
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=50`;
  let running = false;
  const cluster: PostgresCluster = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    async start() {
      await command('pg_ctl', ['-D', data, '-l', path.join(dir, 'log'), '-o', options, '-w', '-t', '30', 'start']);
      running = true;
    },
    async stop(mode = 'fast') {
      await command('pg_ctl', ['-D', data, '-m', mode, '-w', '-t', '30', 'stop']);
      running = false;
    },
    async destroy() {
      if (running) await cluster.stop('immediate').catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
  try {
    await cluster.start();
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return cluster;
}
