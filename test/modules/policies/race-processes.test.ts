import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, queryRows, type DatabaseHandle } from '../../../src/db/client.js';
import { users } from '../../../src/db/schema.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../../helpers/app.js';
import { createPostgresDatabase, serverDatabaseEnv } from '../../helpers/database.js';
import { insertDesk, insertDeskInNewRoom } from '../../helpers/fixtures.js';
import { freePort, killServers, startServer, stopServer, waitHealthy, type ServerProcess } from '../../helpers/server-process.js';

/**
 * The race of docs/policies.md#races: one person's bookings fired at once at two server processes
 * sharing one database, each alone within a weekly limit of two, together over it. The check runs
 * in the writing transaction under an advisory lock on the person, so exactly two win and every
 * other answers 409 POLICY_LIMIT_REACHED. The same for a room's daily capacity, booked by many
 * people at once. In the `pgbouncer` project every pool goes through PgBouncer in transaction mode,
 * where transaction-scoped advisory locks still hold.
 */

const ATTEMPTS = 24;
const DAY = 86_400_000;
// A Monday far ahead (the services run on the real clock), and hours that never overlap.
const MONDAY = Date.UTC(2031, 0, 6);

describe('booking policies across two server processes', () => {
  let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let handle: DatabaseHandle;
  let first: ServerProcess;
  let second: ServerProcess;
  let token: string;

  beforeAll(async () => {
    database = await createPostgresDatabase();
    const env = {
      ...serverDatabaseEnv(database.url),
      ADMIN_EMAIL,
      ADMIN_PASSWORD,
      LOG_LEVEL: 'warn',
      REQUEST_LOG: 'false',
      RESERVATION_WRITES_PER_MINUTE: '100000',
    };
    first = startServer(env, await freePort());
    second = startServer(env, await freePort());
    await waitHealthy(first);
    await waitHealthy(second);
    handle = await openDatabase({ kind: 'postgres', url: database.url, poolSize: 2 });
    const login = await fetch(`${first.base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD }),
    });
    token = ((await login.json()) as { accessToken: string }).accessToken;
  }, 120_000);

  afterAll(async () => {
    for (const server of [first, second]) if (server) await stopServer(server).catch(() => undefined);
    await killServers();
    await handle?.close();
    await database?.drop();
  });

  const post = async (server: ServerProcess, url: string, body: unknown) => {
    const response = await fetch(`${server.base}${url}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: JSON.parse(text) as { code?: string; id?: string } };
  };

  async function tally(bookings: { deskId: string; userId: string; startTime: string; endTime: string }[]) {
    const answers = await Promise.all(bookings.map((booking, i) => post(i % 2 === 0 ? first : second, '/api/reservation', booking)));
    const codes = answers.map((answer) => (answer.status === 200 ? 'OK' : `${answer.status} ${answer.body.code}`));
    return {
      ok: codes.filter((c) => c === 'OK').length,
      refused: codes.filter((c) => c === '409 POLICY_LIMIT_REACHED').length,
      other: codes.filter((c) => c !== 'OK' && c !== '409 POLICY_LIMIT_REACHED'),
    };
  }

  it(`a weekly limit of 2: ${ATTEMPTS} bookings of one person at once over two processes, exactly 2 succeed`, async () => {
    const [person] = await handle.db.insert(users).values({ email: 'weekly@example.test', firstName: 'Weekly', lastName: 'Racer' }).returning({ id: users.id });
    const rule = await post(first, '/api/admin/policies/rules', {
      scope: { kind: 'EVERYWHERE' },
      who: { kind: 'EVERYONE' },
      limit: { kind: 'MAX_BOOKINGS', count: 2, per: 'WEEK' },
    });
    expect(rule.status).toBe(200);
    const { room } = await insertDeskInNewRoom(handle.db);
    const desks = await Promise.all(Array.from({ length: ATTEMPTS }, () => insertDesk(handle.db, room.id)));
    // Each booking alone keeps the limit: different desks, days and hours of one week.
    const outcome = await tally(
      desks.map((desk, i) => {
        const start = MONDAY + (i % 5) * DAY + Math.floor(i / 5) * 3_600_000;
        return { deskId: desk.id, userId: person!.id, startTime: new Date(start).toISOString(), endTime: new Date(start + 3_000_000).toISOString() };
      }),
    );
    expect(outcome).toEqual({ ok: 2, refused: ATTEMPTS - 2, other: [] });
    const [row] = await queryRows<{ n: number }>(handle.db, sql`select count(*)::int as n from reservations where user_id = ${person!.id}`);
    expect(row!.n).toBe(2);
  });

  it(`a room's capacity of 3 desks a day: ${ATTEMPTS} people at once over two processes, exactly 3 succeed`, async () => {
    const people = await handle.db
      .insert(users)
      .values(Array.from({ length: ATTEMPTS }, (_, i) => ({ email: `cap${i}@example.test`, firstName: 'Cap', lastName: String(i) })))
      .returning({ id: users.id });
    const { room } = await insertDeskInNewRoom(handle.db);
    const desks = await Promise.all(Array.from({ length: ATTEMPTS }, () => insertDesk(handle.db, room.id)));
    const rule = await post(first, '/api/admin/policies/rules', {
      scope: { kind: 'ROOM', roomId: room.id },
      who: { kind: 'EVERYONE' },
      limit: { kind: 'CAPACITY', count: 3 },
    });
    expect(rule.status).toBe(200);
    const start = MONDAY + 14 * DAY + 9 * 3_600_000;
    const outcome = await tally(
      people.map((person, i) => ({
        deskId: desks[i]!.id,
        userId: person.id,
        startTime: new Date(start).toISOString(),
        endTime: new Date(start + 4 * 3_600_000).toISOString(),
      })),
    );
    expect(outcome).toEqual({ ok: 3, refused: ATTEMPTS - 3, other: [] });
  });
});
