import type { Database } from '../../db/client.js';
import type { ReadRouting } from '../../db/replica.js';
import type { Clock } from '../../shared/clock.js';
import { DAY_MS, StatsRepository, type DayRange } from './stats.repository.js';
import type { StatisticsDto } from './stats.schemas.js';

/** The UTC days from `today + from` to `today + to` (in days), both included. */
function daysAround(today: number, from: number, to: number): DayRange {
  return { first: new Date(today + from * DAY_MS), length: to - from + 1 };
}

/** Pairs each count with its day's 00:00:00Z; the counts come oldest first, one per day. */
const series = (days: DayRange, counts: number[]) =>
  counts.map((count, index) => ({ date: new Date(days.first.getTime() + index * DAY_MS).toISOString(), count }));

/** Figures and what they are known to include: every counted write up to `changes`, on `day`. */
interface Figures {
  changes: bigint;
  day: number;
  value: StatisticsDto;
}

/** A computation, and once it has read it, the change count it started from. */
interface Computation {
  startedFrom?: { changes: bigint; day: number };
  /** The highest change count a request waiting for it read: the count it reads must reach it. */
  atLeast: bigint;
  figures: Promise<Figures>;
}

const utcDay = (now: Date) => Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());

/**
 * Statistics are a dashboard: counting a million reservations on every request would make the
 * busiest admin page the costliest one, yet an answer must include every write acknowledged
 * before the request began, in any server process. Each request reads the change count that the
 * database's triggers keep with every counted write (one small statement, read by this module
 * itself). Figures computed after the count was read
 * include every write it counts; so while the count and the UTC day are those of the figures
 * this process keeps, they are still exact and are answered at once, however old.
 *
 * Otherwise the request needs a computation that read the count after it began (or read the same
 * count): simultaneous requests share one, and while one runs, the requests arriving meanwhile
 * share the one that follows it, so a steady stream of writes and reads costs at most one
 * computation at a time.
 *
 * With a read replica (docs/deployment.md#with-a-read-replica) a computation reads the count and
 * the figures there, unless the count it finds there is below the highest count a request
 * waiting for it read on the primary: then the replica has not replayed a write that request must
 * see, and the computation runs on the primary. Change counts only grow, so a count that reached
 * it includes every such write.
 */
export class StatsService {
  private current?: Figures;
  private running?: Computation;
  private next?: Promise<Figures>;
  /** The highest change count of the requests waiting for `next`. */
  private nextAtLeast = 0n;

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly reads: ReadRouting,
  ) {}

  /** Figures that include every counted write acknowledged before this call. */
  async statistics(): Promise<StatisticsDto> {
    const changes = await new StatsRepository(this.db).changeCount();
    const day = utcDay(this.clock.now());
    const kept = this.current;
    if (kept && kept.changes === changes && kept.day === day) return kept.value;
    return (await this.computationAfter(changes, day)).value;
  }

  /** Figures that include every write counted in `changes`: from a computation that read that count or a later one. */
  private computationAfter(changes: bigint, day: number): Promise<Figures> {
    const running = this.running;
    // One that has not read the count yet will read it later than the caller did (on the replica: at least as high, see above).
    const from = running?.startedFrom;
    if (running && !from) {
      if (changes > running.atLeast) running.atLeast = changes;
      return running.figures;
    }
    if (running && from!.changes === changes && from!.day === day) return running.figures;
    if (!running) return this.start(changes).figures;
    if (changes > this.nextAtLeast) this.nextAtLeast = changes;
    if (this.next) return this.next;
    this.next = running.figures
      .catch(() => undefined)
      .then(() => {
        const atLeast = this.nextAtLeast;
        this.next = undefined;
        this.nextAtLeast = 0n;
        return this.start(atLeast).figures;
      });
    return this.next;
  }

  private start(atLeast: bigint): Computation {
    const computation: Computation = { atLeast, figures: this.readAndCompute(() => computation) };
    this.running = computation;
    computation.figures
      .finally(() => {
        if (this.running === computation) this.running = undefined;
      })
      .catch(() => undefined);
    return computation;
  }

  /** Reads the change count, then computes: the figures include at least the writes it counts. */
  private async readAndCompute(computation: () => Computation): Promise<Figures> {
    const onReplica = await this.reads.read(undefined, (db) => this.readAndComputeOn(db, computation, db !== this.db));
    const figures = onReplica ?? (await this.readAndComputeOn(this.db, computation, false));
    // One computation runs at a time, so the last to end is the newest.
    this.current = figures!;
    return figures!;
  }

  /** On `db`; undefined when `mayFallShort` and the count there is below what a waiting request read. */
  private async readAndComputeOn(db: Database, computation: () => Computation, mayFallShort: boolean): Promise<Figures | undefined> {
    const changes = await new StatsRepository(db).changeCount();
    const waiting = computation();
    if (mayFallShort && changes < waiting.atLeast) return undefined;
    const now = this.clock.now();
    const from = { changes, day: utcDay(now) };
    waiting.startedFrom = from;
    return { ...from, value: await this.compute(db, now) };
  }

  /** Totals and three daily series (docs/behaviour.md#statistics), each computed in the database, in parallel. */
  private async compute(db: Database, now: Date): Promise<StatisticsDto> {
    const today = utcDay(now);
    const last30Days = daysAround(today, -29, 0);
    const around = daysAround(today, -15, 15);
    const repository = new StatsRepository(db);
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
