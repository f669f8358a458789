import { randomUUID } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { queryRows, type Database } from '../../db/client.js';
import { outbox } from '../../db/schema.js';
import type { Clock } from '../../shared/clock.js';
import type { PurgeJob } from '../housekeeping/housekeeping.js';
import { DEFAULT_BACKOFF, isDead, retryDelayMs, type Backoff } from './backoff.js';

/**
 * The one outbox (docs/architecture.md#the-outbox): every message the service sends is a row of
 * `outbox`, written in the transaction that decided it, and sent by the outbox job of any server
 * process through the handler its kind registered. This folder knows no module: kinds are
 * registered by the composition (src/app.ts) from what the modules define.
 *
 * - A claim takes, for one group (a kind's `group_key`, the person), the due rows of its oldest
 *   topic (rows of one topic go out as one message; a row without a topic is a topic of its own),
 *   marks them `sending` with a lease and a claim token, and counts an attempt. Groups are served
 *   in turn: the one whose last message went out longest ago first. One group has at most one
 *   live claim at a time (a transaction-scoped advisory lock per group while claiming, and rows
 *   taken FOR UPDATE SKIP LOCKED), so two processes never send one row, nor two messages of one
 *   person at once.
 * - A kind may limit the messages one group is sent per window (`perGroup`): a group with none left
 *   waits; one with more topics due than messages left has all its due rows claimed as one (a digest).
 * - After the handler: rows whose claim sent a message are `sent` (kept MAIL_RETENTION); rows
 *   whose claim sent nothing (nothing was left to say) are deleted; a failure sets them back to
 *   `pending` with a next attempt (retryDelayMs) or, after the kind's attempts, `dead` (kept
 *   OUTBOX_DEAD_RETENTION, listed for admins, retried by them).
 * - A process that dies after claiming leaves the rows `sending`; once the lease is over another
 *   process claims them again: delivery is at least once, and once in all but that case.
 */

export type OutboxPayload = Record<string, unknown>;

/** One message to queue. */
export interface OutboxMessage {
  kind: string;
  /** Whom it goes to, as the kind knows them (a user id, an address): fairness, limits and digests are per group. */
  groupKey: string;
  /** Rows of one group and topic go out as one message (a series' occurrences). */
  topic?: string;
  /** What the handler needs at sending time; never a secret (it is stored in clear). */
  payload: OutboxPayload;
}

/** A claimed row, as the handler gets it. */
export interface OutboxRow<P = OutboxPayload> {
  id: number;
  groupKey: string;
  topic: string | null;
  payload: P;
  /** Tries so far, this one included. */
  attempts: number;
  createdAt: Date;
}

/** How one kind of message is sent. */
export interface OutboxKind<P = OutboxPayload> {
  kind: string;
  /**
   * Sends the claimed rows (one group; one topic, or a digest of all its due rows) and answers how
   * many messages went out (0: nothing was left to say; the rows are deleted). Throws when a
   * message could not be sent (DeliveryFailed carries how many went out before).
   */
  deliver(rows: OutboxRow<P>[], signal: AbortSignal): Promise<number>;
  /** At most `limit` messages per group per `windowMs` (counted from the window's first message). */
  perGroup?: { limit: number; windowMs: number };
  /** Tries before a row is dead (default 10). */
  maxAttempts?: number;
}

/** A message could not be sent; `sent` messages of the same claim went out before. */
export class DeliveryFailed extends Error {
  constructor(
    message: string,
    readonly sent = 0,
  ) {
    super(message);
    this.name = 'DeliveryFailed';
  }
}

export interface Claim {
  kind: string;
  token: string;
  rows: OutboxRow[];
}

export interface OutboxSettings {
  /** OUTBOX_LEASE: how long a claim lasts before another process may take the rows over. */
  leaseMs: number;
  backoff?: Backoff;
}

const DEFAULT_MAX_ATTEMPTS = 10;
/** Claims one drain makes at most (the next run continues). */
const CLAIMS_PER_DRAIN = 1000;
/**
 * Groups one claim looks at (docs/architecture.md#the-outbox, "Claim"): the next this many groups
 * with open rows after the last window, in group_key order, read from outbox_open_idx one key at a
 * time. A claim's work is bounded by it, whatever the backlog; with no more groups than this, a
 * claim sees them all.
 */
