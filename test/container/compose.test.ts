import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { configurationTable, loadConfig } from '../../src/config.js';
import { projectPath } from '../../src/shared/paths.js';

/**
 * The compose files and the Containerfile agree with each other and with the service's settings
 * (docs/deployment.md#container-image). Building and running the image is
 * scripts/container/test.sh (podman, root), which .ci/run runs.
 */

type Service = {
  build?: string;
  image?: string;
  ports?: string[];
  volumes?: string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
};
type Compose = { services: Record<string, Service>; volumes?: Record<string, unknown> };

const read = (file: string) => readFileSync(projectPath(file), 'utf8');
const compose = (file: string) => parse(read(file)) as Compose;

/** Compose's merge of several files: maps merge member by member, anything else is replaced. */
function merge(base: unknown, override: unknown): unknown {
  if (typeof base !== 'object' || base === null || Array.isArray(base)) return override;
  if (typeof override !== 'object' || override === null || Array.isArray(override)) return override;
  const merged: Record<string, unknown> = { ...(base as Record<string, unknown>) };
  for (const [key, value] of Object.entries(override)) merged[key] = key in merged ? merge(merged[key], value) : value;
  return merged;
}

/** Compose's interpolation: ${NAME}, ${NAME:-default} and ${NAME:?error}. */
function interpolate(value: string, env: Record<string, string>): string {
  return value.replace(/\$\{([A-Z_][A-Z0-9_]*)(?::([-?])([^}]*))?\}/g, (_, name: string, kind?: string, word?: string) => {
    const given = env[name];
    if (given !== undefined && given !== '') return given;
    if (kind === '?') throw new Error(`${name}: ${word}`);
    return kind === '-' ? (word ?? '') : '';
  });
}

function environmentOf(service: Service, env: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(service.environment ?? {}).map(([key, value]) => [key, interpolate(String(value), env)]));
}

/** The Containerfile's instructions of the last stage (the image), continuation lines joined. */
function runtimeStage(): string[] {
  const lines = read('Containerfile')
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
  const from = lines.findLastIndex((line) => line.startsWith('FROM '));
  return lines.slice(from);
}
const instruction = (name: string) => runtimeStage().find((line) => line.startsWith(`${name} `));
const imageEnv = () =>
  Object.fromEntries(
    runtimeStage()
      .flatMap((line) => (line.startsWith('ENV ') ? [...line.slice(4).matchAll(/(\w+)=(\S+)/g)] : []))
      .map((m) => [m[1], m[2]]),
  );

const documentedKeys = new Set([...configurationTable().matchAll(/^\| `([A-Z0-9_]+)`/gm)].map((match) => match[1]));

describe('the Containerfile', () => {
  it('builds on an official Node 24 image by default, and the base is a build argument', () => {
    expect(read('Containerfile')).toMatch(/^ARG BASE_IMAGE=docker\.io\/library\/node:24-[a-z]+-slim$/m);
    const froms = read('Containerfile').match(/^FROM .*/gm) ?? [];
    expect(froms.length).toBeGreaterThanOrEqual(2);
    for (const from of froms) expect(from).toMatch(/^FROM \$\{BASE_IMAGE\}( AS \w+)?$/);
  });

  it('runs as an unprivileged user, keeps DATA_DIR on a volume and listens on every interface of the container', () => {
    const user = instruction('USER')?.slice(5);
    expect(user).toBeTruthy();
    expect(user).not.toMatch(/^(root|0)(:|$)/);
    expect(imageEnv()).toMatchObject({ DATA_DIR: '/data', HOST: '0.0.0.0', PORT: '8080', NODE_ENV: 'production' });
    expect(instruction('VOLUME')).toBe('VOLUME ["/data"]');
    expect(instruction('EXPOSE')).toBe('EXPOSE 8080');
    // Every value the image sets is a valid setting.
    expect(() => loadConfig(imageEnv())).not.toThrow();
  });

  it('checks readiness, an operation of the API', () => {
    const healthcheck = instruction('HEALTHCHECK');
    expect(healthcheck).toContain("'/api/health/ready'");
    const openapi = JSON.parse(read('docs/openapi.json')) as { paths: Record<string, unknown> };
    expect(Object.keys(openapi.paths)).toContain('/api/health/ready');
  });

  it('sends no dependencies, builds, data or local Node as the build context (for podman and docker alike)', () => {
    const ignored = read('.containerignore');
    expect(read('.dockerignore')).toBe(ignored);
    const patterns = ignored.split('\n').filter((line) => line && !line.startsWith('#'));
    expect(patterns).toEqual(expect.arrayContaining(['**/node_modules', 'dist', 'data', '.node', '.git']));
  });
});

