/**
 * What a push costs the outbox (docs/benchmarks.md#push), on the bench's PostgreSQL in the bench's
 * own process: `people` bench users, each with one push subscription whose endpoint is a push
 * service on 127.0.0.1 that accepts every push (201) after reading it; `pushes` notices queued
 * through `queueNotices` as the events queue them (their switches and subscriptions read in the
 * queueing transaction), then the outbox drained until nothing is due through the service's own
 * `push` kind (web-push's encryption and VAPID signature, fetch): pushes per second, SQL statements
 * per push counted on the wire, and what queueing cost per notice.
 *
 * Its users are named push-bench-<n>@bench.example.test and deleted before and after, with their
 * subscriptions and outbox rows.
 *
 * Alone: `npx tsx scripts/bench/push.ts [--pushes N] [--people N]` starts an embedded PostgreSQL of
 * its own in a temporary folder (fsync on, as `npm start` runs it), migrates it, measures and
 * removes it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import webpush from 'web-push';
import { createECDH, randomBytes } from 'node:crypto';
import { openDatabase, queryRows, type Database } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';
import { Outbox } from '../../src/infrastructure/outbox/outbox.js';
import { endpointPolicy, pushKind } from '../../src/modules/notifications/notifications.push.js';
import { PUSH_KIND, queueNotices, type Notice } from '../../src/modules/notifications/notifications.queue.js';
import { systemClock } from '../../src/shared/clock.js';
import { WireCounter } from './wire-counter.js';

export interface PushSizes {
  pushes: number;
  people: number;
}

export const PUSH_SIZES: Record<'full' | 'quick', PushSizes> = {
  full: { pushes: 1000, people: 100 },
  quick: { pushes: 100, people: 20 },
};

export interface PushBench {
  sizes: PushSizes;
  /** Queueing: seconds for all notices (batches of 100 per transaction) and statements per notice. */
  queueSeconds: number;
  statementsPerQueued: number;
  /** Sending: the drain's seconds, pushes the endpoint accepted, pushes per second, statements per push. */
  seconds: number;
  received: number;
  pushesPerSecond: number;
  statementsPerPush: number;
}

const silent = pino({ level: 'silent' });
const EMAIL = (i: number) => `push-bench-${i}@bench.example.test`;
const QUEUE_BATCH = 100;

/** A push service on 127.0.0.1 that reads each push and accepts it. */
async function startEndpoint(): Promise<{ origin: string; received: () => number; stop: () => Promise<void> }> {
  let received = 0;
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      received++;
      response.writeHead(201).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received: () => received,
    stop: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export async function removePushBenchRows(db: Database): Promise<void> {
  await db.execute(
    sql`delete from outbox where kind = ${PUSH_KIND} and group_key in (select id::text from users where email like 'push-bench-%@bench.example.test')`,
  );
  await db.execute(sql`delete from users where email like 'push-bench-%@bench.example.test'`);
}

export async function benchPush(url: string, sizes: PushSizes, progress: (line: string) => void = () => {}): Promise<PushBench> {
  const endpoint = await startEndpoint();
  const wire = await WireCounter.start(url);
  const handle = await openDatabase({ kind: 'postgres', url: wire.url, poolSize: 2, statementTimeoutMs: 600_000 });
  const db = handle.db;
  try {
    await removePushBenchRows(db);
    progress(`Push: ${sizes.people} people with a browser each, ${sizes.pushes} pushes …`);
    const userIds: string[] = [];
    for (let i = 0; i < sizes.people; i++) {
      const [row] = await queryRows<{ id: string }>(
        db,
        sql`insert into users (email, first_name, last_name, password_hash, role) values (${EMAIL(i)}, 'Push', ${`Bench ${i}`}, null, 'USER') returning id`,
      );
      const browser = createECDH('prime256v1');
      await db.execute(
        sql`insert into push_subscriptions (user_id, endpoint, p256dh, auth) values (${row!.id}, ${`${endpoint.origin}/push/${i}`}, ${browser.generateKeys().toString('base64url')}, ${randomBytes(16).toString('base64url')})`,
      );
      userIds.push(row!.id);
    }
    const notices: Notice[] = Array.from({ length: sizes.pushes }, (_, i) => ({
      userId: userIds[i % userIds.length]!,
      event: 'check-in-open',
      push: {
        title: 'Check-in is open',
        body: `Desk B-${i} (Bench room), 09:00 (Europe/Berlin). Check in, or the desk is released.`,
        url: '/reservations',
        tag: `reservation-${i}`,
      },
    }));

    wire.count = 0;
    wire.counting = true;
    const queueStarted = performance.now();
    for (let from = 0; from < notices.length; from += QUEUE_BATCH) {
      await db.transaction((tx) => queueNotices(tx, notices.slice(from, from + QUEUE_BATCH)));
    }
    const queueSeconds = (performance.now() - queueStarted) / 1000;
    wire.counting = false;
    const statementsPerQueued = wire.count / notices.length;

    const keys = webpush.generateVAPIDKeys();
    const sender = new Outbox(db, systemClock, silent, { leaseMs: 120_000 });
    sender.register(
      pushKind(db, { keys, subject: 'mailto:bench@example.test', ttlMs: 3_600_000, timeoutMs: 10_000, policy: endpointPolicy('', true) }, silent),
    );
    wire.count = 0;
    wire.counting = true;
    const started = performance.now();
    let sent = 0;
    for (let more = true; more;) {
      const pass = await sender.drain();
      sent += pass.sent;
      more = pass.more;
    }
    const seconds = (performance.now() - started) / 1000;
    wire.counting = false;
    return {
      sizes,
      queueSeconds,
      statementsPerQueued,
      seconds,
      received: endpoint.received(),
      pushesPerSecond: sent / seconds,
      statementsPerPush: wire.count / Math.max(1, sent),
    };
  } finally {
    wire.counting = false;
    await removePushBenchRows(db).catch(() => {});
    await handle.close();
    await wire.close();
    await endpoint.stop();
  }
}

const integer = (value: number) => Math.round(value).toLocaleString('en-US');

export function pushMarkdown(result: PushBench): string {
  const { sizes } = result;
  return (
    `Push (docs/benchmarks.md#push): ${integer(sizes.pushes)} notices for ${integer(sizes.people)} people (one browser each) queued in ` +
    `${result.queueSeconds.toFixed(2)} s (${result.statementsPerQueued.toFixed(2)} statements per notice, batches of ${QUEUE_BATCH}), ` +
    `sent to a push service on this machine in ${result.seconds.toFixed(2)} s: ${integer(result.pushesPerSecond)} pushes/s, ` +
    `${result.statementsPerPush.toFixed(1)} statements per push (${integer(result.received)} received).`
  );
}

/** A port free on 127.0.0.1 now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

async function main() {
  const { values } = parseArgs({ options: { pushes: { type: 'string' }, people: { type: 'string' } } });
  const sizes = { pushes: Number(values.pushes ?? PUSH_SIZES.full.pushes), people: Number(values.people ?? PUSH_SIZES.full.people) };
  const { startEmbeddedPostgres } = await import('../../src/db/embedded-postgres.js');
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'deskbook-push-bench-'));
  const cluster = await startEmbeddedPostgres({ dataDir, port: await freePort() });
  try {
    const handle = await openDatabase({ kind: 'postgres', url: cluster.url, poolSize: 2, statementTimeoutMs: 600_000 });
    await migrate(handle.db);
    await handle.close();
    console.log(pushMarkdown(await benchPush(cluster.url, sizes, (line) => console.error(line))));
  } finally {
    await cluster.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
