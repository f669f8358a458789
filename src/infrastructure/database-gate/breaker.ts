import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '../../shared/errors.js';
import { isConnectionFailure } from '../../db/errors.js';

/** Seconds a client is asked to wait (Retry-After) while the database cannot be reached. */
export const OUTAGE_RETRY_AFTER_S = 2;

export const databaseUnavailable = (detail = 'The database cannot be reached; try again shortly'): AppError =>
  new AppError('SERVICE_UNAVAILABLE', detail, { retryAfter: OUTAGE_RETRY_AFTER_S });

export interface BreakerOptions {
  /** How often a background ping asks an unreachable database whether it is back. */
  probeIntervalMs: number;
  /** A ping that takes longer counts as no answer. */
  probeTimeoutMs: number;
}

class PingTimeout extends Error {
  override name = 'PingTimeout';
}

/**
 * A circuit breaker in front of the database (docs/behaviour.md, Health and database outages).
 * Without it, every request during an outage queues in the driver behind reconnection attempts
 * and hangs for as long as the outage lasts. An error that shows a connection failed makes the
 * breaker ping the database at once: if the ping fails too, the breaker opens and requests that
 * need the database answer 503 at once, until a background ping gets an answer again. One
 * broken connection while the database answers (a restarted pooler, a killed backend) opens
 * nothing, nor does a slow query or a statement timeout (one request's problem, not an outage).
 */
export class DatabaseBreaker {
  private state: 'up' | 'verifying' | 'down' = 'up';
  private stopped = false;
  private probe: NodeJS.Timeout | undefined;

  constructor(
    private readonly ping: () => Promise<unknown>,
    private readonly log: Pick<FastifyBaseLogger, 'warn' | 'info'>,
    private readonly options: BreakerOptions = { probeIntervalMs: 500, probeTimeoutMs: 1000 },
    /** A ping over a connection of its own (DatabaseHandle.probe): answers even when the pool is stuck. */
    private readonly probeAlone?: () => Promise<unknown>,
  ) {}

  /** Whether a stalled database can be told from a busy pool (a probe of its own exists). */
  get canProbe(): boolean {
    return this.probeAlone !== undefined;
  }

  /**
   * Requests are waiting on the database and none has finished for a while (plugins/database-gate.ts):
   * a database that accepts connections but does not answer (stopped, hung, a stalled network)
   * raises no error at all. A probe over a fresh connection tells it from a busy pool; no answer
   * within the probe timeout opens the breaker (docs/behaviour.md#health-and-database-outages).
   */
  suspect(): void {
    if (this.state !== 'up' || this.stopped || !this.probeAlone) return;
    this.verify(this.probeAlone);
  }

  get available(): boolean {
    return this.state !== 'down';
  }

  /** Told every error a request ran into; a failed connection makes it check the database. */
  observe(error: unknown): void {
    if (this.state !== 'up' || this.stopped || !isConnectionFailure(error)) return;
    this.verify(this.ping, error);
  }

  /** Pings the database once (readiness); an answer within the timeout closes the breaker. */
  async check(timeoutMs = this.options.probeTimeoutMs): Promise<boolean> {
    const failure = await this.attempt(timeoutMs);
    if (failure === undefined) {
      this.markUp();
      return true;
    }
    this.observe(failure);
    return false;
  }

  /** Ends the background ping (the service is closing). */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.probe);
  }

  /** Pings once with `ping`: an answer keeps the breaker closed, none opens it (logging `cause`, else what the ping ran into). */
  private verify(ping: () => Promise<unknown>, cause?: unknown): void {
    this.state = 'verifying';
    void this.attempt(this.options.probeTimeoutMs, ping).then((failure) => {
      if (failure === undefined) this.markUp();
      else if (this.state === 'verifying') this.markDown(cause ?? failure);
    });
  }

  /** One ping: undefined when the database answered in time, else what went wrong. */
  private async attempt(timeoutMs = this.options.probeTimeoutMs, ping = this.ping): Promise<unknown> {
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        ping(),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new PingTimeout(`no answer within ${timeoutMs} ms`)), timeoutMs);
        }),
      ]);
      return undefined;
    } catch (error) {
      return error ?? new Error('ping failed');
    } finally {
      clearTimeout(timer);
    }
  }

  private markUp(): void {
    if (this.state === 'down') this.log.info('the database answers again');
    this.state = 'up';
    clearTimeout(this.probe);
  }

  private markDown(cause: unknown): void {
    this.state = 'down';
    this.log.warn({ err: cause }, 'the database cannot be reached: answering 503 until it answers again');
    this.scheduleProbe();
  }

  private scheduleProbe(): void {
    if (this.stopped) return;
    this.probe = setTimeout(() => {
      void this.attempt().then((failure) => {
        if (failure === undefined) this.markUp();
        else if (this.state === 'down') this.scheduleProbe();
      });
    }, this.options.probeIntervalMs);
    this.probe.unref();
  }
}
