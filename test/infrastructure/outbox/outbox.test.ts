import { eq, sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purgeJobs } from '../../../src/app.js';
import { openDatabase, queryRows, type Database, type DatabaseHandle } from '../../../src/db/client.js';
import { outbox } from '../../../src/db/schema.js';
import { housekeep } from '../../../src/infrastructure/housekeeping/housekeeping.js';
import { MAIL_KIND, mailKind, queueMails } from '../../../src/infrastructure/mail/mail-kind.js';
import type { Mail, Mailer } from '../../../src/infrastructure/mail/mailer.js';
import { CLAIM_WINDOW, DeliveryFailed, enqueue, Outbox } from '../../../src/infrastructure/outbox/outbox.js';
import { createTestApp, TestClock, type TestApp } from '../../helpers/app.js';

/**
 * The one outbox (docs/architecture.md#the-outbox) on a real PostgreSQL: leases taken over after
 * a process dies, backoff and the dead state, two senders sending each message once, fairness
 * between groups, retention.
 */

const MIN = 60_000;
const DAY = 86_400_000;
const LEASE = 2 * MIN;
const silent = pino({ level: 'silent' });

class FakeMailer implements Mailer {
  sent: Mail[] = [];
  accept = true;
  async send(mail: Mail): Promise<boolean> {
    if (!this.accept) return false;
    this.sent.push(mail);
    return true;
  }
  close(): void {}
}

const mail = (to: string, subject = 'Hello'): Mail => ({ to, subject, text: 'text', html: '<p>html</p>' });

