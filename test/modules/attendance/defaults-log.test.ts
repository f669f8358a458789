import { describe, expect, it } from 'vitest';
import { attendanceDefaults } from '../../../src/db/schema.js';
import { createTestApp } from '../../helpers/app.js';
import { createTestDatabase } from '../../helpers/database.js';

/**
 * The check-in defaults are written at every start (docs/architecture.md#sql-functions-written-once),
 * but "check-in settings changed: … planned again" is logged, and reservations planned again, only
 * when they really changed: a fresh database (seeded with the defaults by migration 0018) or a
 * restart with the same settings logs nothing.
 */

const CHANGED = 'check-in settings changed';

async function startAndStop(database: Awaited<ReturnType<typeof createTestDatabase>>, env: Record<string, string> = {}): Promise<string[]> {
  const lines: string[] = [];
  const t = await createTestApp({ database, env, logLines: (line) => lines.push(line) });
  await t.close();
  return lines.filter((line) => line.includes(CHANGED));
}

describe('check-in defaults at start-up', () => {
  it('logs a change once, and nothing on a fresh database or a restart with the same settings', async () => {
    const database = await createTestDatabase();
    try {
      expect(await startAndStop(database)).toEqual([]);
      expect(await startAndStop(database)).toEqual([]);
      const changed = { CHECK_IN_REQUIRED: 'true', CHECK_IN_GRACE: '7m' };
      expect(await startAndStop(database, changed)).toHaveLength(1);
      expect(await database.handle.db.select().from(attendanceDefaults)).toEqual([
        { id: 1, checkInRequired: true, checkInOpensBeforeMs: 15 * 60_000, checkInGraceMs: 7 * 60_000 },
      ]);
      expect(await startAndStop(database, changed)).toEqual([]);
      expect(await startAndStop(database, changed)).toEqual([]);
      // Back to the defaults: one change again.
      expect(await startAndStop(database)).toHaveLength(1);
    } finally {
      await database.dispose();
    }
  });
});
