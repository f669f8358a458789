import { isIPv6 } from 'node:net';
import { and, eq, gt, gte, isNull, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { AppError } from '../shared/errors.js';
import { loginAccountFailures, loginThrottle } from '../db/schema.js';
import type { PurgeJob } from '../infrastructure/housekeeping/housekeeping.js';

export interface ThrottleRule {
  key: string;
  limit: number;
  windowMs: number;
}

/** How an account that keeps failing slows down: after `threshold` failures, waits of `baseMs` doubling up to `maxMs`. */
export interface DelayPolicy {
  threshold: number;
  baseMs: number;
  maxMs: number;
  /** A failure count is forgotten after this long without a failure. */
  quietMs: number;
}

/** The wait after `failures` failures, in SQL: doubling from the base, capped (the exponent too, against overflow). */
const delayAfter = (failures: SQL, policy: DelayPolicy): SQL =>
  sql`make_interval(secs => least(${policy.baseMs}::float8 * power(2::float8, least(${failures} - ${policy.threshold}, 40)), ${policy.maxMs}::float8) / 1000)`;

const retryAfterSeconds = (until: Date, now: Date) => Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000));

/**
 * Counters in PostgreSQL, so that every server process shares them: fixed windows (per address,
 * per account and address) counted before the password is checked by an atomic upsert, so
 * concurrent guesses cannot slip past a limit; and per account, failures with a growing delay.
 */
export class ThrottleRepository {
  constructor(private readonly db: Database) {}

  /** Counts one attempt; answers the count so far, and the seconds to wait when this attempt is over the limit. */
  async hit(rule: ThrottleRule, now: Date): Promise<{ attempts: number; retryAfter?: number }> {
    const windowStart = new Date(now.getTime() - rule.windowMs);
    // Raw fragments get ISO text: postgres.js under drizzle does not serialise Date parameters.
    const expired = sql`${loginThrottle.windowStartedAt} <= ${windowStart.toISOString()}::timestamptz`;
    const [row] = await this.db
      .insert(loginThrottle)
      .values({ key: rule.key, windowStartedAt: now, attempts: 1 })
      .onConflictDoUpdate({
        target: loginThrottle.key,
        set: {
          attempts: sql`case when ${expired} then 1 else ${loginThrottle.attempts} + 1 end`,
          windowStartedAt: sql`case when ${expired} then ${now.toISOString()}::timestamptz else ${loginThrottle.windowStartedAt} end`,
        },
      })
      .returning({ attempts: loginThrottle.attempts, windowStartedAt: loginThrottle.windowStartedAt });
    if (!row || row.attempts <= rule.limit) return { attempts: row?.attempts ?? 1 };
    return { attempts: row.attempts, retryAfter: retryAfterSeconds(new Date(row.windowStartedAt.getTime() + rule.windowMs), now) };
  }

  /** Takes back one counted attempt (one that was refused before anything was checked). */
  async unhit(key: string): Promise<void> {
    await this.db
      .update(loginThrottle)
      .set({ attempts: sql`greatest(${loginThrottle.attempts} - 1, 0)` })
      .where(eq(loginThrottle.key, key));
  }

  async forget(key: string): Promise<void> {
    await this.db.delete(loginThrottle).where(eq(loginThrottle.key, key));
  }

  async forgetStartingWith(prefix: string): Promise<void> {
    await this.db.delete(loginThrottle).where(sql`starts_with(${loginThrottle.key}, ${prefix})`);
  }

