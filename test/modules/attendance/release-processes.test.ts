import { sql } from 'drizzle-orm';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, queryRows, type DatabaseHandle } from '../../../src/db/client.js';
import { desks, reservations, users } from '../../../src/db/schema.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../../helpers/app.js';
import { createPostgresDatabase, serverDatabaseEnv } from '../../helpers/database.js';
import { insertDepartment, insertRoom } from '../../helpers/fixtures.js';
import { freePort, killServers, startServer, stopServer, waitHealthy, type ServerProcess } from '../../helpers/server-process.js';
import { startSmtp, type TestSmtp } from '../../helpers/smtp.js';

/**
 * docs/behaviour.md#release-of-no-shows with two real server processes on one PostgreSQL: 200
 * reservations due at the same instant, a quarter of them checked in (by an admin, through either
 * process) within half a second either side of the deadline. Each reservation ends exactly one
 * way: checked in and kept, or released once (one release counted in the logs, one mail).
 */

const COUNT = 200;
const RACED = 50;
const GRACE_MS = 20 * 60_000;

describe('release of no-shows with two server processes', () => {
  let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let handle: DatabaseHandle;
  let smtp: TestSmtp;
  let servers: ServerProcess[];
  let token: string;

  beforeAll(async () => {
    smtp = await startSmtp();
    database = await createPostgresDatabase();
    const env = {
      ...serverDatabaseEnv(database.url),
      ADMIN_EMAIL,
      ADMIN_PASSWORD,
      LOG_LEVEL: 'info',
      REQUEST_LOG: 'false',
      CHECK_IN_REQUIRED: 'true',
      ATTENDANCE_RELEASE_INTERVAL: '250ms',
      SMTP_URL: smtp.url,
      // Both processes send the outbox: each release mail goes out once (calendar invitation mails,
      // docs/behaviour.md#invitation-mails, go out too and are not what is counted here).
      OUTBOX_INTERVAL: '250ms',
    };
    servers = [startServer(env, await freePort()), startServer(env, await freePort())];
    await Promise.all(servers.map((server) => waitHealthy(server)));
    handle = await openDatabase({ kind: 'postgres', url: database.url, poolSize: 2 });
    const login = await fetch(`${servers[0]!.base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD }),
    });
    token = ((await login.json()) as { accessToken: string }).accessToken;
  }, 120_000);

  afterAll(async () => {
    for (const server of servers ?? []) await stopServer(server).catch(() => undefined);
    await killServers();
    await handle?.close();
    await database?.drop();
    await smtp?.stop();
  });

  it('releases each of 200 due reservations exactly once, never one checked in, and mails each owner once', async () => {
    const db = handle.db;
    const department = await insertDepartment(db);
    const room = await insertRoom(db, department.id);
    const deskRows = await db
      .insert(desks)
      .values(Array.from({ length: COUNT }, (_, i) => ({ roomId: room.id, name: `D${i}` })))
      .returning({ id: desks.id });
    const userRows = await db
      .insert(users)
      .values(Array.from({ length: COUNT }, (_, i) => ({ email: `owner${i}@example.test`, firstName: 'Owner', lastName: String(i) })))
      .returning({ id: users.id });
    const deadline = Math.ceil((Date.now() + 4000) / 1000) * 1000;
    const start = new Date(deadline - GRACE_MS);
    const rows = await db
      .insert(reservations)
      .values(deskRows.map((desk, i) => ({ userId: userRows[i]!.id, deskId: desk.id, startTime: start, endTime: new Date(start.getTime() + 8 * 3_600_000) })))
      .returning({ id: reservations.id });
    const planned = await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from attendance where status = 'PENDING' and release_at = ${new Date(deadline).toISOString()}::timestamptz`,
    );
    expect(planned[0]!.n).toBe(COUNT);

    // Check-ins spread over [deadline - 500 ms, deadline + 500 ms], alternating between the processes.
    const outcomes = await Promise.all(
      rows.slice(0, RACED).map(async (row, i) => {
        const when = deadline - 500 + Math.round((1000 * i) / RACED);
        await sleep(Math.max(0, when - Date.now()));
        const response = await fetch(`${servers[i % 2]!.base}/api/reservation/${row.id}/check-in`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}` },
        });
        return { id: row.id, status: response.status };
      }),
    );
    expect(outcomes.every((outcome) => outcome.status === 200 || outcome.status === 409)).toBe(true);
    const checkedIn = new Set(outcomes.filter((outcome) => outcome.status === 200).map((outcome) => outcome.id));
    expect(checkedIn.size).toBeGreaterThan(0);

    const expectedReleases = COUNT - checkedIn.size;
    const deadlineWait = Date.now() + 30_000;
    let states: { id: string; status: string; end_time: Date | string; released_at: Date | string | null; release_at: Date | string }[] = [];
    while (Date.now() < deadlineWait) {
      states = await queryRows(
        db,
        sql`select a.reservation_id as id, a.status, r.end_time, a.released_at, a.release_at from attendance a join reservations r on r.id = a.reservation_id`,
      );
      if (
        states.filter((state) => state.status === 'NO_SHOW').length === expectedReleases &&
        smtp.mails.filter((mail) => mail.subject.includes('released')).length >= expectedReleases
      )
        break;
      await sleep(200);
    }
    for (const state of states) {
      if (checkedIn.has(state.id)) {
        expect(state.status).toBe('CHECKED_IN');
        expect(new Date(state.end_time).getTime()).toBe(start.getTime() + 8 * 3_600_000);
      } else {
        expect(state.status).toBe('NO_SHOW');
        const releasedAt = new Date(state.released_at!).getTime();
        expect(releasedAt).toBeGreaterThanOrEqual(deadline);
        expect(releasedAt - deadline).toBeLessThan(60_000);
        expect(new Date(state.end_time).getTime()).toBe(releasedAt);
      }
    }
    // Exactly once: the processes' own counts add up, and one mail per released owner. Waits on the
    // work itself: until both logged their releases and the outbox holds nothing left to send.
    const loggedReleases = () =>
      servers.map((server) =>
        server
          .logLines()
          .filter((line) => line.msg === 'reservations released: nobody checked in')
          .reduce((sum, line) => sum + Number(line.released), 0),
      );
    const unsent = async () =>
      (await queryRows<{ n: number }>(db, sql`select count(*)::int as n from outbox where kind = 'mail' and status in ('pending', 'sending')`))[0]!.n;
    const settledBy = Date.now() + 10_000;
    while (Date.now() < settledBy && (loggedReleases().reduce((sum, n) => sum + n, 0) < expectedReleases || (await unsent()) > 0)) await sleep(50);
    const releasedByProcess = loggedReleases();
    expect(releasedByProcess[0]! + releasedByProcess[1]!).toBe(expectedReleases);
    const releaseMails = smtp.mails.filter((mail) => mail.subject.includes('released'));
    expect(releaseMails).toHaveLength(expectedReleases);
    expect(new Set(releaseMails.map((mail) => mail.to)).size).toBe(expectedReleases);
    const outbox = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from outbox where kind = 'mail' and status = 'sent' and attempts = 1`);
    expect(outbox[0]!.n).toBe(expectedReleases);
  }, 120_000);
});
