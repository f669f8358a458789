import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client.js';
import { isoFromTimestamptz } from '../../src/db/time-ranges.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';

/** Instants read raw from the database answer the same ISO text a Date would (docs/benchmarks.md#lists). */

describe('isoFromTimestamptz', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.dispose());

  it('turns what the database writes into the text Date.toISOString gives', async () => {
    const instants = [
      '2025-03-03T09:00:00.000Z',
      '2025-03-03T09:00:00.500Z',
      '2025-03-03T09:00:00.050Z',
      '2025-03-03T09:00:00.123Z',
      '2024-02-29T23:59:59.999Z',
      '0001-01-01T00:00:00.000Z',
      '9999-12-31T23:59:59.999Z',
    ];
    for (const instant of instants) {
      const [row] = await queryRows<{ at: string }>(database.handle.db, sql`select ${instant}::timestamptz as "at"`);
      expect(row!.at).not.toContain('T');
      expect(isoFromTimestamptz(row!.at)).toBe(instant);
    }
  });

  it('keeps milliseconds of finer fractions, as a Date would', async () => {
    const [row] = await queryRows<{ at: string }>(database.handle.db, sql`select '2025-03-03 09:00:00.123456+00'::timestamptz as "at"`);
    expect(isoFromTimestamptz(row!.at)).toBe('2025-03-03T09:00:00.123Z');
  });

  it('reads another offset through a Date', () => {
    expect(isoFromTimestamptz('2025-03-03 11:00:00+02')).toBe('2025-03-03T09:00:00.000Z');
  });
});