  /** One more failure of `account`; past the threshold it also sets how long failing addresses wait. */
  async recordFailure(account: string, now: Date, policy: DelayPolicy): Promise<void> {
    const at = sql`${now.toISOString()}::timestamptz`;
    const quiet = sql`${loginAccountFailures.lastFailedAt} <= ${new Date(now.getTime() - policy.quietMs).toISOString()}::timestamptz`;
    const next = sql`(case when ${quiet} then 1 else ${loginAccountFailures.failures} + 1 end)`;
    await this.db
      .insert(loginAccountFailures)
      .values({ account, failures: 1, lastFailedAt: now, blockedUntil: policy.threshold <= 1 ? sql`${at} + ${delayAfter(sql`1`, policy)}` : null })
      .onConflictDoUpdate({
        target: loginAccountFailures.account,
        set: { failures: next, lastFailedAt: now, blockedUntil: sql`case when ${next} >= ${policy.threshold} then ${at} + ${delayAfter(next, policy)} end` },
      });
  }

  /**
   * Whether an address that already failed on `account` may have its password checked now. If so
   * the slot is taken (the wait starts anew) in one conditional UPDATE, so of concurrent attempts
   * one goes ahead; otherwise answers the seconds to wait.
   */
  async claimSlot(account: string, now: Date, policy: DelayPolicy): Promise<number | undefined> {
    const active = and(
      eq(loginAccountFailures.account, account),
      gte(loginAccountFailures.failures, policy.threshold),
      gt(loginAccountFailures.lastFailedAt, new Date(now.getTime() - policy.quietMs)),
    );
    const [claimed] = await this.db
      .update(loginAccountFailures)
      .set({ blockedUntil: sql`${now.toISOString()}::timestamptz + ${delayAfter(sql`${loginAccountFailures.failures}`, policy)}` })
      .where(and(active, or(isNull(loginAccountFailures.blockedUntil), lte(loginAccountFailures.blockedUntil, now))))
      .returning({ account: loginAccountFailures.account });
    if (claimed) return undefined;
    const [blocked] = await this.db
      .select({ until: loginAccountFailures.blockedUntil })
      .from(loginAccountFailures)
      .where(and(active, gt(loginAccountFailures.blockedUntil, now)));
    return blocked?.until ? retryAfterSeconds(blocked.until, now) : undefined;
  }

  async forgetFailures(account: string): Promise<void> {
    await this.db.delete(loginAccountFailures).where(eq(loginAccountFailures.account, account));
  }

  async purgeOlderThan(cutoff: Date): Promise<void> {
    await this.db.delete(loginThrottle).where(lt(loginThrottle.windowStartedAt, cutoff));
    await this.db
      .delete(loginAccountFailures)
      .where(and(lt(loginAccountFailures.lastFailedAt, cutoff), or(isNull(loginAccountFailures.blockedUntil), lt(loginAccountFailures.blockedUntil, cutoff))));
  }
}

/**
 * The client part of a throttle key: an IPv4 address as it is (also when IPv6-mapped), an IPv6
 * address by its /64, the block one subscriber usually gets (else every address of it would be
 * a fresh client).
 */
export function clientKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  const plain = address.split('%')[0]!;
  if (!isIPv6(plain)) return address;
  const groupsOf = (part: string) => (part === '' ? [] : part.split(':').flatMap((group) => (group.includes('.') ? ['0', '0'] : [group])));
  const [left = '', right] = plain.toLowerCase().split('::');
  const head = groupsOf(left);
  const groups = right === undefined ? head : [...head, ...Array<string>(8 - head.length - groupsOf(right).length).fill('0'), ...groupsOf(right)];
  return `${groups
    .slice(0, 4)
    .map((group) => parseInt(group, 16).toString(16))
    .join(':')}::/64`;
}

export interface ThrottleLimits {
  /** Failed attempts on one account from one client address per window (LOGIN_MAX_FAILURES_PER_ACCOUNT). */
  maxFailuresPerAccount: number;
  accountWindowMs: number;
  /** Failures of one account from anywhere after which failing addresses wait (LOGIN_DELAY_AFTER_FAILURES). */
  delayAfterFailures: number;
  delayBaseMs: number;
  delayMaxMs: number;
  maxAttemptsPerAddress: number;
  addressWindowMs: number;
}

