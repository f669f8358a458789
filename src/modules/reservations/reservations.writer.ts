import type { Database } from '../../db/client.js';
import { isConcurrencyAbort, pgClosedDay, pgConstraint, pgErrorCode, PG } from '../../db/errors.js';
import type { Clock } from '../../shared/clock.js';
import { AppError, closedDayProblem, invalid } from '../../shared/errors.js';
import { ReservationsRepository, type BookableDesk, type OccurrenceRow, type ReservationType } from './reservations.repository.js';
import { requestApprovals, type Booker } from '../approvals/approvals.repository.js';
import { ensureDeskBookable, ensureUnderFutureCap, ruleBroken, userRuleBroken, type ReservationRules } from './reservations.rules.js';
// The booking policies of the owner, checked in the writing transaction (docs/policies.md#where-the-rules-are-checked).
import { checkCancellation, checkOccurrencePolicies, checkPolicies, occurrenceRefusals, writeUnderPolicies } from '../policies/policies.check.js';
import type { OccurrenceConflict } from '../../shared/errors.js';

/**
 * The one writer of the `reservations` table (docs/architecture.md#the-one-writer-of-reservations).
 * Single bookings and moves (reservations.service.ts), the occurrences of a series (modules/series),
 * walk-ins and the release of no-shows (modules/attendance) all write through this class, so the
 * retry of a write a concurrent booking aborted and the translation of what the database refused
 * (docs/behaviour.md#reservations) exist once. test/architecture.test.ts fails when a file outside
 * this module writes the table.
 */

const USER_OVERLAP_CONSTRAINT = 'reservations_user_overlap';
/** Every foreign key to users is named `<table>_user_id_users_id_fk`; any other one refused here is the desk's. */
const USER_FOREIGN_KEY = /_user_id_users_id_fk$/;
/** Tries of a write that a concurrent booking aborted (docs/behaviour.md#reservations); then 409. */
const CONCURRENCY_ATTEMPTS = 5;

export interface NewReservation {
  userId: string;
  deskId: string;
  startTime: Date;
  endTime: Date;
  type: ReservationType;
  /** Who booked it for its owner (docs/policies.md#booking-for-someone-else); absent when the owner did. */
  bookedBy?: string;
}

/** What a refused write was about: the conflict answer names the ranges in the way of this span. */
export interface WriteContext {
  /** Whose request it is: "You already have" or "That user already has". */
  callerId: string;
  userId: string;
  deskId: string;
  startTime: Date;
  endTime: Date;
  /** The reservation being moved (its own range is never a conflict). */
  exceptId?: string;
  /**
   * The caller plans the write anew on each attempt: a collision is then tried again (up to
   * CONCURRENCY_ATTEMPTS) instead of answered at once: 'desk' only one with the desk (a walk-in's
   * end moves before the desk's next reservation), 'all' also one with the owner's (a series
   * checks every occurrence again and answers SERIES_CONFLICT itself).
   */
  replans?: 'desk' | 'all';
}

