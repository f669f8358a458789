import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { queryRows, type Database } from './client.js';
import { isDatabaseUnavailable, pgErrorCode, PG } from './errors.js';

/**
 * Where the heavy reads run (docs/deployment.md#with-a-read-replica): search, reservation lists,
 * floor-plan availability, calendar feeds and statistics. Everything else, above all every write and every
 * check that guards one, keeps the primary's `db`.
 */
export interface ReadRouting {
  /** True when a read replica is configured (writes then record their WAL position). */
  readonly replicated: boolean;
  /**
   * Runs `work` on the replica when it has replayed the caller's last write (`lastWrite`, the
   * position authentication read with the user; null or undefined: none recorded) and lags no
   * more than the bound; otherwise, or when the replica fails, on the primary.
   */
  read<T>(lastWrite: string | null | undefined, work: (db: Database) => Promise<T>): Promise<T>;
  /** Records the primary's WAL position after a caller's write committed, before it is answered. */
  recordWrite(userId: string): Promise<void>;
}

/** No replica: every read runs on the primary, with no statement added. */
export const primaryOnly = (db: Database): ReadRouting => ({
  replicated: false,
  read: (_lastWrite, work) => work(db),
  recordWrite: async () => {},
});

/** A WAL position ('16/B374D848': two 32-bit halves in hex) as a number, compared as PostgreSQL's pg_lsn is. */
export function lsnValue(lsn: string): bigint {
  const match = /^([0-9A-F]{1,8})\/([0-9A-F]{1,8})$/i.exec(lsn);
  if (!match) throw new Error(`not a WAL position: ${lsn}`);
  return (BigInt(`0x${match[1]}`) << 32n) | BigInt(`0x${match[2]}`);
}

export interface ReplicaOptions {
  /** Reads of others' data may be this stale at most; a replica further behind serves nothing. */
  maxLagMs: number;
  /** How often the replay position of the replica (and the primary's position) is read. */
  refreshMs: number;
  /** A refresh answered later than this counts as a failure. */
  timeoutMs: number;
  /** After a failure the replica serves nothing for this long. */
  restMs: number;
}

export const REPLICA_DEFAULTS: Omit<ReplicaOptions, 'maxLagMs'> = { refreshMs: 200, timeoutMs: 1000, restMs: 5000 };

class RefreshTimeout extends Error {
  override name = 'RefreshTimeout';
}

/** Errors after which a read is run again on the primary: the replica cannot answer it now. */
function isReplicaTrouble(error: unknown): boolean {
  // 40001 on a standby: a statement cancelled by a conflict with recovery (docs/deployment.md#with-a-read-replica).
  return isDatabaseUnavailable(error) || pgErrorCode(error) === PG.SERIALIZATION_FAILURE || error instanceof RefreshTimeout;
}

/**
 * Routes reads between the primary and a streaming replica. Every `refreshMs` it reads the
 * primary's WAL insert position (taking the time the statement was sent) and then the replica's
 * replay position. The replica holds everything committed before time t once it replayed past
 * the primary's position sampled at t, so the newest sample it replayed past bounds how stale it
 * is; beyond maxLagMs it serves nothing. A caller whose last write lies beyond the replay
 * position reads the primary. A replica that fails (refused, broken, timed out, cancelled by a
 * recovery conflict) serves nothing for restMs, and the read it failed runs on the primary: its
 * errors never reach the caller nor the primary's circuit breaker.
 */
export class ReplicaRouter implements ReadRouting {
  readonly replicated = true;
  /** The replica's replay position at the last refresh (it only grows). */
  private replayed = -1n;
  /** Positions of the primary and when they were asked for, oldest first, the last maxLagMs only. */
  private samples: { at: number; lsn: bigint }[] = [];
  /** The replica may serve until then (its staleness reaches maxLagMs). */
  private freshUntil = 0;
  private restUntil = 0;
  private timer: NodeJS.Timeout | undefined;
  private stopped = true;
  private failing = false;

