/**
 * The outbox job (docs/architecture.md#the-outbox) on the bench's PostgreSQL, in the bench's own
 * process (docs/benchmarks.md#the-outbox):
 *
 * - **Sending**: `mails` mails queued for `people` people, then the outbox drained until nothing
 *   is due, through the service's own SMTP mailer (nodemailer) to an SMTP server on 127.0.0.1
 *   (startSink, which accepts and drops each mail): mails per second, and SQL statements per
 *   mail counted on the wire (the WireCounter in front of the database).
 * - **Claims with a backlog**: `backlog` pending rows for `backlogPeople` people, then `claims`
 *   claims, each sent at once by a handler that does nothing: the median time of one claim, its
 *   statements, and the same with a backlog a tenth and a hundredth as large, so the growth with
 *   the backlog shows.
 *
 * Its rows are of a kind of its own (BENCH_KIND), which no server registers, and are deleted
 * before and after, with their per-group counts.
 */
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { openDatabase, type Database } from '../../src/db/client.js';
import { mailKind } from '../../src/infrastructure/mail/mail-kind.js';
import { SmtpMailer, type Mail } from '../../src/infrastructure/mail/mailer.js';
import { enqueue, Outbox, type OutboxMessage } from '../../src/infrastructure/outbox/outbox.js';
import { systemClock } from '../../src/shared/clock.js';
import { WireCounter } from './wire-counter.js';

/** The bench's own outbox kind: no server sends it, and the bench deletes its rows. */
export const BENCH_KIND = 'bench.mail';
const LEASE_MS = 120_000;
const INSERT_BATCH = 1000;

export interface OutboxSizes {
  mails: number;
  people: number;
  backlog: number;
  backlogPeople: number;
  claims: number;
}

export const OUTBOX_SIZES: Record<'full' | 'quick', OutboxSizes> = {
  full: { mails: 1000, people: 100, backlog: 10_000, backlogPeople: 1000, claims: 50 },
  quick: { mails: 100, people: 20, backlog: 10_000, backlogPeople: 1000, claims: 5 },
};

export interface ClaimCost {
  backlog: number;
  claims: number;
  /** Median of the claims' times (claim() alone: its transaction, not the sending). */
  medianMs: number;
  statementsPerClaim: number;
}

export interface OutboxBench {
  sizes: OutboxSizes;
  /** Sending: the drain's seconds, mails the SMTP server received, and statements per mail. */
  seconds: number;
  received: number;
  mailsPerSecond: number;
  statementsPerMail: number;
  /** Claim cost with the backlog a hundredth, a tenth and all of `sizes.backlog`. */
  claims: ClaimCost[];
}

const silent = pino({ level: 'silent' });

/**
 * An SMTP server on a free local port that accepts every mail and keeps only the count. Written
 * here on `net` rather than with smtp-server: smtp-server waits a fixed 100 ms before its greeting
 * (to catch clients that talk too soon), and the service opens one SMTP connection per mail, so it
 * would measure that pause (10 mails/s) instead of the outbox. It answers at once, as a relay does.
 */
