import type { Database } from '../../db/client.js';
import type { Clock } from '../../shared/clock.js';
import { DAY_MS, StatsRepository, type DayRange } from './stats.repository.js';
import type { StatisticsDto } from './stats.schemas.js';

/** The UTC days from `today + from` to `today + to` (in days), both included. */
function daysAround(today: number, from: number, to: number): DayRange {
  return { first: new Date(today + from * DAY_MS), length: to - from + 1 };
}

/** Pairs each count with its day's 00:00:00Z; the counts come oldest first, one per day. */
const series = (days: DayRange, counts: number[]) => counts.map((count, index) => ({ date: new Date(days.first.getTime() + index * DAY_MS).toISOString(), count }));

/**
 * Statistics are a dashboard: counting a million reservations on every request would make the
 * busiest admin page the costliest one. Each process computes them at most once per `cacheTtlMs`
 * (STATS_CACHE_TTL; 0 computes every time). Simultaneous requests share one computation, and
 * once the figures are older than the TTL they are still answered while a fresh computation
 * runs, so only the very first request of a process waits for one.
 */
export class StatsService {
  private current?: { computedAt: number; value: StatisticsDto };
  private pending?: Promise<StatisticsDto>;

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly cacheTtlMs = 0,
  ) {}

  async statistics(): Promise<StatisticsDto> {
    if (this.cacheTtlMs === 0) return this.compute();
    const fresh = this.current && this.clock.now().getTime() - this.current.computedAt < this.cacheTtlMs;
    if (fresh) return this.current!.value;
    const refresh = this.refresh();
    return this.current ? this.current.value : refresh;
  }

  private refresh(): Promise<StatisticsDto> {
    if (!this.pending) {
      const startedAt = this.clock.now().getTime();
      this.pending = this.compute()
        .then((value) => {
          this.current = { computedAt: startedAt, value };
          return value;
        })
        .finally(() => {
          this.pending = undefined;
        });
      // A failed refresh keeps the previous figures; the next request tries again.
      this.pending.catch(() => undefined);
    }
    return this.pending;
  }

  /** Totals and three daily series (docs/behaviour.md#statistics), each computed in the database, in parallel. */
  private async compute(): Promise<StatisticsDto> {
    const now = this.clock.now();
    const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
    const last30Days = daysAround(today, -29, 0);
    const around = daysAround(today, -15, 15);
    const repository = new StatsRepository(this.db);
    const [totals, reservationsCreated, reportsCreated, reservationsByDay] = await Promise.all([
      repository.totals(),
      repository.reservationsCreatedPerDay(last30Days),
      repository.reportsCreatedPerDay(last30Days),
      repository.reservationsPerDay(around),
    ]);
    return {
      ...totals,
      dailyCreatedReservationsLast30Days: series(last30Days, reservationsCreated),
      dailyCreatedReportsLast30Days: series(last30Days, reportsCreated),
      dailyReservationsLast15DaysAndNext15Days: series(around, reservationsByDay),
    };
  }
}
