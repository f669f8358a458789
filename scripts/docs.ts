import Fastify from 'fastify';
import deskbook, { serverOptions } from '../src/app.js';
import { configurationTable, loadConfig } from '../src/config.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDatabase, type DatabaseHandle } from '../src/db/client.js';
import { startEmbeddedPostgres } from '../src/db/embedded-postgres.js';
import { catalogue, problemType } from '../src/shared/errors.js';

/** Generated documentation, shared by `npm run docs` (writes it) and test/docs.test.ts (checks it is current). */

export const CONFIG_START = '<!-- config:start -->';
export const CONFIG_END = '<!-- config:end -->';
export const ERRORS_START = '<!-- errors:start -->';
export const ERRORS_END = '<!-- errors:end -->';

export function errorsTable(): string {
  const rows = Object.entries(catalogue).map(
    ([code, entry]) => `| \`${code}\` | ${entry.status} | ${entry.title} | \`${problemType(code as keyof typeof catalogue)}\` |`,
  );
  return ['| code | status | title | type |', '| --- | --- | --- | --- |', ...rows].join('\n');
}

export { configurationTable };

/** Replaces what stands between two markers (markers kept). */
export function replaceBetween(text: string, start: string, end: string, content: string): string {
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from < 0 || to < from) throw new Error(`markers ${start} … ${end} not found`);
  return `${text.slice(0, from + start.length)}\n${content}\n${text.slice(to)}`;
}

/**
 * The OpenAPI document as the service serves it. The service migrates its database as it starts,
 * so it is built on `database` (tests pass theirs) or on a throwaway embedded PostgreSQL.
 */
export async function openApiDocument(given?: DatabaseHandle): Promise<string> {
  if (given) return documentOn(given);
  // As root, startEmbeddedPostgres lets the cluster's system user through this 0700 folder itself.
  const dir = mkdtempSync(path.join(tmpdir(), 'deskbook-docs-'));
  const cluster = await startEmbeddedPostgres({ dataDir: dir, fsync: false });
  const database = await openDatabase({ kind: 'postgres', url: cluster.url, poolSize: 2 });
  try {
    return await documentOn(database);
  } finally {
    await database.close();
    await cluster.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function documentOn(database: DatabaseHandle): Promise<string> {
  const config = loadConfig({ LOG_LEVEL: 'silent', ADMIN_EMAIL: 'docs@example.invalid', ADMIN_PASSWORD: 'docs-password' });
  const app = Fastify(serverOptions(config, false));
  try {
    await app.register(deskbook, { config, database });
    await app.ready();
    return `${JSON.stringify(app.swagger(), null, 2)}\n`;
  } finally {
    await app.close();
  }
}
