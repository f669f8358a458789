import type { Database } from '../../db/client.js';
import { AppError, type OccurrenceConflict } from '../../shared/errors.js';
import { PoliciesRepository, type BookingContext } from './policies.repository.js';
import {
  cancelRefusal,
  COUNTED,
  countedRefusals,
  evaluate,
  localDates,
  periodOf,
  rulesInForce,
  type CapacityFigures,
  type Held,
  type Refusal,
  type Rule,
  type Span,
} from './policies.rules.js';

/**
 * The booking policies on every write path (docs/policies.md#where-the-rules-are-checked): the one
 * writer of reservations (modules/reservations/reservations.writer.ts) calls these inside its
 * writing transaction. Rules bind the reservation's owner, not whoever books for them; a fixed
 * reservation (an admin's assignment) is not held to them.
 */

export interface PolicyBooking {
  userId: string;
  deskId: string;
  startTime: Date;
  endTime: Date;
  type: 'shared' | 'fixed';
}

/** The problem of a refusal: 403 POLICY_VIOLATION or 409 POLICY_LIMIT_REACHED, with the rule and its figures (docs/errors.md). */
export function policyProblem(refusal: Refusal): AppError {
  return new AppError(refusal.code, refusal.message, {
    rule: refusal.rule,
    ...(refusal.limit ? { limit: refusal.limit, used: refusal.limit.current } : {}),
    ...(refusal.window ? { window: refusal.window } : {}),
  });
}

/** The advisory lock keys the counted rules need for these spans: the person, and each capacity rule's local days. */
function lockKeys(context: BookingContext, counted: Rule[], spans: Span[]): string[] {
  const keys = [`person:${context.person.id}`];
  for (const rule of counted) {
    if (rule.limit.kind !== 'CAPACITY') continue;
    for (const span of spans) for (const date of localDates(span, context.place.zone)) keys.push(`capacity:${rule.id}:${date.toString()}`);
  }
  return keys;
}

/** What of the owner's reservations the counted rules read: those not ended (MAX_CONCURRENT), the areas of each (a rule scoped to an area). */
const heldNeeds = (counted: Rule[]) => ({
  notEnded: counted.some((rule) => rule.limit.kind === 'MAX_CONCURRENT'),
  areas: counted.some((rule) => rule.scope.kind === 'AREA' && rule.limit.kind !== 'CAPACITY'),
});

/** The periods the owner's reservations must be read over for these spans (the widest period of any quota). */
function heldRange(counted: Rule[], spans: Span[], zone: string): { from: Date; to: Date } {
  let from = spans[0]!.startTime;
  let to = spans[spans.length - 1]!.endTime;
  for (const rule of counted) {
    if (rule.limit.kind !== 'MAX_BOOKINGS' && rule.limit.kind !== 'MAX_HOURS') continue;
    for (const span of [spans[0]!, spans[spans.length - 1]!]) {
      const period = periodOf(span.startTime, rule.limit.per, zone);
      if (period.from < from) from = period.from;
      if (period.to > to) to = period.to;
    }
  }
  return { from, to };
}

async function capacityFigures(
  repository: PoliciesRepository,
  context: BookingContext,
  counted: Rule[],
  spans: Span[],
  exceptId?: string,
): Promise<CapacityFigures> {
  const figures: CapacityFigures = { taken: new Map(), desks: new Map() };
  for (const rule of counted) {
    if (rule.limit.kind !== 'CAPACITY') continue;
    const dates = [...new Map(spans.flatMap((span) => localDates(span, context.place.zone)).map((d) => [d.toString(), d])).values()];
    const days = dates.map((d) => ({
      from: new Date(d.toZonedDateTime({ timeZone: context.place.zone }).epochMilliseconds),
      to: new Date(d.add({ days: 1 }).toZonedDateTime({ timeZone: context.place.zone }).epochMilliseconds),
    }));
    const { taken, desks } = await repository.capacity(rule.scope, days, context.place.deskId, exceptId);
    dates.forEach((d, i) => figures.taken.set(`${rule.id}:${d.toString()}`, taken[i] ?? 0));
    figures.desks.set(rule.id, desks);
  }
  return figures;
}

/**
 * Judges one booking (a new one, or a move: `exceptId`) against the owner's policies: the limits
 * that need nothing booked first, then, when a counted limit is in force, what the owner holds,
 * read (with `lock`) under advisory locks on the person and on each capacity rule's days. Answers
 * the rules in force and the refusal, or undefined when nothing binds (no rule, a fixed reservation,
 * an unknown desk: the write that follows fails on its foreign key and says so).
 */
