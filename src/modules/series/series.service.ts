import type { Database } from '../../db/client.js';
import { isAdmin, type Caller } from '../../identity/caller.js';
import type { Clock } from '../../shared/clock.js';
import { AppError, forbidden, invalid, notFound, type ClosedDay, type OccurrenceConflict } from '../../shared/errors.js';
import { pageOf, parsePageRequest, type PageOf } from '../../shared/paging.js';
import { parseInstant } from '../../shared/time.js';
import type { BookableDesk } from '../reservations/reservations.repository.js';
import { mayActFor } from '../reservations/reservations.on-behalf.js';
import { ReservationWriter } from '../reservations/reservations.writer.js';
import type { ReservationRules } from '../reservations/reservations.rules.js';
import { describeConflicts, toOccurrenceDto, toSeriesCore, toSeriesDto, toSeriesSummaryDto } from './series.mappers.js';
import { checkTimeZone, localWeekday, occurrencesOf, weekdayNumber, type Occurrence, type Rule } from './series.recurrence.js';
import { SERIES_SORTABLE, SeriesRepository, type SeriesRow } from './series.repository.js';
import type {
  CancelSeriesQuery,
  CreateSeriesBody,
  CancelledSeriesDto,
  CreatedSeriesDto,
  SeriesDto,
  SeriesListQuery,
  SeriesPreviewDto,
  SeriesSummaryDto,
} from './series.schemas.js';

interface Plan {
  userId: string;
  deskId: string;
  type: 'shared' | 'fixed';
  timeZone: string;
  rule: Rule;
  firstStart: Date;
  firstEnd: Date;
  occurrences: Occurrence[];
  desk: BookableDesk;
}

/**
 * Recurring reservations (docs/behaviour.md#recurring-reservations). A series computes its
 * occurrences in an IANA zone, holds each to the booking rules of single reservations (shared
 * with reservations.service.ts through reservations.rules.ts), and books them all in one
 * transaction: the desk's and the user's exclusion constraints keep two series racing for one
 * desk from ever overlapping; the loser sees the winner's rows on retry and answers 409.
 */
