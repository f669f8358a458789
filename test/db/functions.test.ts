import { readdirSync, readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client.js';
import { loadConfig } from '../../src/config.js';
import { projectPath } from '../../src/shared/paths.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';

// docs/architecture.md#sql-functions-written-once: the current body of each database function the
// triggers run lives in one reviewed file, src/db/functions/<name>.sql; the migrations must have
// left exactly that body in the database.

const FUNCTIONS = projectPath('src', 'db', 'functions');

/** The body of a `CREATE OR REPLACE FUNCTION … AS $$ body $$;` file, as PostgreSQL keeps it (prosrc). */
export function bodyOf(text: string): string {
  const start = text.indexOf('$$');
  const end = text.lastIndexOf('$$');
  if (start < 0 || end <= start) throw new Error('no $$ … $$ body');
  return text.slice(start + 2, end);
}

describe('SQL functions written once', () => {
  let t: TestDatabase;
  const files = readdirSync(FUNCTIONS).filter((name) => name.endsWith('.sql'));

  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(async () => {
    await t.dispose();
  });

  const prosrc = async (name: string) =>
    (
      await queryRows<{ prosrc: string }>(
        t.handle.db,
        sql`select p.prosrc from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname = 'public' and p.proname = ${name}`,
      )
    ).map((row) => row.prosrc);

  it('finds the files, and a body differing by one character would not match', async () => {
    expect(files).toEqual(expect.arrayContaining(['attendance_plan_of.sql', 'attendance_plan.sql', 'attendance_plan_inserted.sql', 'calendar_track.sql']));
    const [stored] = await prosrc('attendance_plan');
    expect(stored).toBeDefined();
    const body = bodyOf(readFileSync(`${FUNCTIONS}/attendance_plan.sql`, 'utf8'));
    const changed = body.replace('NEW.end_time', 'NEW.start_time');
    expect(changed).not.toBe(body);
    expect(stored).not.toBe(changed);
  });

  it.each(files)('%s is the body of the function in the migrated database', async (file) => {
    const text = readFileSync(`${FUNCTIONS}/${file}`, 'utf8');
    const name = file.replace(/\.sql$/, '');
    expect(text).toContain(`CREATE OR REPLACE FUNCTION "${name}"(`);
    expect(await prosrc(name)).toEqual([bodyOf(text)]);
  });

  it('no function of the database reads a session setting or restates the check-in defaults', async () => {
    const rows = await queryRows<{ proname: string; prosrc: string }>(
      t.handle.db,
      sql`select p.proname, p.prosrc from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname = 'public'`,
    );
    expect(rows.length).toBeGreaterThanOrEqual(files.length);
    const offending = rows.filter((row) => /current_setting|set_config|900000|1200000/.test(row.prosrc)).map((row) => row.proname);
    expect(offending).toEqual([]);
  });

  it("the global check-in row a migrated database starts with is the configuration's defaults", async () => {
    const config = loadConfig({});
    const [row] = await queryRows<{ check_in_required: boolean; check_in_opens_before_ms: number; check_in_grace_ms: number }>(
      t.handle.db,
      sql`select check_in_required, check_in_opens_before_ms, check_in_grace_ms from attendance_defaults where id = 1`,
    );
    // A database some service already started with other settings holds those; a fresh one holds the seed of migration 0018.
    const seed = /VALUES \(1, (true|false), (\d+), (\d+)\)/.exec(readFileSync(projectPath('migrations', '0018_functions_once.sql'), 'utf8'));
    expect(seed).not.toBeNull();
    const expected = {
      check_in_required: config.CHECK_IN_REQUIRED,
      check_in_opens_before_ms: config.CHECK_IN_OPENS_BEFORE,
      check_in_grace_ms: config.CHECK_IN_GRACE,
    };
    expect({ check_in_required: seed![1] === 'true', check_in_opens_before_ms: Number(seed![2]), check_in_grace_ms: Number(seed![3]) }).toEqual(expected);
    // The plan joins this row (no outer join, no literal default): it must be there.
    expect(row).toEqual(expected);
  });
});
