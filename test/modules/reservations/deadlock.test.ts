import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows, type Database } from '../../../src/db/client.js';
import { ADMIN_EMAIL, createTestApp, expectProblem, type TestApp } from '../../helpers/app.js';
import { insertDeskInNewRoom, insertReservation } from '../../helpers/fixtures.js';

/**
 * Two bookings that collide while both are in flight may each wait for the other under the
 * exclusion constraint; PostgreSQL then aborts one with a deadlock (40P01). That booking is tried
 * again and meets the other's outcome: 409 with the range it collided with, never a 500
 * (docs/behaviour.md#reservations). The deadlock is made on purpose: a transaction of the test
 * holds a range, the booking waits for it, and the transaction then inserts a range that collides
 * with the booking's own.
 */

const HOUR = 3_600_000;

describe('a booking aborted by a deadlock', () => {
  let t: TestApp;
  let db: Database;

  beforeAll(async () => {
    t = await createTestApp();
    db = t.database.handle.db;
  });
  afterAll(async () => {
    await t?.close();
  });

  const waitingForLocks = async () =>
    (
      await queryRows<{ n: number }>(db, sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`)
    )[0]!.n;

  it('is tried again and answers 409 with the colliding range', async () => {
    const { desk } = await insertDeskInNewRoom(db);
    const [admin] = await queryRows<{ id: string }>(db, sql`select id from users where email = ${ADMIN_EMAIL}`);
    const base = Date.UTC(2031, 5, 2, 9);
    const at = (hours: number) => new Date(base + hours * HOUR);
    let release!: () => void;
    let held!: () => void;
    const holding = new Promise<void>((resolve) => (held = resolve));
    const releasing = new Promise<void>((resolve) => (release = resolve));
    const deadlocks: string[] = [];
    // The test's transaction: [9, 10) first, then, once the booking waits for it, [10, 10:45).
    const transaction = db
      .transaction(async (tx) => {
        await insertReservation(tx as unknown as Database, { userId: admin!.id, deskId: desk.id, startTime: at(0), endTime: at(1) });
        held();
        await releasing;
        await insertReservation(tx as unknown as Database, { userId: admin!.id, deskId: desk.id, startTime: at(1), endTime: at(1.75) });
      })
      .catch((error: unknown) => deadlocks.push(String((error as { cause?: { code?: string } }).cause?.code ?? error)));
    await holding;
    // The booking [9:30, 10:30) collides with both ranges of the transaction.
    const booking = t.request({
      method: 'POST',
      url: '/api/reservation',
      token: await t.adminToken(),
      payload: { deskId: desk.id, startTime: at(0.5).toISOString(), endTime: at(1.5).toISOString() },
    });
    await expect.poll(waitingForLocks, { timeout: 10_000 }).toBe(1);
    release();
    // Each now waits for the other: PostgreSQL aborts the one whose deadlock check runs first.
    const [response] = await Promise.all([booking, transaction]);
    // The race happened: one side was aborted by a deadlock (the booking, or the test's transaction).
    const rows = await queryRows<{ deadlocks: number }>(db, sql`select deadlocks::int from pg_stat_database where datname = current_database()`);
    expect(rows[0]!.deadlocks).toBeGreaterThanOrEqual(1);
    if (deadlocks.length === 0) {
      // The booking was the one aborted: tried again, it met the committed ranges.
      const problem = expectProblem(response, 409, 'RESERVATION_CONFLICT');
      expect(problem.conflicts).toEqual([
        { startTime: at(0).toISOString(), endTime: at(1).toISOString() },
        { startTime: at(1).toISOString(), endTime: at(1.75).toISOString() },
      ]);
    } else {
      // The test's transaction was aborted instead: the booking went through.
      expect(deadlocks).toEqual(['40P01']);
      expect(response.statusCode, response.body).toBe(200);
    }
  });
});