export class ReservationWriter {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    /** RESERVATION_ONE_PER_USER: new rows are user-exclusive. */
    private readonly onePerUser: boolean,
  ) {}

  /**
   * The rules of docs/behaviour.md#reservations for one booking, run by `book` and `move` before
   * they write: start before end; for a USER (`admin` false) the rules of reservations.rules.ts
   * (`startMoved`: a move that keeps a started reservation's start is not "in the past") and, when
   * `capped`, the cap on reservations not yet ended; an existing desk, bookable for a USER. Answers the desk.
   */
  private async checkBooking(
    rules: ReservationRules,
    admin: boolean,
    booking: Pick<NewReservation, 'userId' | 'deskId' | 'startTime' | 'endTime'>,
    options: { startMoved: boolean; capped: boolean },
  ): Promise<BookableDesk> {
    const { startTime, endTime } = booking;
    if (startTime >= endTime) throw invalid('endTime', 'must be after startTime');
    if (!admin) {
      const broken = userRuleBroken(rules, this.clock.now(), startTime, endTime, options.startMoved);
      if (broken) throw ruleBroken(broken);
    }
    const repository = new ReservationsRepository(this.db);
    const desk = ensureDeskBookable(await repository.findDesk(booking.deskId), admin);
    // Concurrent bookings of one person may each see the count before the others' inserts: the cap
    // holds within the number of a person's bookings in flight at once (docs/behaviour.md#reservations).
    if (!admin && options.capped) ensureUnderFutureCap(rules, await repository.countNotEnded(booking.userId, this.clock.now()), 1);
    return desk;
  }

  /**
   * The same rules for the occurrences of a series (docs/behaviour.md#recurring-reservations), before
   * `transaction` + `bookOccurrences`: each occurrence keeps the USER rules (the message names its
   * date), the desk is bookable, and all of them fit under the cap. Answers the desk.
   */
  async checkOccurrences(
    rules: ReservationRules,
    admin: boolean,
    userId: string,
    deskId: string,
    occurrences: { date: string; startTime: Date; endTime: Date }[],
  ): Promise<BookableDesk> {
    if (!admin) {
      const now = this.clock.now();
      for (const occurrence of occurrences) {
        const broken = userRuleBroken(rules, now, occurrence.startTime, occurrence.endTime);
        if (broken) throw ruleBroken(broken, occurrence.date);
      }
    }
    const repository = new ReservationsRepository(this.db);
    const desk = ensureDeskBookable(await repository.findDesk(deskId), admin);
    if (!admin) ensureUnderFutureCap(rules, await repository.countNotEnded(userId, this.clock.now()), occurrences.length);
    return desk;
  }

  /**
   * Books one reservation for `caller` (a single booking) under the rules of `checkBooking`, checked
   * once before the first try; answers its id and desk. `then` runs in the writing transaction (the
   * notice to a person someone else booked for: docs/policies.md#booking-for-someone-else).
   */
  async book(
    rules: ReservationRules,
    caller: { id: string; admin: boolean },
    booking: NewReservation,
    then?: (tx: Database) => Promise<void>,
  ): Promise<{ id: string; desk: BookableDesk }> {
    const desk = await this.checkBooking(rules, caller.admin, booking, { startMoved: true, capped: true });
    const { id } = await this.retrying(
      () => ({ callerId: caller.id, ...booking }),
      () =>
        writeUnderPolicies(this.db, booking, this.clock.now(), undefined, async (tx, approvals) => {
          const row = await new ReservationsRepository(tx).insert({ ...booking, userExclusive: this.onePerUser }, this.clock.now());
          // No requirement could hold at the desk: no statement to ask for none (docs/policies.md#approvals).
          if (approvals) await this.askApproval(tx, [row.id], caller);
          await then?.(tx);
          return row;
        }),
    );
    return { id, desk };
  }

  /**
   * Books one reservation that `plan` makes anew on each attempt, within the rules that bind it (a
   * walk-in: docs/behaviour.md#walk-in, its own minimum, not counted against the cap; `checkBooking`
   * does not run). `then` runs in the same transaction with the new id (a walk-in marks it checked in).
   * A desk whose booking would await approval cannot be walked in (docs/policies.md#approvals).
   */
  async bookPlanned(
    caller: Booker,
    plan: () => Promise<NewReservation>,
    then: (tx: Database, id: string, booking: NewReservation) => Promise<void>,
  ): Promise<{ id: string; booking: NewReservation }> {
    let booking: NewReservation | undefined;
    return this.retrying(
      () => ({ callerId: caller.id, ...booking!, replans: 'desk' }),
      async () => {
        const planned = (booking = await plan());
        const now = this.clock.now();
        return this.db.transaction(async (tx) => {
          await checkPolicies(tx, planned, now);
          const { id } = await new ReservationsRepository(tx).insert({ ...planned, userExclusive: this.onePerUser }, now);
          if ((await this.askApproval(tx, [id], caller)).length > 0) {
            throw new AppError('WALK_IN_NOT_POSSIBLE', 'Bookings of this desk need approval: book it ahead and wait for the approval');
          }
          await then(tx, id, planned);
          return { id, booking: planned };
        });
      },
    );
  }

  /**
   * Moves (or retypes) reservation `id` under the rules of `checkBooking` (`startMoved`: whether its
   * start changes; the cap does not apply); answers the desk, or undefined when it is gone. The owner never changes.
   */
  async move(
    rules: ReservationRules,
    caller: { id: string; admin: boolean },
    id: string,
    booking: NewReservation,
    startMoved: boolean,
    then?: (tx: Database) => Promise<void>,
  ): Promise<BookableDesk | undefined> {
    const desk = await this.checkBooking(rules, caller.admin, booking, { startMoved, capped: false });
    const { userId: _userId, bookedBy: _bookedBy, ...values } = booking;
    const moved = await this.retrying(
      () => ({ callerId: caller.id, ...booking, exceptId: id }),
      () =>
        writeUnderPolicies(this.db, booking, this.clock.now(), id, async (tx) => {
          const updated = await new ReservationsRepository(tx).update(id, { ...values, userExclusive: this.onePerUser }, this.clock.now());
          if (updated) {
            await this.askApproval(tx, [id], caller, true);
            await then?.(tx);
          }
          return updated;
        }),
    );
    return moved ? desk : undefined;
  }

  /**
   * Runs `work` in one transaction, retried and translated as a single booking is: a series books its
   * occurrences this way (`bookOccurrences` on the transaction handed to `work`). `context` describes
   * the span for the conflict answer.
   */
  async transaction<T>(context: WriteContext, work: (tx: Database) => Promise<T>): Promise<T> {
    return this.retrying(
      () => context,
      () => this.db.transaction((tx) => work(tx)),
    );
  }

  /**
   * All occurrences of series `seriesId` in one statement, inside `transaction`: the constraints refuse
   * the whole statement if any collides. Each occurrence under an approval requirement awaits approval.
   */
  async bookOccurrences(
    tx: Database,
    booker: Booker,
    seriesId: string,
    common: Omit<NewReservation, 'startTime' | 'endTime'>,
    ranges: { startTime: Date; endTime: Date }[],
  ): Promise<OccurrenceRow[]> {
    await checkOccurrencePolicies(tx, common, ranges, this.clock.now());
    const rows = await new ReservationsRepository(tx).insertOccurrences(seriesId, { ...common, userExclusive: this.onePerUser }, ranges, this.clock.now());
    await this.askApproval(
      tx,
      rows.map((row) => row.id),
      booker,
    );
    return rows;
  }

  /**
   * The one call into modules/approvals (docs/policies.md#approvals): in the writing transaction, a
   * reservation under an approval requirement, written by someone who may not decide it, awaits
   * approval (`moved`: an existing one moved). Where no requirement exists it writes nothing.
   * Answers the ids now pending.
   */
  private askApproval(tx: Database, ids: string[], booker: Booker, moved = false): Promise<string[]> {
    return requestApprovals(tx, ids, booker, this.clock.now(), moved);
  }

  /**
   * The occurrences of a series its owner's booking policies refuse (docs/policies.md#series), each
   * judged with the earlier ones booked; in the series' transaction `tx` (or, for a preview, the database).
   */
  async policyRefusals(
    tx: Database,
    common: Omit<NewReservation, 'startTime' | 'endTime'>,
    occurrences: { date: string; startTime: Date; endTime: Date }[],
  ): Promise<OccurrenceConflict[]> {
    return occurrenceRefusals(tx, common, occurrences, this.clock.now());
  }

  /** Cancels reservation `id` (a USER within a cancellation lead time is refused: `byAdmin` passes); false when it is gone. */
  async cancel(id: string, byAdmin = false, then?: (tx: Database) => Promise<void>): Promise<boolean> {
    await checkCancellation(this.db, id, byAdmin, this.clock.now());
    if (!then) return new ReservationsRepository(this.db).delete(id);
    return this.db.transaction(async (tx) => {
      const deleted = await new ReservationsRepository(tx).delete(id);
      if (deleted) await then(tx);
      return deleted;
    });
  }

  /** Cancels the occurrences of a series that have not ended and start at or after `from` (all without it); answers how many. */
  async cancelOccurrences(seriesId: string, from: Date | undefined): Promise<number> {
    return new ReservationsRepository(this.db).deleteOccurrences(seriesId, from, this.clock.now());
  }

  /**
   * Cancels the reservations `ids` of a new closure (docs/policies.md#closures-and-holidays), in the
   * closure's transaction `tx`; answers the ids cancelled. The calendar trigger cancels their events.
   */
  static async cancelForClosure(tx: Database, ids: string[]): Promise<string[]> {
    return new ReservationsRepository(tx).deleteMany(ids);
  }

  /**
   * Cancels the reservations `ids` of rejected or expired approval requests (docs/policies.md#approvals),
   * in the deciding transaction `tx`; answers the ids cancelled. The calendar trigger cancels their events.
   */
  static async cancelForApproval(tx: Database, ids: string[]): Promise<string[]> {
    return new ReservationsRepository(tx).deleteMany(ids);
  }

  /**
   * The release of no-shows (docs/behaviour.md#release-of-no-shows), inside the release's transaction
   * `tx`: cuts the end of those of `ids` not yet ended to `now`; answers the ids cut.
   */
  static async cutForRelease(tx: Database, ids: string[], now: Date): Promise<string[]> {
    return new ReservationsRepository(tx).cutForRelease(ids, now);
  }

  /**
   * Runs `write` and maps what the database refused: a vanished desk or user is 400; an abort by a
   * concurrent booking (a deadlock between the two) is tried again; an exclusion violation becomes
   * one RESERVATION_CONFLICT naming the ranges in the way (`conflicts`). If the colliding
   * reservation is gone by the time it is looked up, or the caller plans anew, the write is tried again.
   */
  private async retrying<T>(context: () => WriteContext, write: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await write();
      } catch (error) {
        const code = pgErrorCode(error);
        // A closed day (docs/policies.md#closures-and-holidays): the trigger closures_refuse refused the row.
        const closed = pgClosedDay(error);
        if (closed) throw closedDayProblem(closed);
        if (code === PG.FOREIGN_KEY_VIOLATION) {
          throw USER_FOREIGN_KEY.test(pgConstraint(error) ?? '') ? invalid('userId', 'no such user') : invalid('deskId', 'no such desk');
        }
        const again = attempt < CONCURRENCY_ATTEMPTS;
        if (isConcurrencyAbort(error)) {
          if (again) continue;
          throw await this.conflict(context(), false);
        }
        if (code !== PG.EXCLUSION_VIOLATION) throw error;
        const sameUser = pgConstraint(error) === USER_OVERLAP_CONSTRAINT;
        const ctx = context();
        if (again && (ctx.replans === 'all' || (ctx.replans === 'desk' && !sameUser))) continue;
        const problem = await this.conflict(ctx, sameUser);
        if ((problem.extras.conflicts?.length ?? 0) === 0 && again) continue;
        throw problem;
      }
    }
  }

  /** RESERVATION_CONFLICT with the ranges of the desk's (or the user's exclusive) reservations in the way. */
  private async conflict(context: WriteContext, sameUser: boolean): Promise<AppError> {
    const owner = sameUser ? { userId: context.userId } : { deskId: context.deskId };
    const ranges = await new ReservationsRepository(this.db).overlapping(owner, context.startTime, context.endTime, context.exceptId);
    const conflicts = ranges.map((range) => ({ startTime: range.startTime.toISOString(), endTime: range.endTime.toISOString() }));
    const when = conflicts.map((range) => `${range.startTime}–${range.endTime}`).join(', ');
    const who = context.userId === context.callerId ? 'You already have' : 'That user already has';
    const detail = sameUser ? `${who} a reservation at that time (${when})` : `The desk is already reserved at that time (${when})`;
    return new AppError('RESERVATION_CONFLICT', detail, { conflicts, reason: sameUser ? 'USER_OVERLAP' : 'DESK_RESERVED' });
  }
}