export const CLAIM_WINDOW = 50;
/** Open rows of one group a claim reads to find its first due row (and, for a limited kind, its topics). */
const GROUP_ROWS = 100;
/** Rows of a discarded kind deleted per statement. */
const DISCARD_BATCH = 1000;
/** The stored error is a short sentence: never a payload, and bounded. */
const ERROR_LENGTH = 300;

/** Queues messages with `db`: the caller's transaction, so a message exists exactly when what decided it was committed. */
export async function enqueue(db: Database, messages: OutboxMessage[]): Promise<void> {
  if (messages.length === 0) return;
  await db
    .insert(outbox)
    .values(messages.map((message) => ({ kind: message.kind, groupKey: message.groupKey, topic: message.topic ?? null, payload: message.payload })));
}

const iso = (date: Date) => sql`${date.toISOString()}::timestamptz`;

/** Rows that may be claimed at `now`: pending and due, or claimed by a process whose lease ran out. */
const claimable = (alias: SQL, now: Date) =>
  sql`((${alias}.status = 'pending' and (${alias}.next_attempt_at is null or ${alias}.next_attempt_at <= ${iso(now)}))
       or (${alias}.status = 'sending' and ${alias}.lease_until <= ${iso(now)}))`;

/** No live claim holds rows of the group. */
const groupFree = (kind: string, groupKey: SQL, now: Date) =>
  sql`not exists (select 1 from outbox s where s.kind = ${kind} and s.group_key = ${groupKey} and s.status = 'sending' and s.lease_until > ${iso(now)})`;

const topicOf = (alias: SQL) => sql`coalesce(${alias}.topic, ${alias}.id::text)`;

interface RawRow {
  id: string | number;
  group_key: string;
  topic: string | null;
  payload: OutboxPayload;
  attempts: number;
  created_at: string | Date;
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, ERROR_LENGTH);

