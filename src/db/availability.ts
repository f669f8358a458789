import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '../shared/errors.js';
import { isConnectionFailure } from './errors.js';

/** Seconds a client is asked to wait (Retry-After) while the database cannot be reached. */
export const OUTAGE_RETRY_AFTER_S = 2;

export const databaseUnavailable = (detail = 'The database cannot be reached; try again shortly'): AppError =>
  new AppError('SERVICE_UNAVAILABLE', detail, { retryAfter: OUTAGE_RETRY_AFTER_S });

export interface AvailabilityOptions {
  /** How often a background ping asks an unreachable database whether it is back. */
  probeIntervalMs: number;
  /** A ping that takes longer counts as no answer. */
  probeTimeoutMs: number;
}

class PingTimeout extends Error {
  override name = 'PingTimeout';
}

/**
 * A circuit breaker in front of the database (docs/behaviour.md, Database outages). Without it,
 * every request during an outage queues in the driver behind reconnection attempts and hangs for
 * as long as the outage lasts. The first error that shows the database cannot be reached opens
 * the breaker: requests that need the database then answer 503 at once, and a background ping
 * closes it again as soon as the database answers. A slow query or a statement timeout does not
 * open it (that is one request's problem, not an outage).
 */
export class DatabaseAvailability {
  private down = false;
  private stopped = false;
  private probe: NodeJS.Timeout | undefined;

  constructor(
    private readonly ping: () => Promise<unknown>,
    private readonly log: Pick<FastifyBaseLogger, 'warn' | 'info'>,
    private readonly options: AvailabilityOptions = { probeIntervalMs: 500, probeTimeoutMs: 1000 },
  ) {}

  get available(): boolean {
    return !this.down;
  }

  /** Told every error a request ran into; opens the breaker when it means the database is unreachable. */
  observe(error: unknown): void {
    if (this.down || this.stopped || !isConnectionFailure(error)) return;
    this.down = true;
    this.log.warn({ err: error }, 'the database cannot be reached: answering 503 until it answers again');
    this.scheduleProbe();
  }

  /** Pings the database once; an answer within the timeout closes the breaker. */
  async check(timeoutMs = this.options.probeTimeoutMs): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        this.ping(),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new PingTimeout(`no answer within ${timeoutMs} ms`)), timeoutMs);
        }),
      ]);
    } catch (error) {
      this.observe(error);
      return false;
    } finally {
      clearTimeout(timer);
    }
    if (this.down) {
      this.down = false;
      this.log.info('the database answers again');
    }
    return true;
  }

  /** Ends the background ping (the service is closing). */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.probe);
  }

  private scheduleProbe(): void {
    this.probe = setTimeout(() => {
      void this.check().then(() => {
        if (this.down && !this.stopped) this.scheduleProbe();
      });
    }, this.options.probeIntervalMs);
    this.probe.unref();
  }
}