describe('compose.yaml (the image alone, embedded database on a volume)', () => {
  const file = compose('compose.yaml');
  const deskbook = file.services.deskbook!;

  it('builds this Containerfile and keeps /data on a named volume', () => {
    expect(deskbook.build).toBe('.');
    expect(deskbook.volumes).toEqual([`deskbook-data:${imageEnv().DATA_DIR}`]);
    expect(Object.keys(file.volumes ?? {})).toContain('deskbook-data');
  });

  it('publishes the port on loopback only, for a proxy on the same machine', () => {
    expect(deskbook.ports).toEqual([`127.0.0.1:8080:${imageEnv().PORT}`]);
  });

  it('passes only documented settings, valid with and without the values a proxy in front needs', () => {
    for (const key of Object.keys(deskbook.environment ?? {})) expect(documentedKeys, key).toContain(key);
    expect(Object.keys(deskbook.environment ?? {})).toEqual(expect.arrayContaining(['PUBLIC_URL', 'TRUST_PROXY']));
    const bare = loadConfig({ ...imageEnv(), ...environmentOf(deskbook, {}) });
    expect(bare.TRUST_PROXY).toBe(false);
    expect(bare.DATABASE_URL).toBeUndefined();
    const proxied = loadConfig({
      ...imageEnv(),
      ...environmentOf(deskbook, {
        PUBLIC_URL: 'https://desk.example.org',
        TRUST_PROXY: '1',
        ADMIN_EMAIL: 'you@example.org',
        ADMIN_PASSWORD: 'a long passphrase',
      }),
    });
    expect(proxied).toMatchObject({ PUBLIC_URL: 'https://desk.example.org', TRUST_PROXY: 1, ADMIN_EMAIL: 'you@example.org' });
  });
});

describe('compose.postgres.yaml (the image with a PostgreSQL service)', () => {
  const merged = merge(compose('compose.yaml'), compose('compose.postgres.yaml')) as Compose;
  const deskbook = merged.services.deskbook!;
  const db = merged.services.db!;

  it('points DATABASE_URL at the db service, which it waits for until healthy', () => {
    const env = environmentOf(deskbook, { POSTGRES_PASSWORD: 'secret-1' });
    const dbEnv = environmentOf(db, { POSTGRES_PASSWORD: 'secret-1' });
    const url = new URL(loadConfig({ ...imageEnv(), ...env }).DATABASE_URL!);
    expect(url.hostname).toBe('db');
    expect(decodeURIComponent(url.username)).toBe(dbEnv.POSTGRES_USER);
    expect(decodeURIComponent(url.password)).toBe(dbEnv.POSTGRES_PASSWORD);
    expect(url.pathname).toBe(`/${dbEnv.POSTGRES_DB}`);
    expect(deskbook.depends_on).toEqual({ db: { condition: 'service_healthy' } });
    expect(db.healthcheck?.test).toContain('pg_isready');
  });

  it('keeps the embedded variant’s settings and refuses to start without a database password', () => {
    expect(Object.keys(deskbook.environment ?? {})).toEqual(expect.arrayContaining(['PUBLIC_URL', 'TRUST_PROXY', 'DATABASE_URL']));
    expect(() => environmentOf(deskbook, {})).toThrow(/POSTGRES_PASSWORD/);
    expect(db.image).toMatch(/postgres:17/);
    expect(db.volumes).toEqual(['postgres-data:/var/lib/postgresql/data']);
  });
});
