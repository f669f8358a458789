import { connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase } from '../helpers/database.js';
import { freePort, killServers, startServer, stopServer, waitHealthy, type ServerProcess } from '../helpers/server-process.js';

/**
 * Slow and greedy clients against a real server process (docs/behaviour.md, HTTP): a request
 * trickled byte by byte is cut at HTTP_REQUEST_TIMEOUT, headers (or nothing at all) at
 * HTTP_HEADERS_TIMEOUT, and connections beyond HTTP_MAX_CONNECTIONS are closed at once.
 * Short timeouts keep the file fast; config.test.ts checks the defaults. The database plays no
 * part (a fresh one, untouched).
 */

const REQUEST_TIMEOUT_MS = 2000;
const HEADERS_TIMEOUT_MS = 1000;
const MAX_CONNECTIONS = 6;
const KEEP_ALIVE_MS = 4000;
/** Node checks the timeouts every ~0.5 s here; the rest is slack for a loaded machine. */
const SLACK_MS = 2500;

interface RawExchange {
  socket: Socket;
  /** Everything the server sent so far. */
  received(): string;
  /** Resolves with the ms from connect to close (or undefined after `waitMs`). */
  closed(waitMs: number): Promise<number | undefined>;
}

function open(server: ServerProcess): Promise<RawExchange> {
  return new Promise((resolve, reject) => {
    const t0 = Date.now();
    const socket = connect(server.port, '127.0.0.1');
    let data = '';
    let closedAt: number | undefined;
    const waiting: (() => void)[] = [];
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (data += chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      closedAt = Date.now() - t0;
      for (const wake of waiting.splice(0)) wake();
    });
    socket.once('connect', () =>
      resolve({
        socket,
        received: () => data,
        closed: (waitMs) =>
          closedAt !== undefined
            ? Promise.resolve(closedAt)
            : Promise.race([new Promise<number | undefined>((wake) => waiting.push(() => wake(closedAt))), sleep(waitMs).then(() => closedAt)]),
      }),
    );
    socket.once('error', reject);
  });
}

/** Writes `text` one byte every `everyMs` until the socket closes; answers the bytes written. */
function trickle(exchange: RawExchange, text: string, everyMs: number): { written(): number } {
  let written = 0;
  const timer = setInterval(() => {
    if (exchange.socket.destroyed || written >= text.length) return clearInterval(timer);
    exchange.socket.write(text[written++]!);
  }, everyMs);
  exchange.socket.once('close', () => clearInterval(timer));
  return { written: () => written };
}

function statusOf(raw: string): number | undefined {
  const match = /^HTTP\/1\.1 (\d{3})/.exec(raw);
  return match ? Number(match[1]) : undefined;
}

function bodyOf(raw: string): Record<string, unknown> {
  return JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4)) as Record<string, unknown>;
}

