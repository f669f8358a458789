import { eq, lt, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { AppError } from '../../shared/errors.js';
import { loginThrottle } from '../../db/schema.js';

export interface ThrottleRule {
  key: string;
  limit: number;
  windowMs: number;
}

/**
 * Fixed-window counters in PostgreSQL, so that every server process shares them. An attempt is
 * counted before the password is checked (an atomic upsert), so concurrent guesses cannot slip
 * past the limit; `forget` clears an account's count after a successful sign-in.
 */
export class ThrottleRepository {
  constructor(private readonly db: Database) {}

  /** Counts one attempt; answers the seconds to wait when this attempt is over the limit. */
  async hit(rule: ThrottleRule, now: Date): Promise<number | undefined> {
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
    if (!row || row.attempts <= rule.limit) return undefined;
    return Math.max(1, Math.ceil((row.windowStartedAt.getTime() + rule.windowMs - now.getTime()) / 1000));
  }

  async forget(key: string): Promise<void> {
    await this.db.delete(loginThrottle).where(eq(loginThrottle.key, key));
  }

  async purgeOlderThan(cutoff: Date): Promise<void> {
    await this.db.delete(loginThrottle).where(lt(loginThrottle.windowStartedAt, cutoff));
  }
}

export interface ThrottleLimits {
  maxFailuresPerAccount: number;
  accountWindowMs: number;
  maxAttemptsPerAddress: number;
  addressWindowMs: number;
}

/** The sign-in limits of docs/behaviour.md#authentication-and-sessions, per account and per client address. */
export class LoginThrottle {
  constructor(
    private readonly repository: ThrottleRepository,
    private readonly limits: ThrottleLimits,
  ) {}

  private accountKey = (email: string) => `account:${email.trim().toLowerCase()}`;

  /** Counts a password attempt on an account; throws 429 once the account is over its limit. */
  async attemptOnAccount(email: string, now: Date): Promise<void> {
    const retryAfter = await this.repository.hit({ key: this.accountKey(email), limit: this.limits.maxFailuresPerAccount, windowMs: this.limits.accountWindowMs }, now);
    if (retryAfter !== undefined) {
      throw new AppError('TOO_MANY_REQUESTS', 'Too many failed sign-ins for this account; try again later', { retryAfter });
    }
  }

  /** A right password clears the account's count, so only failures add up. */
  async succeededOnAccount(email: string): Promise<void> {
    await this.repository.forget(this.accountKey(email));
  }

  async attemptFromAddress(address: string, now: Date): Promise<void> {
    const retryAfter = await this.repository.hit({ key: `address:${address}`, limit: this.limits.maxAttemptsPerAddress, windowMs: this.limits.addressWindowMs }, now);
    if (retryAfter !== undefined) {
      throw new AppError('TOO_MANY_REQUESTS', 'Too many sign-in attempts from this address; try again later', { retryAfter });
    }
  }
}