export class Outbox {
  private readonly kinds = new Map<string, OutboxKind>();
  private readonly discarded = new Map<string, string>();
  /** Per kind, the last group key of the window the last claim looked at ('' : from the start). */
  private readonly windows = new Map<string, string>();
  private readonly backoff: Backoff;

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
    private readonly settings: OutboxSettings,
  ) {
    this.backoff = settings.backoff ?? DEFAULT_BACKOFF;
  }

  /** Registers the handler of a kind (the next channel, push or webhooks, is one more of these). */
  register<P>(kind: OutboxKind<P>): void {
    if (this.kinds.has(kind.kind) || this.discarded.has(kind.kind)) throw new Error(`outbox kind ${kind.kind} is registered twice`);
    this.kinds.set(kind.kind, kind as unknown as OutboxKind);
  }

  /** Rows of this kind cannot be sent by this service (no SMTP_URL): the drain deletes them unsent, saying why in the log. */
  discard(kind: string, reason: string): void {
    if (this.kinds.has(kind) || this.discarded.has(kind)) throw new Error(`outbox kind ${kind} is registered twice`);
    this.discarded.set(kind, reason);
  }

  /**
   * Claims and sends what is due until nothing is (or CLAIMS_PER_DRAIN claims), the kinds taking
   * turns claim by claim. Answers the messages sent, and whether it stopped with work left. The
   * outbox job runs it.
   */
  async drain(signal: AbortSignal = new AbortController().signal): Promise<{ sent: number; more: boolean }> {
    for (const [kind, reason] of this.discarded) {
      let dropped = 0;
      for (let batch = DISCARD_BATCH; batch === DISCARD_BATCH && !signal.aborted; dropped += batch) batch = await this.dropDue(kind, DISCARD_BATCH);
      if (dropped > 0) this.log.warn({ kind, dropped }, `outbox: messages dropped unsent: ${reason}`);
    }
    let sent = 0;
    let claims = 0;
    for (;;) {
      let progressed = false;
      for (const kind of this.kinds.keys()) {
        if (signal.aborted) return { sent, more: true };
        const claim = await this.claim(kind);
        if (!claim) continue;
        progressed = true;
        claims++;
        sent += await this.deliver(claim, signal);
      }
      if (!progressed) return { sent, more: false };
      if (claims >= CLAIMS_PER_DRAIN) return { sent, more: true };
    }
  }

  /**
   * Claims the next group of `kind` that is due (see the file's comment), or answers undefined.
   * Exported for tests that play a process dying after its claim.
   */
  async claim(kind: string): Promise<Claim | undefined> {
    const handler = this.kinds.get(kind);
    if (!handler) throw new Error(`no outbox kind ${kind}`);
    // Windows in turn from where the last claim stopped, wrapping once, until one has a due group.
    const start = this.windows.get(kind) ?? '';
    let after = start;
    let wrapped = false;
    for (;;) {
      const { claim, lastKey, passed } = await this.claimIn(kind, handler, after, start);
      if (claim) {
        this.windows.set(kind, lastKey ?? '');
        return claim;
      }
      if (lastKey === null) {
        // The last group was looked at: done, unless the groups before `start` are still to see.
        if (wrapped || start === '') return undefined;
        wrapped = true;
        after = '';
      } else {
        // Back where this claim started: every group was looked at.
        if (wrapped && passed) return undefined;
        after = lastKey;
      }
    }
  }

  /**
   * The claim of the best group among the CLAIM_WINDOW groups with open rows after `after`
   * (group_key order), the window's last key (null: the window reached the last group) and
   * whether that key is at or after `start` (compared by the database, in its collation).
   */
  private async claimIn(kind: string, handler: OutboxKind, after: string, start: string): Promise<{ claim?: Claim; lastKey: string | null; passed: boolean }> {
    const now = this.clock.now();
    const until = new Date(now.getTime() + this.settings.leaseMs);
    const token = randomUUID();
    const limit = handler.perGroup;
    const messagesLeft = limit
      ? sql`${limit.limit} - coalesce(case when g.window_started_at > ${iso(new Date(now.getTime() - limit.windowMs))} then g.messages end, 0)`
      : sql`null::int`;
    // A group's first open rows (the index's order within a group), at most GROUP_ROWS of them.
    const firstRows = (groupKey: SQL) =>
      sql`(select r.id, r.topic, r.status, r.next_attempt_at, r.lease_until from outbox r
           where r.kind = ${kind} and r.group_key = ${groupKey} and r.status in ('pending', 'sending') order by r.id limit ${GROUP_ROWS})`;
    const open = sql`o.kind = ${kind} and o.status in ('pending', 'sending')`;
    return this.db.transaction(async (transaction) => {
      const tx = transaction as unknown as Database;
      // The window: the next CLAIM_WINDOW group keys with open rows after `after`, one index probe
      // each (a skip scan of outbox_open_idx), never all the rows; then, per group, its first due
      // row, whether a live claim holds it, and its counts. One row at least: the window's last key.
      const candidates = await queryRows<{
        group_key: string | null;
        first_id: string;
        first_topic: string | null;
        topics: number | null;
        left: number | null;
        last_key: string | null;
        passed: boolean | null;
      }>(
        tx,
        sql`with recursive window_keys (group_key, n) as (
              (select o.group_key, 1 from outbox o where ${open} and o.group_key > ${after} order by o.group_key limit 1)
              union all
              select (select o.group_key from outbox o where ${open} and o.group_key > w.group_key order by o.group_key limit 1), w.n + 1
              from window_keys w where w.group_key is not null and w.n < ${CLAIM_WINDOW}
            )
            select c.*, l.last_key, l.last_key >= ${start} as passed
            from (select (select w.group_key from window_keys w where w.n = ${CLAIM_WINDOW}) as last_key) l left join lateral (
              select w.group_key, f.id as first_id, f.topic as first_topic, ${
                limit
                  ? sql`(select count(distinct ${topicOf(sql`t`)})::int from ${firstRows(sql`w.group_key`)} t where ${claimable(sql`t`, now)})`
                  : sql`null::int`
              } as topics, ${messagesLeft} as left
              from window_keys w
              cross join lateral (select d.id, d.topic from ${firstRows(sql`w.group_key`)} d where ${claimable(sql`d`, now)} order by d.id limit 1) f
              left join outbox_groups g on g.kind = ${kind} and g.group_key = w.group_key
              where w.group_key is not null and ${groupFree(kind, sql`w.group_key`, now)}
                ${limit ? sql`and ${messagesLeft} > 0` : sql``}
              order by coalesce(g.last_sent_at, '-infinity'), f.id
              limit 10) c on true`,
      );
      const lastKey = candidates[0]?.last_key ?? null;
      const passed = candidates[0]?.passed === true;
      for (const candidate of candidates) {
        if (candidate.group_key === null) continue;
        const [lock] = await queryRows<{ locked: boolean }>(
          tx,
          sql`select pg_try_advisory_xact_lock(hashtext(${`outbox ${kind}`}), hashtext(${candidate.group_key})) as locked`,
        );
        if (!lock?.locked) continue;
        // More topics than messages left: the rest go out folded into this one claim.
        const fold = candidate.left !== null && Number(candidate.topics) > Number(candidate.left);
        // One topic: a row without a topic is its own (taken by its id, no scan of the group).
        const which = fold
          ? sql``
          : candidate.first_topic === null
            ? sql`and o.id = ${Number(candidate.first_id)}`
            : sql`and o.topic = ${candidate.first_topic}`;
        const rows = await queryRows<RawRow>(
          tx,
          sql`update outbox set status = 'sending', lease_until = ${iso(until)}, claim_token = ${token}::uuid, attempts = attempts + 1
              where id in (
                select o.id from outbox o
                where ${open} and o.group_key = ${candidate.group_key} and ${claimable(sql`o`, now)} ${which}
                  and ${groupFree(kind, sql`${candidate.group_key}`, now)}
                for update skip locked)
              returning id, group_key, topic, payload, attempts, created_at`,
        );
        if (rows.length > 0) {
          return {
            lastKey,
            passed,
            claim: {
              kind,
              token,
              rows: rows
                .map((row) => ({
                  id: Number(row.id),
                  groupKey: row.group_key,
                  topic: row.topic,
                  payload: row.payload,
                  attempts: Number(row.attempts),
                  createdAt: new Date(row.created_at),
                }))
                .sort((a, b) => a.id - b.id),
            },
          };
        }
      }
      return { lastKey, passed };
    });
  }

  /** Runs the kind's handler on a claim and records the outcome; answers the messages sent. */
  async deliver(claim: Claim, signal: AbortSignal = new AbortController().signal): Promise<number> {
    const handler = this.kinds.get(claim.kind)!;
    let sent: number;
    try {
      sent = await handler.deliver(claim.rows, signal);
    } catch (error) {
      const partly = error instanceof DeliveryFailed ? error.sent : 0;
      await this.failed(claim, handler, errorText(error), partly);
      return partly;
    }
    const now = this.clock.now();
    const ids = sql.join(
      claim.rows.map((row) => sql`${row.id}`),
      sql`, `,
    );
    if (sent === 0) {
      await this.db.execute(sql`delete from outbox where claim_token = ${claim.token}::uuid and status = 'sending' and id in (${ids})`);
      return 0;
    }
    await this.db.execute(
      sql`update outbox set status = 'sent', sent_at = ${iso(now)}, lease_until = null, claim_token = null, last_error = null
          where claim_token = ${claim.token}::uuid and status = 'sending' and id in (${ids})`,
    );
    await this.countMessages(claim.kind, claim.rows[0]!.groupKey, sent, now, handler.perGroup?.windowMs ?? 0);
    return sent;
  }

  /** The claim's message failed: each row waits its backoff, or is dead after the kind's attempts. */
  private async failed(claim: Claim, handler: OutboxKind, error: string, sent: number): Promise<void> {
    const now = this.clock.now();
    const maxAttempts = handler.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
    const byAttempts = new Map<number, OutboxRow[]>();
    for (const row of claim.rows) byAttempts.set(row.attempts, [...(byAttempts.get(row.attempts) ?? []), row]);
    for (const [attempts, rows] of byAttempts) {
      const ids = sql.join(
        rows.map((row) => sql`${row.id}`),
        sql`, `,
      );
      const dead = isDead(attempts, maxAttempts);
      const set = dead
        ? sql`status = 'dead', dead_at = ${iso(now)}, next_attempt_at = null`
        : sql`status = 'pending', next_attempt_at = ${iso(new Date(now.getTime() + retryDelayMs(attempts, this.backoff)))}`;
      await this.db.execute(
        sql`update outbox set ${set}, lease_until = null, claim_token = null, last_error = ${error}
            where claim_token = ${claim.token}::uuid and status = 'sending' and id in (${ids})`,
      );
      if (dead) this.log.error({ kind: claim.kind, rows: rows.map((row) => row.id), attempts, error }, 'outbox: message given up (dead)');
    }
    if (sent > 0) await this.countMessages(claim.kind, claim.rows[0]!.groupKey, sent, now, handler.perGroup?.windowMs ?? 0);
  }

  /** `messages` went out to the group at `now`: counted in its window (a new one when the last is over), and it was served now. */
  private async countMessages(kind: string, groupKey: string, messages: number, now: Date, windowMs: number): Promise<void> {
    const windowOpen = sql`outbox_groups.window_started_at > ${iso(new Date(now.getTime() - windowMs))}`;
    await this.db.execute(
      sql`insert into outbox_groups (kind, group_key, window_started_at, messages, last_sent_at) values (${kind}, ${groupKey}, ${iso(now)}, ${messages}, ${iso(now)})
          on conflict (kind, group_key) do update set
            messages = case when ${windowOpen} then outbox_groups.messages + ${messages} else ${messages} end,
            window_started_at = case when ${windowOpen} then outbox_groups.window_started_at else ${iso(now)} end,
            last_sent_at = ${iso(now)}`,
    );
  }

  /** Deletes up to `limit` claimable rows of a discarded kind (rows another process holds are skipped). */
  private async dropDue(kind: string, limit: number): Promise<number> {
    const now = this.clock.now();
    const rows = await queryRows<{ id: string }>(
      this.db,
      sql`delete from outbox where id in (
            select o.id from outbox o where o.kind = ${kind} and o.status in ('pending', 'sending') and ${claimable(sql`o`, now)}
            order by o.id limit ${limit} for update skip locked)
          returning id`,
    );
    return rows.length;
  }
}

