import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import type { TestProject } from 'vitest/node';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { openDatabase, PGLITE_EXTENSIONS, type Database } from '../../src/db/client.js';
import * as schema from '../../src/db/schema.js';
import { migrate } from '../../src/db/migrate.js';

/**
 * Global setup of every vitest project: the committed migrations applied once, into a template
 * every test database starts as a copy of (README.md#tests). Applying all migrations
 * cost each test app about 0.9 s on PostgreSQL and 0.3 s on PGlite; a copy costs a fraction, and
 * the app's own migrate() then finds nothing left to apply. The migrations themselves stay tested
 * from an empty database in test/db/migrate.test.ts.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // The project's `env` (vitest.config.ts) reaches its test workers, not this process.
  if (project.config.env?.TEST_DB === 'postgres') {
    const adminUrl = process.env.TEST_DATABASE_URL;
    if (!adminUrl) throw new Error('TEST_DATABASE_URL is not set');
    const name = `deskbook_template_${process.pid}_${randomBytes(4).toString('hex')}`;
    const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database "${name}"`);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    const handle = await openDatabase({ kind: 'postgres', url: url.toString(), poolSize: 1 });
    try {
      await migrate(handle.db);
    } finally {
      // CREATE DATABASE … TEMPLATE refuses a template anyone is connected to.
      await handle.close();
    }
    project.provide('templateDatabase', name);
    return async () => {
      await admin.unsafe(`drop database if exists "${name}" with (force)`);
      await admin.end();
    };
  }
  const client = new PGlite('memory://', { extensions: PGLITE_EXTENSIONS });
  const dir = mkdtempSync(path.join(tmpdir(), 'deskbook-template-'));
  const file = path.join(dir, 'pglite.tar');
  try {
    await migrate(drizzle(client, { schema }) as unknown as Database);
    const dump = await client.dumpDataDir('none');
    writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  } finally {
    await client.close();
  }
  project.provide('templateDataDir', file);
  return async () => rmSync(dir, { recursive: true, force: true });
}