export async function judgeBooking(
  db: Database,
  booking: PolicyBooking,
  now: Date,
  options: { exceptId?: string; lock: boolean; context?: BookingContext; staticPassed?: boolean },
): Promise<{ inForce: Rule[]; refusal?: Refusal } | undefined> {
  if (booking.type === 'fixed') return undefined;
  const repository = new PoliciesRepository(db);
  const context = options.context ?? (await repository.context(booking.userId, booking.deskId));
  if (!context || (context.rules.length === 0 && context.areas.length === 0)) return undefined;
  const span = { startTime: booking.startTime, endTime: booking.endTime };
  const input = { rules: context.rules, areas: context.areas, place: context.place, person: context.person, span, now };
  const inForce = rulesInForce(context.rules, context.place, context.person);
  // `staticPassed`: the caller judged the limits that need nothing booked already (writeUnderPolicies).
  const refusal = options.staticPassed ? undefined : evaluate(input);
  if (refusal) return { inForce, refusal };
  const counted = inForce.filter((rule) => COUNTED.has(rule.limit.kind));
  if (counted.length === 0) return { inForce };
  const range = heldRange(counted, [span], context.place.zone);
  // Sent together (pipelined on the transaction's one connection, which runs them in order): the
  // held reservations are read after the locks, in the same statement, and the capacity figures in
  // a statement of its own after it, so both see whatever committed while the locks were awaited
  // (docs/policies.md#races).
  const [held, capacity] = await Promise.all([
    repository.held(booking.userId, range.from, range.to, now, options.exceptId, heldNeeds(counted), options.lock ? lockKeys(context, counted, [span]) : []),
    capacityFigures(repository, context, counted, [span], options.exceptId),
  ]);
  // The limits judged above pass: only the counted ones are left.
  return { inForce, refusal: countedRefusals(inForce, input, { held, capacity }) };
}

/**
 * Checks one booking in `tx`, the transaction that then writes it (judgeBooking, with the locks):
 * two writers for one person in two processes take turns, and the second counts the first's row
 * (docs/policies.md#races). Throws the refusal's problem.
 */
export async function checkPolicies(tx: Database, booking: PolicyBooking, now: Date, exceptId?: string): Promise<void> {
  const judged = await judgeBooking(tx, booking, now, { exceptId, lock: true });
  if (judged?.refusal) throw policyProblem(judged.refusal);
}

/**
 * Writes one booking (`write`, given the transaction to write in and whether an approval
 * requirement could hold at the desk: the reservation and what goes with it, such as an approval
 * request, commit together) under the owner's policies: the rules are read and the limits that
 * need nothing booked judged first, outside the transaction; when a counted limit is in force, the
 * transaction takes the locks and counts beside the write (docs/benchmarks.md#booking-policies).
 */
export async function writeUnderPolicies<T>(
  db: Database,
  booking: PolicyBooking,
  now: Date,
  exceptId: string | undefined,
  write: (db: Database, approvals: boolean) => Promise<T>,
): Promise<T> {
  const context = await new PoliciesRepository(db).context(booking.userId, booking.deskId);
  // An unknown desk: the write fails on its foreign key and says so.
  const approvals = context?.approvals ?? true;
  if (booking.type === 'fixed' || !context || (context.rules.length === 0 && context.areas.length === 0)) {
    return db.transaction((tx) => write(tx, approvals));
  }
  const span = { startTime: booking.startTime, endTime: booking.endTime };
  const refusal = evaluate({ rules: context.rules, areas: context.areas, place: context.place, person: context.person, span, now });
  if (refusal) throw policyProblem(refusal);
  if (!rulesInForce(context.rules, context.place, context.person).some((rule) => COUNTED.has(rule.limit.kind))) {
    return db.transaction((tx) => write(tx, approvals));
  }
  return db.transaction(async (tx) => {
    // The locks and reads of the judgement and the write are sent together, pipelined on the
    // transaction's connection: the booking waits no round trip more than one without counted
    // rules. The reads leave out what this transaction writes, the lock serializes the owner's
    // bookings up to their commits, and a refusal rolls the write back (docs/policies.md#races).
    const [judged, written] = await Promise.allSettled([
      judgeBooking(tx, booking, now, { exceptId, lock: true, context, staticPassed: true }),
      write(tx, approvals),
    ]);
    if (judged.status === 'fulfilled' && judged.value?.refusal) throw policyProblem(judged.value.refusal);
    if (written.status === 'rejected') throw written.reason;
    if (judged.status === 'rejected') throw judged.reason;
    return written.value;
  });
}

