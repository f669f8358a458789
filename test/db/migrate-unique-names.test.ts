import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';

/**
 * Migration 0020 (docs/behaviour.md#names-of-rooms-and-desks) on a database that already holds
 * repeated room and desk names: the oldest keeps its name, later ones get " (2)", " (3)", … (the
 * first suffix free), and the unique indexes then exist.
 */

const MIGRATIONS = fileURLToPath(new URL('../../migrations', import.meta.url));
const TAG = '0020_unique_inventory_names';

describe('migration 0020 with repeated names', () => {
  let database: TestDatabase;
  let before: string;

  beforeAll(async () => {
    database = await createTestDatabase({ empty: true });
    // The migrations before 0020: a copy of the folder whose journal stops short of it.
    before = mkdtempSync(path.join(tmpdir(), 'deskbook-migrations-'));
    cpSync(MIGRATIONS, before, { recursive: true });
    const journal = JSON.parse(readFileSync(path.join(MIGRATIONS, 'meta', '_journal.json'), 'utf8')) as { entries: { tag: string }[] };
    const upTo = journal.entries.findIndex((entry) => entry.tag === TAG);
    expect(upTo).toBeGreaterThan(0);
    writeFileSync(path.join(before, 'meta', '_journal.json'), JSON.stringify({ ...journal, entries: journal.entries.slice(0, upTo) }));
  });
  afterAll(async () => {
    await database?.dispose();
    rmSync(before, { recursive: true, force: true });
  });

  it('renames later duplicates with the first free suffix and then refuses new ones', async () => {
    const { db } = database.handle;
    await migrate(db, before);
    const long = 'L'.repeat(200);
    await db.execute(sql`
      insert into departments (id, location, building, floor) values
        ('00000000-0000-4000-8000-000000000001', 'Berlin', 'A', 1),
        ('00000000-0000-4000-8000-000000000002', 'Paris', 'B', 2)`);
    await db.execute(sql`
      insert into rooms (id, department_id, name, created_at) values
        ('00000000-0000-4000-8000-0000000000a1', '00000000-0000-4000-8000-000000000001', 'Atlas', '2026-01-01'),
        ('00000000-0000-4000-8000-0000000000a2', '00000000-0000-4000-8000-000000000001', 'atlas', '2026-01-02'),
        ('00000000-0000-4000-8000-0000000000a3', '00000000-0000-4000-8000-000000000001', 'ATLAS', '2026-01-03'),
        ('00000000-0000-4000-8000-0000000000a4', '00000000-0000-4000-8000-000000000001', 'Atlas (2)', '2025-12-01'),
        ('00000000-0000-4000-8000-0000000000a5', '00000000-0000-4000-8000-000000000002', 'Atlas', '2026-01-01')`);
    await db.execute(sql`
      insert into desks (id, room_id, name, created_at) values
        ('00000000-0000-4000-8000-0000000000d1', '00000000-0000-4000-8000-0000000000a1', 'D1', '2026-01-01'),
        ('00000000-0000-4000-8000-0000000000d2', '00000000-0000-4000-8000-0000000000a1', 'd1', '2026-01-02'),
        ('00000000-0000-4000-8000-0000000000d3', '00000000-0000-4000-8000-0000000000a1', ${long}, '2026-01-01'),
        ('00000000-0000-4000-8000-0000000000d4', '00000000-0000-4000-8000-0000000000a1', ${long}, '2026-01-02'),
        ('00000000-0000-4000-8000-0000000000d5', '00000000-0000-4000-8000-0000000000a2', 'D1', '2026-01-01')`);

    await expect(migrate(db)).resolves.toBeGreaterThanOrEqual(1);

    const rooms = await queryRows<{ id: string; name: string }>(db, sql`select id::text, name from rooms order by id`);
    expect(Object.fromEntries(rooms.map((room) => [room.id.slice(-2), room.name]))).toEqual({
      a1: 'Atlas',
      // "Atlas (2)" was taken already: the next free suffixes, oldest first.
      a2: 'atlas (3)',
      a3: 'ATLAS (4)',
      a4: 'Atlas (2)',
      // Another department: not a duplicate.
      a5: 'Atlas',
    });
    const desks = await queryRows<{ id: string; name: string }>(db, sql`select id::text, name from desks order by id`);
    expect(Object.fromEntries(desks.map((desk) => [desk.id.slice(-2), desk.name]))).toEqual({
      d1: 'D1',
      d2: 'd1 (2)',
      d3: long,
      d4: `${'L'.repeat(196)} (2)`,
      d5: 'D1',
    });

    const insertTwin = db.execute(sql`insert into rooms (department_id, name) values ('00000000-0000-4000-8000-000000000001', 'aTLAS')`);
    await expect(insertTwin).rejects.toThrow();
    const indexes = await queryRows<{ indexname: string }>(
      db,
      sql`select indexname from pg_indexes where indexname in ('rooms_department_name_key', 'desks_room_name_key') order by 1`,
    );
    expect(indexes.map((row) => row.indexname)).toEqual(['desks_room_name_key', 'rooms_department_name_key']);
  });
});