describe('slow and greedy clients', () => {
  let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let server: ServerProcess;
  /** When fetch last ran: its pooled keep-alive connection counts against the cap until the server closes it. */
  let lastFetch = 0;

  beforeAll(async () => {
    database = await createPostgresDatabase();
    server = startServer(
      {
        DATABASE_URL: database.url,
        LOG_LEVEL: 'info',
        REQUEST_LOG: 'false',
        HTTP_REQUEST_TIMEOUT: `${REQUEST_TIMEOUT_MS}ms`,
        HTTP_HEADERS_TIMEOUT: `${HEADERS_TIMEOUT_MS}ms`,
        HTTP_KEEP_ALIVE_TIMEOUT: `${KEEP_ALIVE_MS}ms`,
        HTTP_MAX_CONNECTIONS: String(MAX_CONNECTIONS),
      },
      await freePort(),
    );
    await waitHealthy(server);
    lastFetch = Date.now();
  });

  afterAll(async () => {
    if (server && !server.exit) await stopServer(server).catch(() => undefined);
    await killServers();
    await database?.drop();
  });

  it('answers 408 and closes the connection when a sign-in body is trickled in', async () => {
    const body = JSON.stringify({ email: 'slow@example.test', password: 'x'.repeat(60) });
    const exchange = await open(server);
    exchange.socket.write(`POST /api/auth/login HTTP/1.1\r\nHost: deskbook\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`);
    const sent = trickle(exchange, body, 100);
    const closedAfter = await exchange.closed(REQUEST_TIMEOUT_MS + SLACK_MS + 5000);
    expect(closedAfter, `still open; ${sent.written()} of ${body.length} bytes sent`).toBeDefined();
    expect(closedAfter!).toBeLessThanOrEqual(REQUEST_TIMEOUT_MS + SLACK_MS);
    expect(sent.written()).toBeLessThan(body.length);
    expect(statusOf(exchange.received())).toBe(408);
    expect(exchange.received()).toMatch(/content-type: application\/problem\+json/i);
    expect(bodyOf(exchange.received())).toMatchObject({ status: 408, code: 'REQUEST_TIMEOUT' });
  });

  it('closes a connection whose headers are trickled in', async () => {
    const exchange = await open(server);
    const sent = trickle(exchange, `GET /api/health HTTP/1.1\r\nHost: deskbook\r\nX-Slow: ${'a'.repeat(200)}\r\n\r\n`, 100);
    const closedAfter = await exchange.closed(HEADERS_TIMEOUT_MS + SLACK_MS + 5000);
    expect(closedAfter, `still open after ${sent.written()} bytes`).toBeDefined();
    expect(closedAfter!).toBeLessThanOrEqual(HEADERS_TIMEOUT_MS + SLACK_MS);
    expect(statusOf(exchange.received())).toBe(408);
  });

  it('closes a connection that sends nothing', async () => {
    const exchange = await open(server);
    const closedAfter = await exchange.closed(HEADERS_TIMEOUT_MS + SLACK_MS + 5000);
    expect(closedAfter, 'a silent connection stayed open').toBeDefined();
    expect(closedAfter!).toBeLessThanOrEqual(HEADERS_TIMEOUT_MS + SLACK_MS);
    expect(statusOf(exchange.received())).toBe(408);
  });

  it('answers oversized headers with 431 and bytes that are not HTTP with 400, as problems', async () => {
    const big = await open(server);
    big.socket.write(`GET /api/health HTTP/1.1\r\nHost: deskbook\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`);
    await big.closed(5000);
    expect(statusOf(big.received())).toBe(431);
    expect(bodyOf(big.received())).toMatchObject({ status: 431, code: 'HEADERS_TOO_LARGE' });
    const garbage = await open(server);
    garbage.socket.write('NOT HTTP AT ALL\r\n\r\n');
    await garbage.closed(5000);
    expect(statusOf(garbage.received())).toBe(400);
    expect(bodyOf(garbage.received())).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' });
  });

  it(`accepts ${MAX_CONNECTIONS} connections and closes the next one at once`, async () => {
    // The time passing is the point: fetch's pooled keep-alive connection from waitHealthy is
    // gone only once the server's HTTP_KEEP_ALIVE_TIMEOUT closed it, and nothing tells the client.
    await sleep(Math.max(0, lastFetch + KEEP_ALIVE_MS + 1000 - Date.now()));
    const held: RawExchange[] = [];
    for (let i = 0; i < MAX_CONNECTIONS; i++) {
      const exchange = await open(server);
      // A complete request keeps each connection alive (and busy with nothing) afterwards.
      exchange.socket.write('GET /api/health HTTP/1.1\r\nHost: deskbook\r\n\r\n');
      held.push(exchange);
    }
    const deadline = Date.now() + 10_000;
    while (held.some((exchange) => statusOf(exchange.received()) !== 200) && Date.now() < deadline) await sleep(20);
    expect(held.map((exchange) => statusOf(exchange.received()))).toEqual(held.map(() => 200));

    const refused = await open(server).catch(() => undefined);
    if (refused) {
      refused.socket.write('GET /api/health HTTP/1.1\r\nHost: deskbook\r\n\r\n');
      expect(await refused.closed(2000), 'connection over the cap was not closed').toBeDefined();
      expect(refused.received()).toBe('');
    }

    // One connection fewer: a new one is served again.
    held.pop()!.socket.destroy();
    // Served again as soon as the server has seen that close (tried until then, 5 s at most).
    const until = Date.now() + 5000;
    let again: number | undefined;
    while (again !== 200 && Date.now() < until) {
      again = await fetch(`${server.base}/api/health`, { signal: AbortSignal.timeout(2000) }).then(
        (response) => response.status,
        () => undefined,
      );
      if (again !== 200) await sleep(20);
    }
    expect(again).toBe(200);
    for (const exchange of held) exchange.socket.destroy();
  });

  it('logged none of it as an error', () => {
    const failures = server.logLines().filter((line) => Number(line.level) >= 50);
    expect(failures).toEqual([]);
  });
});