export class SeriesService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly rules: ReservationRules,
    /** SERIES_PER_USER: series with occurrences to come one person may have (docs/behaviour.md#recurring-reservations). */
    private readonly maxPerUser = 20,
  ) {}

  async preview(caller: Caller, body: CreateSeriesBody): Promise<SeriesPreviewDto> {
    const plan = await this.plan(caller, body);
    const repository = new SeriesRepository(this.db);
    const writer = new ReservationWriter(this.db, this.clock, this.rules.onePerUser);
    const closed = await repository.closed(plan.deskId, plan.occurrences);
    const conflicts = await this.refusals(writer, this.db, repository, plan);
    const byDate = new Map(conflicts.map((conflict) => [conflict.date, conflict]));
    return {
      occurrences: plan.occurrences.map((occurrence, i) => {
        const conflict = closed.has(i) ? undefined : byDate.get(occurrence.date);
        return {
          date: occurrence.date,
          startTime: occurrence.startTime.toISOString(),
          endTime: occurrence.endTime.toISOString(),
          conflict: closed.has(i) ? ('CLOSED' as const) : (conflict?.reason ?? null),
          closure: closed.get(i) ?? null,
          ...(conflict?.message ? { message: conflict.message } : {}),
        };
      }),
    };
  }

  async create(caller: Caller, body: CreateSeriesBody): Promise<CreatedSeriesDto> {
    const plan = await this.plan(caller, body);
    const writer = new ReservationWriter(this.db, this.clock, this.rules.onePerUser);
    const first = plan.occurrences[0]!;
    const last = plan.occurrences[plan.occurrences.length - 1]!;
    // Another booking committed between the check and the insert, or collided with it in flight (a
    // deadlock): the writer tries again and this plan checks again, now seeing it (SERIES_CONFLICT).
    const span = {
      callerId: caller.user.id,
      userId: plan.userId,
      deskId: plan.deskId,
      startTime: first.startTime,
      endTime: last.endTime,
      replans: 'all' as const,
    };
    return writer.transaction(span, async (tx) => {
      const series = new SeriesRepository(tx);
      // Closed days are skipped always (docs/policies.md#closures-and-holidays); collisions and
      // policy refusals only with skipConflicts (docs/policies.md#series).
      const closedDays = await series.closed(plan.deskId, plan.occurrences);
      const closed = closedOccurrences(plan.occurrences, closedDays);
      const conflicts = (await this.refusals(writer, tx, series, plan)).filter((conflict) => !closed.some((day) => day.date === conflict.date));
      if ((conflicts.length > 0 && body.skipConflicts !== true) || conflicts.length + closed.length === plan.occurrences.length) {
        const all = [...closed, ...conflicts].sort((a, b) => a.startTime.localeCompare(b.startTime));
        throw new AppError('SERIES_CONFLICT', describeConflicts(all, plan.occurrences.length), { occurrences: all });
      }
      if ((await series.upcomingSeriesOf(plan.userId, this.clock.now())) >= this.maxPerUser) {
        throw new AppError('TOO_MANY_SERIES', `At most ${this.maxPerUser} recurring series with occurrences to come per person; cancel one first`);
      }
      const skipped = [...closed, ...conflicts].sort((a, b) => a.startTime.localeCompare(b.startTime));
      const skippedDates = new Set(skipped.map((conflict) => conflict.date));
      const free = plan.occurrences.filter((occurrence) => !skippedDates.has(occurrence.date));
      const now = this.clock.now();
      const { id, createdAt } = await series.insertSeries(
        {
          userId: plan.userId,
          deskId: plan.deskId,
          type: plan.type,
          frequency: plan.rule.frequency,
          interval: plan.rule.interval,
          weekdays: plan.rule.weekdays,
          until: plan.rule.until ?? null,
          count: plan.rule.count ?? null,
          timeZone: plan.timeZone,
          firstStart: plan.firstStart,
          firstEnd: plan.firstEnd,
        },
        now,
      );
      const rows = await writer.bookOccurrences(
        tx,
        { id: caller.user.id, admin: isAdmin(caller) },
        id,
        { userId: plan.userId, deskId: plan.deskId, type: plan.type, ...(plan.userId === caller.user.id ? {} : { bookedBy: caller.user.id }) },
        free,
      );
      const row: SeriesRow = {
        id,
        createdAt,
        userId: plan.userId,
        deskId: plan.deskId,
        type: plan.type,
        frequency: plan.rule.frequency,
        interval: plan.rule.interval,
        weekdays: plan.rule.weekdays,
        until: plan.rule.until ?? null,
        count: plan.rule.count ?? null,
        timeZone: plan.timeZone,
        firstStart: plan.firstStart,
        firstEnd: plan.firstEnd,
        roomId: plan.desk.roomId,
        departmentId: plan.desk.departmentId,
      };
      return {
        ...toSeriesCore(row),
        // The dates are those of the plan: no second trip through the time zone.
        occurrences: rows
          .sort((a, b) => a.startTime.getTime() - b.startTime.getTime())
          .map((occurrence, i) => ({ ...toOccurrenceDto(occurrence, undefined), date: free[i]!.date })),
        skipped,
      };
    });
  }

  async get(caller: Caller, id: string): Promise<SeriesDto> {
    const repository = new SeriesRepository(this.db);
    const row = await this.visible(repository, caller, id);
    return toSeriesDto(row, await repository.occurrences(id));
  }

  async list(caller: Caller, query: SeriesListQuery): Promise<PageOf<SeriesSummaryDto>> {
    const admin = isAdmin(caller);
    // Another person's series: for those who may book for them (docs/policies.md#booking-for-someone-else).
    if (!admin && query.userId !== undefined && !(await mayActFor(this.db, caller, query.userId))) {
      throw forbidden('You may list only your own series and those of the people you may book for');
    }
    const request = parsePageRequest(query, SERIES_SORTABLE);
    const { rows, total } = await new SeriesRepository(this.db).page(admin ? query.userId : (query.userId ?? caller.user.id), request, this.clock.now());
    return pageOf(rows.map(toSeriesSummaryDto), total, request);
  }

  /** Cancels the occurrences from `from` on (all without it) that have not ended; ended ones stay as history. */
  async cancel(caller: Caller, id: string, query: CancelSeriesQuery): Promise<CancelledSeriesDto> {
    const repository = new SeriesRepository(this.db);
    const row = await this.visible(repository, caller, id);
    if (!isAdmin(caller) && row.type !== 'shared') throw forbidden('Fixed reservations are managed by admins');
    const from = query.from === undefined ? undefined : parseInstant('from', query.from);
    // Occurrences within the cancellation lead time stay and are listed (docs/policies.md#cancelling-a-series).
    const { kept } = await new ReservationWriter(this.db, this.clock, this.rules.onePerUser).cancelOccurrences(id, from, isAdmin(caller));
    return {
      ...toSeriesDto(row, await repository.occurrences(id)),
      kept: kept.map((occurrence) => ({
        reservationId: occurrence.id,
        startTime: occurrence.startTime.toISOString(),
        endTime: occurrence.endTime.toISOString(),
        rule: occurrence.refusal.rule,
        message: occurrence.refusal.message,
      })),
    };
  }

  private async visible(repository: SeriesRepository, caller: Caller, id: string): Promise<SeriesRow> {
    const row = await repository.findById(id);
    if (!row || !(await mayActFor(this.db, caller, row.userId))) throw notFound('Series', id);
    return row;
  }

  /** Everything about the request that does not depend on other reservations: who, which desk, the occurrences and the USER rules for each. */
  private async plan(caller: Caller, body: CreateSeriesBody): Promise<Plan> {
    const admin = isAdmin(caller);
    const userId = body.userId ?? caller.user.id;
    // Admins, managers of the person's team and their delegates book for them (docs/policies.md#booking-for-someone-else).
    if (!(await mayActFor(this.db, caller, userId))) {
      throw forbidden('You may book only for yourself, the members of teams you manage and the people who named you their delegate');
    }
    const type = body.type ?? 'shared';
    if (!admin && type !== 'shared') throw forbidden('Only admins make fixed reservations');
    const firstStart = parseInstant('startTime', body.startTime);
    const firstEnd = parseInstant('endTime', body.endTime);
    if (firstStart >= firstEnd) throw invalid('endTime', 'must be after startTime');
    const timeZone = checkTimeZone(body.timeZone);
    const { frequency, interval = 1, weekdays, until, count } = body.rule;
    if ((until === undefined) === (count === undefined)) throw invalid('rule', 'give exactly one of until and count');
    if (frequency === 'DAILY' && weekdays !== undefined) throw invalid('rule.weekdays', 'only a WEEKLY rule takes weekdays');
    const rule: Rule = {
      frequency,
      interval,
      weekdays: frequency === 'DAILY' ? [] : (weekdays?.map(weekdayNumber) ?? [localWeekday(firstStart, timeZone)]),
      until,
      count,
    };
    rule.weekdays.sort((a, b) => a - b);
    const occurrences = occurrencesOf(rule, firstStart, firstEnd, timeZone);
    // The booking rules are the reservations module's (docs/architecture.md#the-one-writer-of-reservations).
    const desk = await new ReservationWriter(this.db, this.clock, this.rules.onePerUser).checkOccurrences(this.rules, admin, userId, body.deskId, occurrences);
    return { userId, deskId: body.deskId, type, timeZone, rule, firstStart, firstEnd, occurrences, desk };
  }

  /**
   * The occurrences that cannot be booked, in date order: those that collide, then, of the rest,
   * those the owner's booking policies refuse (docs/policies.md#series), asked of the writer in `db`
   * (the series' transaction, whose locks then hold until it commits).
   */
  private async refusals(writer: ReservationWriter, db: Database, repository: SeriesRepository, plan: Plan): Promise<OccurrenceConflict[]> {
    const collisions = await this.collisions(repository, plan);
    const colliding = new Set(collisions.map((conflict) => conflict.date));
    const refused = await writer.policyRefusals(
      db,
      { userId: plan.userId, deskId: plan.deskId, type: plan.type },
      plan.occurrences.filter((occurrence) => !colliding.has(occurrence.date)),
    );
    return [...collisions, ...refused].sort((a, b) => a.startTime.localeCompare(b.startTime));
  }

  /** The occurrences that collide with the desk's reservations or (one per user) the owner's, in one read. */
  private async collisions(repository: SeriesRepository, plan: Plan): Promise<OccurrenceConflict[]> {
    const first = plan.occurrences[0]!;
    const last = plan.occurrences[plan.occurrences.length - 1]!;
    const busy = await repository.busy(plan.deskId, this.rules.onePerUser ? plan.userId : undefined, first.startTime, last.endTime);
    const conflicts: OccurrenceConflict[] = [];
    let from = 0;
    for (const occurrence of plan.occurrences) {
      // A prefix of ranges that ended before this occurrence cannot touch a later one either.
      while (from < busy.length && busy[from]!.endTime <= occurrence.startTime) from++;
      let reason: OccurrenceConflict['reason'] | undefined;
      for (let i = from; i < busy.length && busy[i]!.startTime < occurrence.endTime; i++) {
        const range = busy[i]!;
        if (range.endTime <= occurrence.startTime) continue;
        if (range.desk) {
          reason = 'DESK_RESERVED';
          break;
        }
        reason = 'USER_OVERLAP';
      }
      if (reason) {
        conflicts.push({ date: occurrence.date, startTime: occurrence.startTime.toISOString(), endTime: occurrence.endTime.toISOString(), reason });
      }
    }
    return conflicts;
  }
}

/** The occurrences on closed days, as skipped ones (reason CLOSED, with the closure). */
function closedOccurrences(occurrences: Occurrence[], closed: Map<number, ClosedDay>): OccurrenceConflict[] {
  return [...closed.entries()]
    .sort(([a], [b]) => a - b)
    .map(([i, closure]) => {
      const occurrence = occurrences[i]!;
      return {
        date: occurrence.date,
        startTime: occurrence.startTime.toISOString(),
        endTime: occurrence.endTime.toISOString(),
        reason: 'CLOSED' as const,
        closure,
      };
    });
}