/**
 * The occurrences of a series the owner's policies refuse, in order (docs/policies.md#series): each
 * is judged as if the earlier ones not refused were already booked, so a weekly limit of two lets
 * the first two of a week through and refuses the rest. In a transaction, under the same locks as
 * a single booking; outside one (the preview) it only reads.
 */
export async function occurrenceRefusals(
  db: Database,
  common: Omit<PolicyBooking, 'startTime' | 'endTime'>,
  occurrences: { date: string; startTime: Date; endTime: Date }[],
  now: Date,
): Promise<OccurrenceConflict[]> {
  if (common.type === 'fixed' || occurrences.length === 0) return [];
  const repository = new PoliciesRepository(db);
  const context = await repository.context(common.userId, common.deskId);
  if (!context || (context.rules.length === 0 && context.areas.length === 0)) return [];
  const counted = rulesInForce(context.rules, context.place, context.person).filter((rule) => COUNTED.has(rule.limit.kind));
  let held: Held[] = [];
  let capacity: CapacityFigures = { taken: new Map(), desks: new Map() };
  if (counted.length > 0) {
    const range = heldRange(counted, occurrences, context.place.zone);
    // Held until the series commits; a preview outside a transaction holds them only for this statement.
    held = await repository.held(common.userId, range.from, range.to, now, undefined, heldNeeds(counted), lockKeys(context, counted, occurrences));
    capacity = await capacityFigures(repository, context, counted, occurrences);
  }
  const refused: OccurrenceConflict[] = [];
  for (const occurrence of occurrences) {
    const span = { startTime: occurrence.startTime, endTime: occurrence.endTime };
    const input = { rules: context.rules, areas: context.areas, place: context.place, person: context.person, span, now };
    const refusal = evaluate(input, { held, capacity });
    if (refusal) {
      refused.push({
        date: occurrence.date,
        startTime: occurrence.startTime.toISOString(),
        endTime: occurrence.endTime.toISOString(),
        reason: 'POLICY',
        rule: refusal.rule,
        message: refusal.message,
      });
      continue;
    }
    // Booked (in the plan): later occurrences count it.
    held = [
      ...held,
      { ...span, deskType: context.place.deskType, roomId: context.place.roomId, departmentId: context.place.departmentId, areaIds: context.place.areaIds },
    ];
    for (const rule of counted) {
      if (rule.limit.kind !== 'CAPACITY') continue;
      for (const date of localDates(span, context.place.zone)) {
        const key = `${rule.id}:${date.toString()}`;
        capacity.taken.set(key, (capacity.taken.get(key) ?? 0) + 1);
      }
    }
  }
  return refused;
}

/** The writer's last word on a series' occurrences: throws the first refusal (the series service skipped them already). */
export async function checkOccurrencePolicies(
  tx: Database,
  common: Omit<PolicyBooking, 'startTime' | 'endTime'>,
  occurrences: { startTime: Date; endTime: Date }[],
  now: Date,
): Promise<void> {
  const refused = await occurrenceRefusals(
    tx,
    common,
    occurrences.map((o) => ({ ...o, date: o.startTime.toISOString().slice(0, 10) })),
    now,
  );
  const first = refused[0];
  if (first) throw new AppError('POLICY_VIOLATION', `${first.message} (the occurrence on ${first.date})`, { rule: first.rule });
}

/**
 * Cancellation (docs/policies.md#rules): a USER cancelling their own reservation
 * that starts within the CANCEL_LEAD in force is refused; admins (and reservations of admins, fixed
 * ones) pass. Reads the reservation; answers without checking when it is gone (the delete says 404).
 */
export async function checkCancellation(db: Database, reservationId: string, byAdmin: boolean, now: Date): Promise<void> {
  if (byAdmin) return;
  const repository = new PoliciesRepository(db);
  const reservation = await repository.reservation(reservationId);
  if (!reservation || reservation.type === 'fixed' || reservation.startTime <= now) return;
  const context = await repository.context(reservation.userId, reservation.deskId);
  if (!context || context.rules.length === 0) return;
  const lead = rulesInForce(context.rules, context.place, context.person).find((rule) => rule.limit.kind === 'CANCEL_LEAD');
  const refusal = cancelRefusal(lead, reservation.startTime, now);
  if (refusal) throw policyProblem(refusal);
}
