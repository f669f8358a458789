import { Temporal } from 'temporal-polyfill';
import type { Database } from '../../db/client.js';
import { isAdmin, type Caller } from '../../identity/caller.js';
import type { Clock } from '../../shared/clock.js';
import { AppError, invalid } from '../../shared/errors.js';
// "Book my usual" books through the one writer under every rule (docs/architecture.md#the-one-writer-of-reservations).
import { ReservationWriter } from '../reservations/reservations.writer.js';
import { ReservationsRepository } from '../reservations/reservations.repository.js';
import type { ReservationRules } from '../reservations/reservations.rules.js';
import { FavouritesRepository, type PatternRow } from './favourites.repository.js';
import { USUAL_MAX, type UsualBookedDto, type UsualPreviewDto } from './favourites.schemas.js';

const WEEKDAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'] as const;
type Reason = 'DESK_RESERVED' | 'USER_OVERLAP' | 'CLOSED' | 'POLICY' | 'NOT_ALLOWED';
/** The widest offset of any zone from UTC: a span this much wider than a week holds every local day of it. */
const ZONE_SLACK_MS = 15 * 3_600_000;

interface Proposal {
  from: PatternRow;
  date: string;
  weekday: (typeof WEEKDAYS)[number];
  startTime: Date;
  endTime: Date;
}

interface Plan {
  week: Temporal.PlainDate;
  patternWeek: Temporal.PlainDate;
  proposals: Proposal[];
}

const zoned = (instant: Date, zone: string) => Temporal.Instant.fromEpochMilliseconds(instant.getTime()).toZonedDateTimeISO(zone);

/**
 * "Book my usual" (docs/favourites.md#book-my-usual): the caller's reservations of the week before
 * the week to book (Monday–Sunday in each desk's office zone), proposed again seven days later at
 * the same wall-clock times, and booked one by one through the one writer, so every rule of a
 * single booking holds (booking rules, policies, closures, approvals). Each day stands alone: the
 * free ones are booked, the others listed with why, as a series with skipConflicts does.
 */