  constructor(
    private readonly primary: Database,
    private readonly replica: Database,
    private readonly log: Pick<FastifyBaseLogger, 'warn' | 'info'>,
    private readonly options: ReplicaOptions,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Whether a read with this last write would go to the replica now (tests, logs). */
  usableFor(lastWrite: string | null | undefined): boolean {
    const now = this.now();
    if (now >= this.freshUntil || now < this.restUntil) return false;
    return lastWrite === null || lastWrite === undefined || lsnValue(lastWrite) <= this.replayed;
  }

  async read<T>(lastWrite: string | null | undefined, work: (db: Database) => Promise<T>): Promise<T> {
    if (!this.usableFor(lastWrite)) return work(this.primary);
    try {
      return await work(this.replica);
    } catch (error) {
      if (!isReplicaTrouble(error)) throw error;
      this.rest(error);
      return work(this.primary);
    }
  }

  async recordWrite(userId: string): Promise<void> {
    // The insert position, not the flushed one: it lies past the caller's commit record even
    // under synchronous_commit = off.
    await this.primary.execute(sql`update users set last_write_lsn = pg_current_wal_insert_lsn() where id = ${userId}`);
  }

  start(): void {
    this.stopped = false;
    const tick = () => {
      void this.refresh().finally(() => {
        if (this.stopped) return;
        this.timer = setTimeout(tick, this.options.refreshMs);
        this.timer.unref();
      });
    };
    tick();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  /** Reads both positions once; a failure on the replica's side makes it rest. */
  async refresh(): Promise<void> {
    const at = this.now();
    let primaryLsn: bigint;
    try {
      const [row] = await this.bounded(queryRows<{ lsn: string }>(this.primary, sql`select pg_current_wal_insert_lsn()::text as lsn`));
      primaryLsn = lsnValue(row!.lsn);
    } catch {
      // The primary's own troubles are the circuit breaker's (src/infrastructure/database-gate/breaker.ts); the replica
      // is judged by the samples taken before.
      primaryLsn = -1n;
    }
    if (primaryLsn >= 0n) this.samples.push({ at, lsn: primaryLsn });
    try {
      // A read URL that names a primary (no recovery) is as current as it gets.
      const [row] = await this.bounded(
        queryRows<{ lsn: string | null }>(
          this.replica,
          sql`select (case when pg_is_in_recovery() then pg_last_wal_replay_lsn() else pg_current_wal_insert_lsn() end)::text as lsn`,
        ),
      );
      if (row?.lsn === null || row?.lsn === undefined) throw new Error('the replica reports no replay position (not a streaming standby?)');
      const replayed = lsnValue(row.lsn);
      if (replayed > this.replayed) this.replayed = replayed;
      if (this.failing) this.log.info('the read replica answers again');
      this.failing = false;
    } catch (error) {
      this.rest(error);
    }
    this.judge();
  }

  /** freshUntil from the newest sample the replica replayed past; samples older than the bound go. */
  private judge(): void {
    const horizon = this.now() - this.options.maxLagMs;
    let newestReplayed: number | undefined;
    for (const sample of this.samples) if (sample.lsn <= this.replayed) newestReplayed = sample.at;
    // Keep the newest replayed sample even when it is old: it still bounds the staleness.
    this.samples = this.samples.filter((sample) => sample.at >= horizon || sample.at === newestReplayed);
    this.freshUntil = newestReplayed === undefined ? 0 : newestReplayed + this.options.maxLagMs;
  }

  private rest(error: unknown): void {
    this.restUntil = this.now() + this.options.restMs;
    if (!this.failing) this.log.warn({ err: error }, `the read replica failed: reads use the primary for at least ${this.options.restMs} ms`);
    this.failing = true;
  }

  private async bounded<T>(work: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([
        work,
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new RefreshTimeout(`no answer within ${this.options.timeoutMs} ms`)), this.options.timeoutMs);
        }),
      ]);
    } finally {
      clearTimeout(timer);
    }
  }
}
