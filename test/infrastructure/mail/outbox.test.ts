import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox } from '../../../src/db/schema.js';
import type { Mail, Mailer } from '../../../src/infrastructure/mail/mailer.js';
import { purgeJobs } from '../../../src/app.js';
import { housekeep } from '../../../src/infrastructure/housekeeping/housekeeping.js';
import { OUTBOX_CLAIM_MS, OUTBOX_MAX_ATTEMPTS, outboxRow, purgeMailOutbox, sendOutbox } from '../../../src/infrastructure/mail/outbox.js';
import { createTestApp, type TestApp } from '../../helpers/app.js';

/** The mail outbox of docs/behaviour.md#mails-of-the-release: claim, send, mark; retries; give up. */

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

const MIN = 60_000;
const DAY = 86_400_000;

describe('mail outbox', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  // The app's own logger (silent in tests).
  const log = () => t.app.log;
  afterAll(() => t.close());

  it('sends each mail once, retries a refused one after 1, 2, 4, 8 minutes, then gives up', async () => {
    const db = t.database.handle.db;
    let now = new Date('2030-05-01T10:00:00Z');
    const clock = () => now;
    const mail = { to: 'x@example.test', subject: 'Hello', text: 'text', html: '<p>html</p>' };
    const [row] = await db.insert(mailOutbox).values(outboxRow(mail, now)).returning();
    const mailer = new FakeMailer();
    expect(await sendOutbox(db, mailer, clock, log())).toBe(1);
    expect(await sendOutbox(db, mailer, clock, log())).toBe(0);
    expect(mailer.sent).toEqual([mail]);

    await db.delete(mailOutbox).where(eq(mailOutbox.id, row!.id));
    const [refused] = await db.insert(mailOutbox).values(outboxRow(mail, now)).returning();
    mailer.accept = false;
    const waits: number[] = [];
    for (let attempt = 1; attempt <= OUTBOX_MAX_ATTEMPTS; attempt++) {
      await sendOutbox(db, mailer, clock, log());
      const [state] = await db.select().from(mailOutbox).where(eq(mailOutbox.id, refused!.id));
      if (state!.failedAt) break;
      waits.push((state!.nextAttemptAt.getTime() - now.getTime()) / MIN);
      // Nothing is tried before its time.
      expect(await sendOutbox(db, mailer, clock, log())).toBe(0);
      now = state!.nextAttemptAt;
    }
    expect(waits).toEqual([1, 2, 4, 8]);
    const [given] = await db.select().from(mailOutbox).where(eq(mailOutbox.id, refused!.id));
    expect(given).toMatchObject({ attempts: OUTBOX_MAX_ATTEMPTS, sentAt: null });
    expect(given!.failedAt).not.toBeNull();
  });

  it('a mail claimed by a process that died is sent after the claim expires', async () => {
    const db = t.database.handle.db;
    const now = new Date('2030-05-02T10:00:00Z');
    const [row] = await db
      .insert(mailOutbox)
      .values({
        ...outboxRow({ to: 'y@example.test', subject: 'S', text: 't', html: 'h' }, now),
        claimedUntil: new Date(now.getTime() + OUTBOX_CLAIM_MS),
        attempts: 1,
      })
      .returning();
    const mailer = new FakeMailer();
    expect(await sendOutbox(db, mailer, () => now, log())).toBe(0);
    expect(await sendOutbox(db, mailer, () => new Date(now.getTime() + OUTBOX_CLAIM_MS), log())).toBe(1);
    const [state] = await db.select().from(mailOutbox).where(eq(mailOutbox.id, row!.id));
    expect(state!.sentAt).not.toBeNull();
  });
  it('purges sent and given-up mails MAIL_RETENTION after, and never a mail still to send (housekeeping)', async () => {
    const db = t.database.handle.db;
    await db.delete(mailOutbox);
    const now = new Date('2030-06-01T10:00:00Z');
    const mail = (subject: string) => outboxRow({ to: 'kept@example.test', subject, text: 'text', html: '<p>html</p>' }, now);
    await db.insert(mailOutbox).values([
      { ...mail('sent long ago'), sentAt: new Date(now.getTime() - 8 * DAY) },
      { ...mail('given up long ago'), failedAt: new Date(now.getTime() - 8 * DAY) },
      { ...mail('sent yesterday'), sentAt: new Date(now.getTime() - DAY) },
      { ...mail('waiting for long'), createdAt: new Date(now.getTime() - 30 * DAY), nextAttemptAt: new Date(now.getTime() - 30 * DAY) },
    ]);
    // The default retention is 7 days (MAIL_RETENTION, docs/configuration.md).
    expect(t.config.MAIL_RETENTION).toBe(7 * DAY);
    await housekeep(db, now, purgeJobs({ ...t.config, LOGIN_ACCOUNT_WINDOW: 60_000, LOGIN_ADDRESS_WINDOW: 60_000, PASSWORD_MAIL_COOLDOWN: 60_000 }));
    const left = await db.select({ subject: mailOutbox.subject }).from(mailOutbox);
    expect(left.map((row) => row.subject).sort()).toEqual(['sent yesterday', 'waiting for long']);
    expect(await purgeMailOutbox(db, now)).toBe(1);
  });
});