/**
 * Sign-in limits that bound guessing without handing anyone a lock-out (docs/behaviour.md,
 * "Sign-in limits"):
 * - per client address, all attempts (a fixed window);
 * - per account *and* address, failures: past the limit that address waits out the window, and
 *   only that address, so failures from one place never lock the owner out elsewhere;
 * - per account, failures from anywhere: past a threshold, an address that has already failed
 *   on the account must wait a doubling (capped) delay between password checks. An address with
 *   no failure on it is checked at once: the owner from their own device gets in.
 */
export class LoginThrottle {
  private readonly policy: DelayPolicy;

  constructor(
    private readonly repository: ThrottleRepository,
    private readonly limits: ThrottleLimits,
  ) {
    this.policy = { threshold: limits.delayAfterFailures, baseMs: limits.delayBaseMs, maxMs: limits.delayMaxMs, quietMs: limits.accountWindowMs };
  }

  private account = (email: string) => email.trim().toLowerCase();
  // The account part is URI-encoded: no typed address can contain the separator.
  private pairPrefix = (email: string) => `pair:${encodeURIComponent(this.account(email))}|`;
  private pairKey = (email: string, address: string) => `${this.pairPrefix(email)}${clientKey(address)}`;

  /** Counts every sign-in (and forgot/reset) attempt of a client address; 429 over the limit. */
  async attemptFromAddress(address: string, now: Date): Promise<void> {
    const { retryAfter } = await this.repository.hit(
      { key: `address:${clientKey(address)}`, limit: this.limits.maxAttemptsPerAddress, windowMs: this.limits.addressWindowMs },
      now,
    );
    if (retryAfter !== undefined) {
      throw new AppError('TOO_MANY_REQUESTS', 'Too many sign-in attempts from this address; try again later', { retryAfter });
    }
  }

  /**
   * Before a password of `email` is checked for `address`: counts the attempt for the pair (taken
   * back by `passwordAccepted`), and throws 429 when the pair is over its limit or, for an address
   * that already failed here, while the account's delay runs.
   */
  async beforePasswordCheck(email: string, address: string, now: Date): Promise<void> {
    const key = this.pairKey(email, address);
    const pair = await this.repository.hit({ key, limit: this.limits.maxFailuresPerAccount, windowMs: this.limits.accountWindowMs }, now);
    if (pair.retryAfter !== undefined) {
      throw new AppError('TOO_MANY_REQUESTS', 'Too many failed sign-ins for this account from this address; try again later', { retryAfter: pair.retryAfter });
    }
    if (pair.attempts <= 1) return;
    const retryAfter = await this.repository.claimSlot(this.account(email), now, this.policy);
    if (retryAfter !== undefined) {
      // Nothing was checked, so this refusal is no failure of the pair.
      await this.repository.unhit(key);
      throw new AppError('TOO_MANY_REQUESTS', 'This account had many failed sign-ins: wait before trying again from this address', { retryAfter });
    }
  }

  async passwordRefused(email: string, now: Date): Promise<void> {
    await this.repository.recordFailure(this.account(email), now, this.policy);
  }

  /** A right password clears the pair, so only failures add up; the account's count stays (the attack may go on). */
  async passwordAccepted(email: string, address: string): Promise<void> {
    await this.repository.forget(this.pairKey(email, address));
  }

  /** The owner proved control (a reset) or an admin set the password: every counter of the account goes. */
  async forgetAccount(email: string): Promise<void> {
    await Promise.all([this.repository.forgetStartingWith(this.pairPrefix(email)), this.repository.forgetFailures(this.account(email))]);
  }
}

/** Housekeeping (src/infrastructure/housekeeping): sign-in windows older than `retentionMs` (the longest throttle window). */
export const throttleWindowsPurge = (retentionMs: number): PurgeJob => ({
  name: 'old sign-in windows',
  purge: (db, now) => new ThrottleRepository(db).purgeOlderThan(new Date(now.getTime() - retentionMs)),
});