async function startSink(): Promise<{ url: string; received: () => number; stop: () => Promise<void> }> {
  let received = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let buffer = '';
    let inData = false;
    socket.write('220 bench.example.test ESMTP\r\n');
    socket.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('latin1');
      for (;;) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end < 0) return;
          buffer = buffer.slice(end + 5);
          inData = false;
          received++;
          socket.write('250 OK: queued\r\n');
          continue;
        }
        const eol = buffer.indexOf('\r\n');
        if (eol < 0) return;
        const line = buffer.slice(0, eol);
        buffer = buffer.slice(eol + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO') socket.write('250-bench.example.test\r\n250-PIPELINING\r\n250 8BITMIME\r\n');
        else if (verb === 'DATA') {
          inData = true;
          // The data may start right after the line (PIPELINING): handled by the loop.
          socket.write('354 End data with <CR><LF>.<CR><LF>\r\n');
          buffer = `\r\n${buffer}`;
        } else if (verb === 'QUIT') socket.end('221 Bye\r\n');
        else socket.write('250 OK\r\n');
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received: () => received,
    stop: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Deletes every row and per-group count of the bench's kind. */
export async function removeOutboxBenchRows(db: Database): Promise<void> {
  await db.execute(sql`delete from outbox where kind = ${BENCH_KIND}`);
  await db.execute(sql`delete from outbox_groups where kind = ${BENCH_KIND}`);
}

const personOf = (i: number, people: number) => `person${i % people}@bench.example.test`;

/** `count` pending mails of the bench's kind for `people` people, as the service queues a mail (mailMessage). */
async function queue(db: Database, count: number, people: number): Promise<void> {
  for (let from = 0; from < count; from += INSERT_BATCH) {
    const messages: OutboxMessage[] = [];
    for (let i = from; i < Math.min(count, from + INSERT_BATCH); i++) {
      const to = personOf(i, people);
      const mail: Mail = { to, subject: `Bench mail ${i}`, text: `Mail ${i} of the outbox bench.`, html: `<p>Mail ${i} of the outbox bench.</p>` };
      messages.push({ kind: BENCH_KIND, groupKey: to, payload: { ...mail } });
    }
    await enqueue(db, messages);
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? Number.NaN : sorted[Math.floor((sorted.length - 1) / 2)]!;
};

/** Runs both measurements on the database at `url` (see the file's comment) and removes its rows. */
export async function benchOutbox(url: string, sizes: OutboxSizes, progress: (line: string) => void = () => {}): Promise<OutboxBench> {
  const sink = await startSink();
  const wire = await WireCounter.start(url);
  const handle = await openDatabase({ kind: 'postgres', url: wire.url, poolSize: 2, statementTimeoutMs: 600_000 });
  const db = handle.db;
  const mailer = new SmtpMailer(sink.url, 'Deskbook bench <bench@example.test>', silent);
  try {
    await removeOutboxBenchRows(db);

    // Sending: the outbox as the outbox job runs it, its kind the `mail` kind's handler.
    progress(`Outbox: sending ${sizes.mails} mails for ${sizes.people} people to an SMTP server …`);
    await queue(db, sizes.mails, sizes.people);
    const sender = new Outbox(db, systemClock, silent, { leaseMs: LEASE_MS });
    sender.register({ ...mailKind(mailer), kind: BENCH_KIND });
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
    const statementsPerMail = wire.count / Math.max(1, sent);
    // smtp-server counts a mail once its data ended; nodemailer has its answer by then.
    for (let wait = 0; sink.received() < sent && wait < 50; wait++) await sleep(20);

    // Claims with a backlog: what one claim costs while `backlog` rows are due.
    const claims: ClaimCost[] = [];
    for (const backlog of [Math.round(sizes.backlog / 100), Math.round(sizes.backlog / 10), sizes.backlog]) {
      progress(`Outbox: ${sizes.claims} claims with ${backlog.toLocaleString('en-US')} pending rows …`);
      await removeOutboxBenchRows(db);
      await queue(db, backlog, sizes.backlogPeople);
      await db.execute(sql`analyze outbox`);
      const claimer = new Outbox(db, systemClock, silent, { leaseMs: LEASE_MS });
      claimer.register({ kind: BENCH_KIND, deliver: async (rows) => rows.length });
      const times: number[] = [];
      let statements = 0;
      for (let i = 0; i < sizes.claims; i++) {
        wire.count = 0;
        wire.counting = true;
        const start = performance.now();
        const claim = await claimer.claim(BENCH_KIND);
        times.push(performance.now() - start);
        wire.counting = false;
        statements += wire.count;
        if (!claim) throw new Error(`outbox bench: nothing to claim with ${backlog} rows pending`);
        await claimer.deliver(claim);
      }
      claims.push({ backlog, claims: sizes.claims, medianMs: median(times), statementsPerClaim: statements / sizes.claims });
    }
    return { sizes, seconds, received: sink.received(), mailsPerSecond: sent / seconds, statementsPerMail, claims };
  } finally {
    wire.counting = false;
    await removeOutboxBenchRows(db).catch(() => {});
    mailer.close();
    await handle.close();
    await wire.close();
    await sink.stop();
  }
}

const integer = (value: number) => Math.round(value).toLocaleString('en-US');

/** The outbox's figures as Markdown, for the bench's report. */
export function outboxMarkdown(result: OutboxBench): string {
  const { sizes } = result;
  const rows = result.claims.map(
    (claim) => `| ${integer(claim.backlog)} | ${claim.medianMs.toFixed(claim.medianMs < 10 ? 2 : 1)} | ${claim.statementsPerClaim.toFixed(0)} |`,
  );
  return [
    `Outbox (docs/benchmarks.md#the-outbox): ${integer(sizes.mails)} mails for ${integer(sizes.people)} people sent to an SMTP server on this machine in ` +
      `${result.seconds.toFixed(2)} s: ${integer(result.mailsPerSecond)} mails/s, ${result.statementsPerMail.toFixed(1)} statements per mail ` +
      `(${integer(result.received)} received). One claim, with rows pending for ${integer(sizes.backlogPeople)} people (median of ${sizes.claims}):`,
    '',
    '| pending rows | ms per claim | statements per claim |',
    '| ---: | ---: | ---: |',
    ...rows,
  ].join('\n');
}