/** Deletes every row and count of these groups, whatever their state (a user deleted: nothing is sent to them, nothing of them is kept). */
export async function forgetGroups(db: Database, groupKeys: string[]): Promise<void> {
  if (groupKeys.length === 0) return;
  const keys = sql.join(
    groupKeys.map((key) => sql`${key}`),
    sql`, `,
  );
  await db.execute(sql`delete from outbox where group_key in (${keys})`);
  await db.execute(sql`delete from outbox_groups where group_key in (${keys})`);
}

/**
 * An admin sends a dead row again (POST /api/admin/outbox/{id}/retry): it is pending at once with
 * its attempts reset. Answers what was found: the row was dead and is pending now, it is not dead,
 * or there is no such row.
 */
export async function retryDead(db: Database, id: number): Promise<'retried' | 'not-dead' | 'not-found'> {
  const [row] = await queryRows<{ retried: boolean }>(
    db,
    sql`with target as (select id, status from outbox where id = ${id} for update),
             retried as (update outbox o set status = 'pending', attempts = 0, next_attempt_at = null, dead_at = null
                         from target where o.id = target.id and target.status = 'dead' returning o.id)
        select exists (select 1 from retried) as retried from target`,
  );
  if (!row) return 'not-found';
  return row.retried ? 'retried' : 'not-dead';
}

/**
 * Housekeeping (src/infrastructure/housekeeping): sent rows older than `sentRetentionMs`, dead ones
 * older than `deadRetentionMs`, and the per-group counts of groups served longer ago than either.
 */
export const outboxPurge = (sentRetentionMs: number, deadRetentionMs: number): PurgeJob => ({
  name: 'sent and dead messages',
  purge: async (db, now) => {
    const sentBefore = iso(new Date(now.getTime() - sentRetentionMs));
    const deadBefore = iso(new Date(now.getTime() - deadRetentionMs));
    await db.execute(sql`delete from outbox where status = 'sent' and sent_at < ${sentBefore}`);
    await db.execute(sql`delete from outbox where status = 'dead' and dead_at < ${deadBefore}`);
    // At least a day: a group's window (an hour for invitations) must outlive its last message.
    const groupsBefore = iso(new Date(now.getTime() - Math.max(sentRetentionMs, deadRetentionMs, 86_400_000)));
    await db.execute(sql`delete from outbox_groups where last_sent_at < ${groupsBefore}`);
  },
});