describe('outbox', () => {
  let t: TestApp;
  let db: Database;
  let second: DatabaseHandle;
  const clock = new TestClock(new Date('2030-05-01T10:00:00Z'));
  const outboxOf = (mailer: Mailer, database: Database = db) => {
    const own = new Outbox(database, clock, silent, { leaseMs: LEASE });
    own.register(mailKind(mailer));
    return own;
  };
  const rowsTo = (to: string) => db.select().from(outbox).where(eq(outbox.groupKey, to));

  beforeAll(async () => {
    t = await createTestApp();
    db = t.database.handle.db;
    // A second pool on the same database: another server process.
    second = await openDatabase({ kind: 'postgres', url: t.database.url, poolSize: 5 });
  });
  afterAll(async () => {
    await second?.close();
    await t?.close();
  });

  it('sends a queued mail once and keeps it as sent', async () => {
    await queueMails(db, [mail('once@example.test')]);
    const mailer = new FakeMailer();
    expect((await outboxOf(mailer).drain()).sent).toBe(1);
    expect((await outboxOf(mailer).drain()).sent).toBe(0);
    expect(mailer.sent).toEqual([mail('once@example.test')]);
    const [row] = await rowsTo('once@example.test');
    expect(row).toMatchObject({ kind: MAIL_KIND, status: 'sent', attempts: 1, leaseUntil: null, claimToken: null, lastError: null });
    expect(row!.sentAt).toEqual(clock.now());
  });

  it('a row claimed by a process that died is sent by another once the lease is over', async () => {
    await queueMails(db, [mail('orphan@example.test')]);
    const dying = await outboxOf(new FakeMailer()).claim(MAIL_KIND);
    expect(dying?.rows).toHaveLength(1);
    const [claimed] = await rowsTo('orphan@example.test');
    expect(claimed).toMatchObject({ status: 'sending', attempts: 1 });
    expect(claimed!.leaseUntil).toEqual(new Date(clock.now().getTime() + LEASE));

    const mailer = new FakeMailer();
    const other = outboxOf(mailer, second.db);
    expect((await other.drain()).sent).toBe(0);
    clock.advance(LEASE);
    expect((await other.drain()).sent).toBe(1);
    expect(mailer.sent.map((sent) => sent.to)).toEqual(['orphan@example.test']);
    const [done] = await rowsTo('orphan@example.test');
    expect(done).toMatchObject({ status: 'sent', attempts: 2 });
    // The dead process's claim, were it to come back, settles nothing.
    await outboxOf(new FakeMailer()).deliver(dying!);
    expect((await rowsTo('orphan@example.test'))[0]).toMatchObject({ status: 'sent', attempts: 2 });
  });

  it('a mail that keeps failing waits 1, 2, 4, 8 minutes between tries, then is dead with its tries and error', async () => {
    await queueMails(db, [mail('refused@example.test')]);
    const mailer = new FakeMailer();
    mailer.accept = false;
    const sender = outboxOf(mailer);
    const waits: number[] = [];
    for (let attempt = 1; attempt <= 10; attempt++) {
      await sender.drain();
      const [state] = await rowsTo('refused@example.test');
      if (state!.status === 'dead') break;
      expect(state).toMatchObject({ status: 'pending', attempts: attempt, lastError: 'the SMTP server did not accept the mail' });
      waits.push((state!.nextAttemptAt!.getTime() - clock.now().getTime()) / MIN);
      // Nothing is tried before its time.
      expect((await sender.drain()).sent).toBe(0);
      expect((await rowsTo('refused@example.test'))[0]!.attempts).toBe(attempt);
      clock.set(state!.nextAttemptAt!);
    }
    expect(waits).toEqual([1, 2, 4, 8]);
    const [dead] = await rowsTo('refused@example.test');
    expect(dead).toMatchObject({ status: 'dead', attempts: 5, sentAt: null, lastError: 'the SMTP server did not accept the mail' });
    expect(dead!.deadAt).toEqual(clock.now());
    // Dead stays dead: later drains leave it alone.
    clock.advance(DAY);
    mailer.accept = true;
    expect((await sender.drain()).sent).toBe(0);
  });

  it('a handler that throws keeps its error (no payload) and what it sent before counts', async () => {
    const own = new Outbox(db, clock, silent, { leaseMs: LEASE });
    own.register({
      kind: 'test.partial',
      maxAttempts: 1,
      deliver: async () => {
        throw new DeliveryFailed('x'.repeat(1000), 1);
      },
    });
    await enqueue(db, [{ kind: 'test.partial', groupKey: 'partial', payload: { secret: 'never shown' } }]);
    expect((await own.drain()).sent).toBe(1);
    const [row] = await rowsTo('partial');
    expect(row).toMatchObject({ status: 'dead', attempts: 1 });
    expect(row!.lastError).toHaveLength(300);
  });

  it('two senders (two pools, as two processes) send each of 200 mails once', async () => {
    const addresses = Array.from({ length: 200 }, (_, i) => `twice.${i}@example.test`);
    await queueMails(
      db,
      addresses.map((to) => mail(to)),
    );
    const a = new FakeMailer();
    const b = new FakeMailer();
    const [first, other] = await Promise.all([outboxOf(a).drain(), outboxOf(b, second.db).drain()]);
    expect(first.sent + other.sent).toBe(200);
    const sent = [...a.sent, ...b.sent].map((one) => one.to).sort();
    expect(sent).toEqual([...addresses].sort());
    const [counts] = await queryRows<{ sent: number; open: number }>(
      db,
      sql`select count(*) filter (where status = 'sent')::int as sent, count(*) filter (where status in ('pending', 'sending'))::int as open
          from outbox where group_key like 'twice.%'`,
    );
    expect(counts).toEqual({ sent: 200, open: 0 });
  });

  it('serves groups in turn: one group’s many messages do not hold up another’s', async () => {
    const order: string[] = [];
    const own = new Outbox(db, clock, silent, { leaseMs: LEASE });
    own.register({ kind: 'test.turns', deliver: async (rows) => (order.push(rows[0]!.groupKey), 1) });
    await enqueue(db, [
      ...Array.from({ length: 3 }, () => ({ kind: 'test.turns', groupKey: 'busy', payload: {} })),
      { kind: 'test.turns', groupKey: 'quiet', payload: {} },
    ]);
    expect((await own.drain()).sent).toBe(4);
    expect(order).toEqual(['busy', 'quiet', 'busy', 'busy']);
  });

  it(`a claim looks at ${CLAIM_WINDOW} groups at a time, and every group gets its turn: a flood of one does not hold up 120 others`, async () => {
    // docs/architecture.md#the-outbox, "Claim": the window moves on after each claim and wraps.
    const order: string[] = [];
    const own = new Outbox(db, clock, silent, { leaseMs: LEASE });
    own.register({ kind: 'test.window', deliver: async (rows) => (order.push(rows[0]!.groupKey), 1) });
    const singles = Array.from({ length: 120 }, (_, i) => `g${String(i).padStart(3, '0')}`);
    // The flood is queued first and has the lowest key: the old query and a plain oldest-first would send it all first.
    await enqueue(
      db,
      Array.from({ length: 200 }, () => ({ kind: 'test.window', groupKey: 'a-flood', payload: {} })),
    );
    await enqueue(
      db,
      singles.map((groupKey) => ({ kind: 'test.window', groupKey, payload: {} })),
    );
    expect((await own.drain()).sent).toBe(320);
    const lastSingle = Math.max(...singles.map((key) => order.indexOf(key)));
    expect(order.slice(0, lastSingle + 1).filter((key) => key === 'a-flood').length).toBeLessThanOrEqual(3);
    expect(new Set(order)).toEqual(new Set(['a-flood', ...singles]));
  });

  it('a claim goes on past windows with nothing due, and wraps to the groups before the last window', async () => {
    const sent: string[] = [];
    const own = new Outbox(db, clock, silent, { leaseMs: LEASE });
    own.register({ kind: 'test.wrap', deliver: async (rows) => (sent.push(rows[0]!.groupKey), 1) });
    // 120 groups waiting for their next try (not due), then one due group after them all.
    const waiting = Array.from({ length: 120 }, (_, i) => `w${String(i).padStart(3, '0')}`);
    await enqueue(
      db,
      waiting.map((groupKey) => ({ kind: 'test.wrap', groupKey, payload: {} })),
    );
    await db
      .update(outbox)
      .set({ nextAttemptAt: new Date(clock.now().getTime() + 10 * MIN) })
      .where(eq(outbox.kind, 'test.wrap'));
    await enqueue(db, [{ kind: 'test.wrap', groupKey: 'z-due', payload: {} }]);
    expect((await own.drain()).sent).toBe(1);
    expect(sent).toEqual(['z-due']);
    // Due now: a group before every window seen so far, and the waiting ones once their time has come.
    await enqueue(db, [{ kind: 'test.wrap', groupKey: 'a-early', payload: {} }]);
    expect((await own.drain()).sent).toBe(1);
    expect(sent.at(-1)).toBe('a-early');
    clock.advance(10 * MIN);
    expect((await own.drain()).sent).toBe(120);
    expect(new Set(sent)).toEqual(new Set(['z-due', 'a-early', ...waiting]));
  });

  it('without a channel, a discarded kind is emptied unsent', async () => {
    await queueMails(db, [mail('nowhere@example.test')]);
    const own = new Outbox(db, clock, silent, { leaseMs: LEASE });
    own.discard(MAIL_KIND, 'SMTP_URL is not configured');
    await own.drain();
    expect(await rowsTo('nowhere@example.test')).toEqual([]);
  });

  it('housekeeping deletes sent rows after MAIL_RETENTION and dead ones after OUTBOX_DEAD_RETENTION', async () => {
    await db.delete(outbox);
    const now = clock.now();
    const ago = (ms: number) => new Date(now.getTime() - ms);
    await db.insert(outbox).values([
      { kind: MAIL_KIND, groupKey: 'old.sent', status: 'sent', sentAt: ago(8 * DAY) },
      { kind: MAIL_KIND, groupKey: 'new.sent', status: 'sent', sentAt: ago(6 * DAY) },
      { kind: MAIL_KIND, groupKey: 'old.dead', status: 'dead', deadAt: ago(31 * DAY) },
      { kind: MAIL_KIND, groupKey: 'new.dead', status: 'dead', deadAt: ago(8 * DAY) },
      { kind: MAIL_KIND, groupKey: 'pending', createdAt: ago(100 * DAY) },
    ]);
    await housekeep(db, now, purgeJobs(t.config));
    const left = (await db.select({ groupKey: outbox.groupKey }).from(outbox)).map((row) => row.groupKey).sort();
    expect(left).toEqual(['new.dead', 'new.sent', 'pending']);
  });
});