export class UsualService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly rules: ReservationRules,
  ) {}

  async preview(caller: Caller, week: string | undefined): Promise<UsualPreviewDto> {
    const plan = await this.plan(caller, week);
    const writer = new ReservationWriter(this.db, this.clock, this.rules.onePerUser);
    const admin = isAdmin(caller);
    const userId = caller.user.id;
    const refusals: ({ reason: Reason; code: string; message: string } | null)[] = plan.proposals.map(() => null);
    // The booking rules and the desk (past, too far ahead, no longer bookable), as a booking checks them.
    for (const [i, proposal] of plan.proposals.entries()) {
      try {
        await writer.checkOccurrences(this.rules, admin, userId, proposal.from.deskId, [proposal]);
      } catch (error) {
        refusals[i] = refusalOf(error);
      }
    }
    // Closed days, the desk taken, the caller busy: one statement for every day.
    const checks = await new FavouritesRepository(this.db).check(
      userId,
      plan.proposals.map((proposal) => ({ deskId: proposal.from.deskId, startTime: proposal.startTime, endTime: proposal.endTime })),
      this.rules.onePerUser,
    );
    for (const [i, check] of checks.entries()) {
      if (refusals[i]) continue;
      if (check.closure) {
        refusals[i] = { reason: 'CLOSED', code: 'CLOSED_DAY', message: `The office is closed on ${check.closure.date}: ${check.closure.reason}` };
      } else if (check.deskTaken) refusals[i] = { reason: 'DESK_RESERVED', code: 'RESERVATION_CONFLICT', message: 'The desk is already reserved at that time' };
      else if (check.userBusy) refusals[i] = { reason: 'USER_OVERLAP', code: 'RESERVATION_CONFLICT', message: 'You already have a reservation at that time' };
    }
    // The caller's booking policies, per desk, each day judged with the earlier ones booked (docs/policies.md#series).
    const byDesk = new Map<string, number[]>();
    for (const [i, proposal] of plan.proposals.entries()) {
      if (!refusals[i]) byDesk.set(proposal.from.deskId, [...(byDesk.get(proposal.from.deskId) ?? []), i]);
    }
    for (const [deskId, indexes] of byDesk) {
      const refused = await writer.policyRefusals(
        this.db,
        { userId, deskId, type: 'shared' },
        indexes.map((i) => plan.proposals[i]!),
      );
      for (const conflict of refused) {
        const i = indexes.find((index) => plan.proposals[index]!.date === conflict.date);
        if (i !== undefined) refusals[i] = { reason: 'POLICY', code: 'POLICY_VIOLATION', message: conflict.message ?? 'A booking policy refuses it' };
      }
    }
    // The cap on reservations not yet ended (RESERVATION_MAX_FUTURE), counting the free days in time
    // order as the booking will: the k-th is refused when the caller would then hold more than the cap.
    if (!admin) {
      let held = await new ReservationsRepository(this.db).countNotEnded(userId, this.clock.now());
      for (const [i] of plan.proposals.entries()) {
        if (refusals[i]) continue;
        if (held + 1 > this.rules.maxFuture) {
          refusals[i] = {
            reason: 'NOT_ALLOWED',
            code: 'RESERVATION_LIMIT_REACHED',
            message: `You may hold at most ${this.rules.maxFuture} reservations that have not ended`,
          };
        } else held++;
      }
    }
    return {
      week: plan.week.toString(),
      patternWeek: plan.patternWeek.toString(),
      days: plan.proposals.map((proposal, i) => {
        const refusal = refusals[i];
        return { ...dayOf(proposal), conflict: refusal?.reason ?? null, ...(refusal ? { code: refusal.code, message: refusal.message } : {}) };
      }),
    };
  }

  async book(caller: Caller, week: string | undefined): Promise<UsualBookedDto> {
    const plan = await this.plan(caller, week);
    const writer = new ReservationWriter(this.db, this.clock, this.rules.onePerUser);
    const booker = { id: caller.user.id, admin: isAdmin(caller) };
    const booked: { proposal: Proposal; id: string }[] = [];
    const refused: UsualBookedDto['refused'] = [];
    // One day after the other, each in its own transaction through the writer: a refused day books nothing and stops nothing.
    for (const proposal of plan.proposals) {
      try {
        const { id } = await writer.book(this.rules, booker, {
          userId: caller.user.id,
          deskId: proposal.from.deskId,
          startTime: proposal.startTime,
          endTime: proposal.endTime,
          type: 'shared',
        });
        booked.push({ proposal, id });
      } catch (error) {
        const refusal = refusalOf(error);
        refused.push({ ...dayOf(proposal), reason: refusal.reason, code: refusal.code, message: refusal.message });
      }
    }
    const pending = await new FavouritesRepository(this.db).pending(booked.map((day) => day.id));
    return {
      week: plan.week.toString(),
      patternWeek: plan.patternWeek.toString(),
      booked: booked.map(({ proposal, id }) => ({ ...dayOf(proposal), reservationId: id, awaitingApproval: pending.has(id) })),
      refused,
    };
  }

  /** The week to book (its Monday), the week before it, and the days proposed, in time order. */
  private async plan(caller: Caller, week: string | undefined): Promise<Plan> {
    const repository = new FavouritesRepository(this.db);
    let monday: Temporal.PlainDate;
    if (week === undefined) {
      // The coming week: the Monday after today, today in the home office's zone (UTC without one).
      const zone = (await repository.defaults(caller.user.id))?.timeZone ?? 'UTC';
      const today = zoned(this.clock.now(), zone).toPlainDate();
      monday = today.add({ days: 8 - today.dayOfWeek });
    } else {
      let date: Temporal.PlainDate;
      try {
        date = Temporal.PlainDate.from(week, { overflow: 'reject' });
      } catch {
        throw invalid('week', 'must be a date YYYY-MM-DD');
      }
      monday = date.subtract({ days: date.dayOfWeek - 1 });
    }
    const patternWeek = monday.subtract({ days: 7 });
    const utcMidnight = (date: Temporal.PlainDate) => Date.parse(`${date.toString()}T00:00:00Z`);
    const rows = await repository.pattern(
      caller.user.id,
      new Date(utcMidnight(patternWeek) - ZONE_SLACK_MS),
      new Date(utcMidnight(monday) + ZONE_SLACK_MS),
      USUAL_MAX * 2,
    );
    const proposals: Proposal[] = [];
    for (const row of rows) {
      const start = zoned(row.startTime, row.timeZone);
      const day = start.toPlainDate();
      // Monday–Sunday of the pattern week in this desk's office zone.
      if (Temporal.PlainDate.compare(day, patternWeek) < 0 || Temporal.PlainDate.compare(day, monday) >= 0) continue;
      // The same wall-clock times seven days on: 09:00 stays 09:00 across a daylight-saving change.
      const newStart = start.toPlainDateTime().add({ days: 7 }).toZonedDateTime(row.timeZone);
      const newEnd = zoned(row.endTime, row.timeZone).toPlainDateTime().add({ days: 7 }).toZonedDateTime(row.timeZone);
      if (Temporal.ZonedDateTime.compare(newStart, newEnd) >= 0) continue;
      proposals.push({
        from: row,
        date: newStart.toPlainDate().toString(),
        weekday: WEEKDAYS[newStart.dayOfWeek - 1]!,
        startTime: new Date(newStart.epochMilliseconds),
        endTime: new Date(newEnd.epochMilliseconds),
      });
      if (proposals.length === USUAL_MAX) break;
    }
    proposals.sort((a, b) => a.startTime.getTime() - b.startTime.getTime());
    return { week: monday, patternWeek, proposals };
  }
}

function dayOf(proposal: Proposal) {
  return {
    date: proposal.date,
    weekday: proposal.weekday,
    deskId: proposal.from.deskId,
    deskName: proposal.from.deskName,
    roomName: proposal.from.roomName,
    departmentId: proposal.from.departmentId,
    startTime: proposal.startTime.toISOString(),
    endTime: proposal.endTime.toISOString(),
    fromReservationId: proposal.from.id,
  };
}

/** Why the writer (or its checks) refused a day, as a reason of the list; anything but a refusal is thrown on. */
function refusalOf(error: unknown): { reason: Reason; code: string; message: string } {
  if (!(error instanceof AppError) || error.status >= 500) throw error;
  const reason: Reason =
    error.code === 'RESERVATION_CONFLICT'
      ? error.extras.reason === 'USER_OVERLAP'
        ? 'USER_OVERLAP'
        : 'DESK_RESERVED'
      : error.code === 'CLOSED_DAY'
        ? 'CLOSED'
        : error.code === 'POLICY_VIOLATION' || error.code === 'POLICY_LIMIT_REACHED'
          ? 'POLICY'
          : 'NOT_ALLOWED';
  return { reason, code: error.code, message: error.message };
}
