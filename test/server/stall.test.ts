import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/client.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { createPostgresDatabase } from '../helpers/database.js';

/**
 * A database that accepts connections and never answers (docs/behaviour.md#health-and-database-outages):
 * no connection error ever arrives, so only the stall watch of plugins/database-gate.ts can open the
 * breaker. The service reaches PostgreSQL through a TCP proxy of the test that, when told to stall,
 * keeps every byte in both directions and leaves new connections unanswered. Requests then answer
 * 503 within 2 s of the stall, and the service recovers without a restart when the proxy lets the
 * bytes through again.
 */

/** Forwards TCP to `target`; while stalled nothing passes (held back, then delivered in order). */
class StallingProxy {
  stalled = false;
  private readonly server: Server;
  private readonly waiting: (() => void)[] = [];
  private readonly sockets = new Set<Socket>();

  constructor(private readonly target: { host: string; port: number }) {
    this.server = createServer((client) => this.accept(client));
  }

  async listen(): Promise<number> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return (this.server.address() as AddressInfo).port;
  }

  private accept(client: Socket): void {
    this.sockets.add(client);
    client.on('error', () => undefined);
    const upstream = connect(this.target.port, this.target.host);
    this.sockets.add(upstream);
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    const forward = (from: Socket, to: Socket) =>
      from.on('data', (chunk) => {
        if (!this.stalled) to.write(chunk);
        else this.waiting.push(() => to.write(chunk));
      });
    forward(client, upstream);
    forward(upstream, client);
  }

  resume(): void {
    this.stalled = false;
    for (const deliver of this.waiting.splice(0)) deliver();
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

describe('a database that accepts connections and never answers', () => {
  let created: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let proxy: StallingProxy;
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    created = await createPostgresDatabase();
    const target = new URL(created.url);
    proxy = new StallingProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const proxied = new URL(created.url);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(await proxy.listen());
    const handle = await openDatabase({ kind: 'postgres', url: proxied.toString(), poolSize: 4 });
    t = await createTestApp({ database: { handle, url: created.url, dispose: () => handle.close() } });
    token = await t.adminToken();
  });
  afterAll(async () => {
    proxy?.resume();
    await t?.close();
    await t?.database.dispose();
    await proxy?.close();
    await created?.drop();
  });

  const self = async () => {
    const sent = performance.now();
    const response = await t.request({ method: 'GET', url: '/api/self', token });
    return {
      sent,
      answered: performance.now(),
      status: response.statusCode,
      code: response.statusCode === 200 ? undefined : response.json<{ code: string }>().code,
    };
  };

  it('answers 503 within 2 s of the stall, and recovers without a restart', async () => {
    expect((await self()).status).toBe(200);
    proxy.stalled = true;
    const stalledAt = performance.now();
    const answers: Promise<Awaited<ReturnType<typeof self>>>[] = [];
    // A request every 100 ms for 3 s: the first ones wait on the stalled database.
    while (performance.now() - stalledAt < 3000) {
      answers.push(self());
      await sleep(100);
    }
    const settled = await Promise.race([Promise.all(answers.slice(-10)), sleep(1000).then(() => undefined)]);
    expect(settled, 'the requests of the last second were not answered while the database stalled').toBeDefined();
    for (const answer of settled!) expect(answer).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE' });
    // Sent once the breaker is open, a request is refused at once.
    for (const answer of settled!) expect(answer.answered - answer.sent).toBeLessThan(200);

    // The database answers again: so does the service, without a restart, and the requests
    // held during the stall are answered too.
    proxy.resume();
    await expect.poll(async () => (await self()).status, { timeout: 5000, interval: 100 }).toBe(200);
    const all = await Promise.all(answers);
    for (const answer of all) expect([200, 503]).toContain(answer.status);
    const firstAt = Math.min(...all.filter((answer) => answer.status === 503).map((answer) => answer.answered));
    expect(firstAt - stalledAt, 'the first 503 came more than 2 s after the stall').toBeLessThanOrEqual(2000);
  });
});
