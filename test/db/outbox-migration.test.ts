import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows, type Database } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';

/**
 * Migration 0019 (docs/architecture.md#the-outbox): the rows of mail_outbox, calendar_outbox and
 * calendar_mail_quota move into the one outbox, each in the state it had; the old tables go.
 */
describe('migration 0019: one outbox', () => {
  let database: TestDatabase;
  let db: Database;
  const userId = '0019aaaa-0000-4000-8000-000000000001';
  const reservationId = '0019bbbb-0000-4000-8000-000000000001';
  const seriesId = '0019cccc-0000-4000-8000-000000000001';
  const claimToken = '0019dddd-0000-4000-8000-000000000001';

  beforeAll(async () => {
    database = await createTestDatabase({ empty: true });
    db = database.handle.db;
    // Every migration before 0019 (0000 … 0018).
    await migrate(db, undefined, 19);
    await db.execute(sql`insert into users (id, email, first_name, last_name) values (${userId}, 'moved@example.test', 'Mo', 'Ved')`);
    await db.execute(sql`insert into mail_outbox (to_address, subject, text, html, created_at, next_attempt_at, attempts, sent_at, failed_at) values
      ('Pending@example.test', 'waiting', 't', 'h', '2030-01-01T10:00Z', '2030-01-01T10:04Z', 2, null, null),
      ('sent@example.test', 'gone', 't', 'h', '2030-01-01T09:00Z', '2030-01-01T09:00Z', 1, '2030-01-01T09:00:05Z', null),
      ('failed@example.test', 'given up', 't', 'h', '2030-01-01T08:00Z', '2030-01-01T08:15Z', 5, null, '2030-01-01T08:15Z')`);
    await db.execute(sql`insert into calendar_outbox (user_id, reservation_id, series_id, claimed_until, claim_token, attempts) values
      (${userId}, ${reservationId}, ${seriesId}, '2030-01-01T10:02Z', ${claimToken}, 1),
      (${userId}, ${reservationId}, null, '2030-01-01T10:30Z', null, 3),
      (${userId}, ${reservationId}, null, null, null, 0)`);
    await db.execute(
      sql`insert into calendar_mail_quota (user_id, window_started_at, mails, last_sent_at) values (${userId}, '2030-01-01T09:30Z', 4, '2030-01-01T09:50Z')`,
    );
    expect(await migrate(db)).toBeGreaterThanOrEqual(1);
  });
  afterAll(() => database?.dispose());

  it('moves every mail with its state, and every invitation row with its claim or its wait', async () => {
    const rows = await queryRows<{
      kind: string;
      group_key: string;
      topic: string | null;
      status: string;
      attempts: number;
      next: string | null;
      lease: string | null;
      token: string | null;
      payload: Record<string, unknown>;
    }>(
      db,
      sql`select kind, group_key, topic, status, attempts, to_char(next_attempt_at at time zone 'UTC', 'HH24:MI') as next,
            to_char(lease_until at time zone 'UTC', 'HH24:MI') as lease, claim_token::text as token, payload
          from outbox order by id`,
    );
    expect(rows).toEqual([
      {
        kind: 'mail',
        group_key: 'failed@example.test',
        topic: null,
        status: 'dead',
        attempts: 5,
        next: null,
        lease: null,
        token: null,
        payload: { to: 'failed@example.test', subject: 'given up', text: 't', html: 'h' },
      },
      {
        kind: 'mail',
        group_key: 'sent@example.test',
        topic: null,
        status: 'sent',
        attempts: 1,
        next: null,
        lease: null,
        token: null,
        payload: { to: 'sent@example.test', subject: 'gone', text: 't', html: 'h' },
      },
      {
        kind: 'mail',
        group_key: 'pending@example.test',
        topic: null,
        status: 'pending',
        attempts: 2,
        next: '10:04',
        lease: null,
        token: null,
        payload: { to: 'Pending@example.test', subject: 'waiting', text: 't', html: 'h' },
      },
      {
        kind: 'calendar.invitation',
        group_key: userId,
        topic: seriesId,
        status: 'sending',
        attempts: 1,
        next: null,
        lease: '10:02',
        token: claimToken,
        payload: { reservationId, seriesId },
      },
      {
        kind: 'calendar.invitation',
        group_key: userId,
        topic: reservationId,
        status: 'pending',
        attempts: 3,
        next: '10:30',
        lease: null,
        token: null,
        payload: { reservationId, seriesId: null },
      },
      {
        kind: 'calendar.invitation',
        group_key: userId,
        topic: reservationId,
        status: 'pending',
        attempts: 0,
        next: null,
        lease: null,
        token: null,
        payload: { reservationId, seriesId: null },
      },
    ]);
    expect(await queryRows(db, sql`select kind, group_key, messages from outbox_groups`)).toEqual([
      { kind: 'calendar.invitation', group_key: userId, messages: 4 },
    ]);
  });

  it('drops the old tables', async () => {
    const tables = await queryRows<{ name: string }>(
      db,
      sql`select table_name as name from information_schema.tables where table_schema = 'public' and table_name in ('mail_outbox', 'calendar_outbox', 'calendar_mail_quota')`,
    );
    expect(tables).toEqual([]);
  });
});
