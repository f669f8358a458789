import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, queryRows, type Database, type DatabaseHandle } from '../../src/db/client.js';
import { MigrationError, migrate } from '../../src/db/migrate.js';
import { createPostgresDatabase, createTestDatabase, type TestDatabase } from '../helpers/database.js';

const MIGRATIONS = fileURLToPath(new URL('../../migrations', import.meta.url));

interface JournalEntry {
  idx: number;
  when: number;
  tag: string;
}
const journal = JSON.parse(readFileSync(path.join(MIGRATIONS, 'meta', '_journal.json'), 'utf8')) as { entries: JournalEntry[] };
const migrationCount = journal.entries.length;

async function publicTables(db: Database): Promise<string[]> {
  const rows = await queryRows<{ table_name: string }>(
    db,
    sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
  );
  return rows.map((row) => row.table_name);
}

async function bookkeeping(db: Database): Promise<{ hash: string; created_at: string | number }[]> {
  return queryRows(db, sql`select hash, created_at from drizzle.__drizzle_migrations order by id`);
}

/** A copy of the committed migrations folder in a temp dir, to edit or extend. */
function copyMigrations(temps: string[]): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'deskbook-migrations-'));
  temps.push(dir);
  cpSync(MIGRATIONS, dir, { recursive: true });
  return dir;
}

describe('migrate() on a fresh database', () => {
  let database: TestDatabase;
  const temps: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase({ empty: true });
  });
  afterAll(async () => {
    await database?.dispose();
    for (const dir of temps) rmSync(dir, { recursive: true, force: true });
  });

  it('has at least one migration in the journal', () => {
    expect(migrationCount).toBeGreaterThan(0);
  });

  it('gives every migration its own time and its own number: the time is what marks it applied', () => {
    // migrate() knows an applied migration by its journal time (created_at); two with one time
    // would make the second look applied, then edited (docs/architecture.md#migrations).
    const whens = journal.entries.map((entry) => entry.when);
    expect(new Set(whens).size).toBe(whens.length);
    const numbers = journal.entries.map((entry) => entry.tag.slice(0, 4));
    expect(new Set(numbers).size).toBe(numbers.length);
    for (const entry of journal.entries) expect(entry.tag.slice(0, 4)).toBe(String(entry.idx).padStart(4, '0'));
  });

  it('applies every migration of the journal to a fresh database and creates the tables', async () => {
    const { db } = database.handle;
    expect(await publicTables(db)).toEqual([]);
    await expect(migrate(db)).resolves.toBe(migrationCount);
    const tables = await publicTables(db);
    for (const table of ['users', 'sessions', 'login_throttle', 'server_settings']) expect(tables).toContain(table);
    const rows = await bookkeeping(db);
    expect(rows).toHaveLength(migrationCount);
    expect(rows.map((row) => Number(row.created_at))).toEqual(journal.entries.map((entry) => entry.when));
  });

  it('applies nothing when run again', async () => {
    const { db } = database.handle;
    await expect(migrate(db)).resolves.toBe(0);
    await expect(migrate(db)).resolves.toBe(0);
    expect(await bookkeeping(db)).toHaveLength(migrationCount);
  });

  it('refuses with MigrationError when an applied migration was edited afterwards, changing nothing', async () => {
    const { db } = database.handle;
    const dir = copyMigrations(temps);
    const first = journal.entries[0]!;
    appendFileSync(path.join(dir, `${first.tag}.sql`), '\n--> statement-breakpoint\nCREATE TABLE "edited_after_apply" ("id" integer);\n');
    const before = await bookkeeping(db);
    const outcome = await migrate(db, dir).then(
      (applied) => ({ applied }),
      (error: unknown) => ({ error }),
    );
    expect('error' in outcome && outcome.error).toBeInstanceOf(MigrationError);
    expect(await publicTables(db)).not.toContain('edited_after_apply');
    expect(await bookkeeping(db)).toEqual(before);
    // The unedited migrations are still accepted afterwards.
    await expect(migrate(db)).resolves.toBe(0);
  });

  it('applies only a newly added migration', async () => {
    const { db } = database.handle;
    const dir = copyMigrations(temps);
    const last = journal.entries[journal.entries.length - 1]!;
    const added: JournalEntry & Record<string, unknown> = {
      idx: last.idx + 1,
      version: '7',
      when: last.when + 1000,
      tag: '9999_test_added',
      breakpoints: true,
    };
    writeFileSync(path.join(dir, 'meta', '_journal.json'), JSON.stringify({ ...journal, entries: [...journal.entries, added] }));
    writeFileSync(
      path.join(dir, `${added.tag}.sql`),
      'CREATE TABLE "added_later" ("id" integer);\n--> statement-breakpoint\nINSERT INTO "added_later" VALUES (1);',
    );
    await expect(migrate(db, dir)).resolves.toBe(1);
    expect(await publicTables(db)).toContain('added_later');
    expect(await bookkeeping(db)).toHaveLength(migrationCount + 1);
    await expect(migrate(db, dir)).resolves.toBe(0);
  });
});

describe('migrate() from two pools at once, as two processes', () => {
  let created: Awaited<ReturnType<typeof createPostgresDatabase>>;
  const handles: DatabaseHandle[] = [];

  beforeAll(async () => {
    created = await createPostgresDatabase({ empty: true });
    for (let i = 0; i < 2; i++) handles.push(await openDatabase({ kind: 'postgres', url: created.url, poolSize: 2 }));
  });
  afterAll(async () => {
    for (const handle of handles) await handle.close();
    await created?.drop();
  });

  it('applies each migration exactly once', async () => {
    const [a, b] = handles as [DatabaseHandle, DatabaseHandle];
    const results = await Promise.all([migrate(a.db), migrate(b.db)]);
    expect(results[0]! + results[1]!).toBe(migrationCount);
    expect(results).toContain(0);
    const rows = await bookkeeping(a.db);
    expect(rows).toHaveLength(migrationCount);
    expect(new Set(rows.map((row) => row.hash)).size).toBe(migrationCount);
    expect(new Set(rows.map((row) => Number(row.created_at)))).toEqual(new Set(journal.entries.map((entry) => entry.when)));
    for (const table of ['users', 'sessions', 'login_throttle', 'server_settings']) expect(await publicTables(b.db)).toContain(table);
  });
});
