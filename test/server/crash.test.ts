import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../helpers/app.js';
import { createPostgresDatabase } from '../helpers/database.js';
import { adminWithDesk, call, slot, summary, timed, type Outcome } from '../helpers/load.js';
import { freePort, killServers, startServer, waitHealthy, type ServerProcess } from '../helpers/server-process.js';

/**
 * Crash safety (docs/behaviour.md, Crashes): bookings stream into a real server process, which is
 * killed with SIGKILL in the middle of it; restarted on the same data, it has every reservation
 * it acknowledged with a 200. The server runs on a PostgreSQL database of its own (the embedded
 * default's own SIGKILL recovery is tested with it, docs/behaviour.md#crashes).
 */

const WORKERS = 6;
/** The kill comes once this many bookings were acknowledged, with more in flight. */
const ACKNOWLEDGED_BEFORE_KILL = 60;

let environment: Record<string, string>;
let dispose: () => Promise<void> = async () => {};

async function startOn(env: Record<string, string>): Promise<ServerProcess> {
  const server = startServer({ ...env, ADMIN_EMAIL, ADMIN_PASSWORD, LOG_LEVEL: 'warn', REQUEST_LOG: 'false' }, await freePort());
  await waitHealthy(server);
  return server;
}

describe('crash safety of a server process', () => {
  beforeAll(async () => {
    const database = await createPostgresDatabase();
    environment = { DATABASE_URL: database.url };
    dispose = () => database.drop();
  });

  afterAll(async () => {
    await killServers();
    await dispose();
  });

  it('keeps every acknowledged reservation across a SIGKILL', async () => {
    const first = await startOn(environment);
    const { token, deskId } = await adminWithDesk(first);

    const t0 = Date.now();
    const outcomes: Outcome[] = [];
    let next = 0;
    let killed = false;
    // Each worker books one slot after another until the process dies under it.
    const workers = Array.from({ length: WORKERS }, async () => {
      while (!killed) {
        const n = next++;
        outcomes.push(await timed(t0, 'book', () => call(first, 'POST', '/api/reservation', { token, body: slot(deskId, n) })));
      }
    });
    // Waits on the load itself (not a fixed time): enough acknowledged, the workers still booking.
    const deadline = Date.now() + 30_000;
    while (outcomes.filter((o) => o.status === 200).length < ACKNOWLEDGED_BEFORE_KILL && Date.now() < deadline) await sleep(20);
    first.child.kill('SIGKILL');
    const exit = await first.exited;
    killed = true;
    await Promise.all(workers);
    expect(exit.signal).toBe('SIGKILL');

    const acknowledged = outcomes.filter((o) => o.status === 200).map((o) => o.id!);
    const cut = outcomes.filter((o) => o.status === 0).length;
    console.log(`${outcomes.length} bookings before the kill (${summary(outcomes)}), ${cut} cut off by it`);
    expect(acknowledged.length).toBeGreaterThan(10);
    // Answers other than 200 are only requests the kill cut off.
    expect(outcomes.filter((o) => o.status !== 200 && o.status !== 0)).toEqual([]);

    const second = await startOn(environment);
    const login = await call(second, 'POST', '/api/auth/login', { body: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD } });
    const fresh = ((await login.json()) as { accessToken: string }).accessToken;
    const stored = new Set<string>();
    for (let page = 0; ; page++) {
      const response = await call(second, 'GET', `/api/reservation?deskId=${deskId}&size=1000&page=${page}`, { token: fresh });
      expect(response.status).toBe(200);
      const body = (await response.json()) as { content: { id: string }[]; last: boolean };
      for (const item of body.content) stored.add(item.id);
      if (body.last) break;
    }
    expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);
    // At most the bookings cut off by the kill may have been written without an answer.
    expect(stored.size - acknowledged.length).toBeLessThanOrEqual(cut);
  }, 60_000);
});
