import { Temporal } from 'temporal-polyfill';

/**
 * The rule model of docs/policies.md as plain functions, without a database: which rules apply to
 * a booking, which one wins where several overlap (#precedence), and whether a booking keeps each
 * limit given what its owner already holds. The repository reads the figures; the check
 * (policies.check.ts) calls these in the booking's transaction.
 */

export type DeskKind = 'FLEX' | 'FIXED';
export type Period = 'DAY' | 'WEEK' | 'MONTH';

export type Scope =
  | { kind: 'EVERYWHERE' }
  | { kind: 'DEPARTMENT'; id: string }
  | { kind: 'ROOM'; id: string }
  | { kind: 'AREA'; id: string }
  | { kind: 'DESK_TYPE'; deskType: DeskKind };

export type Who = { kind: 'EVERYONE' } | { kind: 'TEAM'; teamId: string } | { kind: 'ROLE'; role: 'USER' | 'ADMIN' | 'TEAM_MANAGER' };

export type Limit =
  | { kind: 'BOOKING_WINDOW'; days: number }
  | { kind: 'MIN_DURATION'; minutes: number }
  | { kind: 'MAX_DURATION'; minutes: number }
  | { kind: 'GRANULARITY'; unit: 'DAY' | 'HOUR' }
  | { kind: 'WEEKDAYS_HOURS'; weekdays: number[]; from?: string; to?: string }
  | { kind: 'MAX_BOOKINGS'; count: number; per: Period }
  | { kind: 'MAX_HOURS'; hours: number; per: Period }
  | { kind: 'MAX_CONCURRENT'; count: number }
  | { kind: 'CAPACITY'; percent?: number; count?: number }
  | { kind: 'CANCEL_LEAD'; minutes: number }
  | { kind: 'OWN_AREAS_ONLY' };

export type LimitKind = Limit['kind'];

export const LIMIT_KINDS: LimitKind[] = [
  'BOOKING_WINDOW',
  'MIN_DURATION',
  'MAX_DURATION',
  'GRANULARITY',
  'WEEKDAYS_HOURS',
  'MAX_BOOKINGS',
  'MAX_HOURS',
  'MAX_CONCURRENT',
  'CAPACITY',
  'CANCEL_LEAD',
  'OWN_AREAS_ONLY',
];

/** Limits that depend on what is already booked: checked under the locks, in the writing transaction. */
export const COUNTED: ReadonlySet<LimitKind> = new Set(['MAX_BOOKINGS', 'MAX_HOURS', 'MAX_CONCURRENT', 'CAPACITY']);

export interface Rule {
  id: string;
  name: string;
  scope: Scope;
  who: Who;
  limit: Limit;
  appliesToAdmins: boolean;
}

export interface Area {
  id: string;
  name: string;
  kind: 'DEPARTMENT' | 'ROOM' | 'DESKS';
  departmentId: string | null;
  roomId: string | null;
  /** ISO weekdays; empty: every day. */
  weekdays: number[];
  exclusive: boolean;
  teamIds: string[];
  teamNames: string[];
}

/** Where a desk is: what scopes match it. `areaIds`: the areas it lies in (any weekday). */
export interface Place {
  deskId: string;
  deskType: DeskKind;
  roomId: string;
  departmentId: string;
  areaIds: string[];
  /** The office's IANA zone (department settings; UTC without). */
  zone: string;
}

export interface Person {
  id: string;
  admin: boolean;
  /** team id → MEMBER or MANAGER. */
  teams: Map<string, 'MEMBER' | 'MANAGER'>;
}

export interface Span {
  startTime: Date;
  endTime: Date;
}

/** A reservation the owner already holds, where it is (for the counted limits). */
export interface Held extends Span {
  deskType: DeskKind;
  roomId: string;
  departmentId: string;
  areaIds: string[];
}

/** Why a booking is refused: the rule (or area), the words, the figures (docs/errors.md). */
export interface Refusal {
  /** 403 POLICY_VIOLATION (the rule forbids it) or 409 POLICY_LIMIT_REACHED (a counted limit is used up). */
  code: 'POLICY_VIOLATION' | 'POLICY_LIMIT_REACHED';
  rule: { id: string; kind: LimitKind | 'AREA_RESERVED'; name: string };
  message: string;
  limit?: { name: string; max: number; current: number; requested: number };
  window?: { from: string; to: string; period?: Period };
}

// --- which rules apply, and which wins -------------------------------------------------------

export function scopeMatches(scope: Scope, place: Pick<Place, 'deskType' | 'roomId' | 'departmentId' | 'areaIds'>): boolean {
  switch (scope.kind) {
    case 'EVERYWHERE':
      return true;
    case 'DEPARTMENT':
      return place.departmentId === scope.id;
    case 'ROOM':
      return place.roomId === scope.id;
    case 'AREA':
      return place.areaIds.includes(scope.id);
    case 'DESK_TYPE':
      return place.deskType === scope.deskType;
  }
}

export function whoMatches(who: Who, person: Person): boolean {
  switch (who.kind) {
    case 'EVERYONE':
      return true;
    case 'TEAM':
      return person.teams.has(who.teamId);
    case 'ROLE':
      if (who.role === 'ADMIN') return person.admin;
      if (who.role === 'USER') return !person.admin;
      return [...person.teams.values()].includes('MANAGER');
  }
}

/** Admins are bound only by rules that say so (docs/policies.md#precedence). */
export const binds = (rule: Rule, person: Person): boolean => (!person.admin || rule.appliesToAdmins) && whoMatches(rule.who, person);

/** Scope first: an area is the narrowest place an admin names, then a room, a department, a desk type, everywhere. */
const SCOPE_RANK: Record<Scope['kind'], number> = { EVERYWHERE: 0, DESK_TYPE: 1, DEPARTMENT: 2, ROOM: 3, AREA: 4 };
/** Then who: a team before a role before everyone. */
const WHO_RANK: Record<Who['kind'], number> = { EVERYONE: 0, ROLE: 1, TEAM: 2 };

export const specificity = (rule: Rule): number => SCOPE_RANK[rule.scope.kind] * 10 + WHO_RANK[rule.who.kind];

/** The slot a rule fills: rules of one slot compete (the most specific wins); rules of different slots all hold. */
export const slotOf = (limit: Limit): string => (limit.kind === 'MAX_BOOKINGS' || limit.kind === 'MAX_HOURS' ? `${limit.kind}:${limit.per}` : limit.kind);

/** How much a limit allows, to break a tie between equally specific rules (two teams of the person): the larger allowance wins. */
export function allowance(limit: Limit): number {
  switch (limit.kind) {
    case 'BOOKING_WINDOW':
      return limit.days;
    case 'MIN_DURATION':
    case 'CANCEL_LEAD':
      return -limit.minutes;
    case 'MAX_DURATION':
      return limit.minutes;
    case 'GRANULARITY':
      return limit.unit === 'HOUR' ? 1 : 0;
    case 'WEEKDAYS_HOURS':
      return limit.weekdays.length * 1440 + (minutesOf(limit.to, 1440) - minutesOf(limit.from, 0));
    case 'MAX_BOOKINGS':
    case 'MAX_CONCURRENT':
      return limit.count;
    case 'MAX_HOURS':
      return limit.hours;
    case 'CAPACITY':
      return limit.count ?? limit.percent ?? 0;
    case 'OWN_AREAS_ONLY':
      return 0;
  }
}

/**
 * The rules in force for this person at this place, one per slot (docs/policies.md#precedence):
 * of the rules whose scope matches the place and who matches the person, the most specific;
 * between equally specific ones, the one that allows more.
 */
export function rulesInForce(rules: Rule[], place: Pick<Place, 'deskType' | 'roomId' | 'departmentId' | 'areaIds'>, person: Person): Rule[] {
  const winners = new Map<string, Rule>();
  for (const rule of rules) {
    if (!binds(rule, person) || !scopeMatches(rule.scope, place)) continue;
    const slot = slotOf(rule.limit);
    const held = winners.get(slot);
    if (!held || specificity(rule) > specificity(held) || (specificity(rule) === specificity(held) && allowance(rule.limit) > allowance(held.limit))) {
      winners.set(slot, rule);
    }
  }
  return [...winners.values()];
}

// --- calendar helpers in the office's zone ----------------------------------------------------

export const minutesOf = (time: string | undefined, fallback: number): number => {
  if (time === undefined) return fallback;
  const [h, m] = time.split(':').map(Number);
  return h! * 60 + m!;
};

const zoned = (instant: Date, zone: string) => Temporal.Instant.fromEpochMilliseconds(instant.getTime()).toZonedDateTimeISO(zone);

/** Periods computed lately: one booking's check asks for the same few several times (docs/benchmarks.md#booking-policies). */
const periods = new Map<string, { from: Date; to: Date }>();
const PERIODS_KEPT = 1024;

/** The local period (day, ISO week from Monday, month) holding `instant`, as instants [from, to). */
export function periodOf(instant: Date, period: Period, zone: string): { from: Date; to: Date } {
  const key = `${zone} ${period} ${instant.getTime()}`;
  const known = periods.get(key);
  if (known) return { from: new Date(known.from), to: new Date(known.to) };
  const date = zoned(instant, zone).toPlainDate();
  const first = period === 'DAY' ? date : period === 'WEEK' ? date.subtract({ days: date.dayOfWeek - 1 }) : date.with({ day: 1 });
  const next = first.add(period === 'DAY' ? { days: 1 } : period === 'WEEK' ? { weeks: 1 } : { months: 1 });
  const at = (d: Temporal.PlainDate) => new Date(d.toZonedDateTime({ timeZone: zone }).epochMilliseconds);
  const found = { from: at(first), to: at(next) };
  if (periods.size >= PERIODS_KEPT) periods.clear();
  periods.set(key, found);
  return { from: new Date(found.from), to: new Date(found.to) };
}

/** The local dates a span touches (its end excluded), at most `max`. */
export function localDates(span: Span, zone: string, max = 62): Temporal.PlainDate[] {
  const last = zoned(new Date(span.endTime.getTime() - 1), zone).toPlainDate();
  const dates: Temporal.PlainDate[] = [];
  for (let d = zoned(span.startTime, zone).toPlainDate(); Temporal.PlainDate.compare(d, last) <= 0 && dates.length < max; d = d.add({ days: 1 })) {
    dates.push(d);
  }
  return dates;
}

const WEEKDAY_NAMES = ['Mondays', 'Tuesdays', 'Wednesdays', 'Thursdays', 'Fridays', 'Saturdays', 'Sundays'];
export const weekdayNames = (weekdays: number[]): string => weekdays.map((d) => WEEKDAY_NAMES[d - 1]).join(', ');
const PERIOD_WORD: Record<Period, string> = { DAY: 'day', WEEK: 'week', MONTH: 'month' };

const label = (rule: Rule) => ({ id: rule.id, kind: rule.limit.kind, name: rule.name });

// --- areas ----------------------------------------------------------------------------------

/** Whether an area holds the place (any weekday). */
export const areaHolds = (area: Area, place: { deskId: string; roomId: string; departmentId: string }, deskAreaIds: string[]): boolean =>
  area.kind === 'DEPARTMENT' ? area.departmentId === place.departmentId : area.kind === 'ROOM' ? area.roomId === place.roomId : deskAreaIds.includes(area.id);

const reservedOn = (area: Area, weekday: number) => area.weekdays.length === 0 || area.weekdays.includes(weekday);

/**
 * Areas first (docs/policies.md#areas): on a day an exclusive area is reserved for its teams, a
 * person in none of them is refused there; a person bound by OWN_AREAS_ONLY may book only in an
 * area reserved for one of their teams that day. Admins pass (an area has no "applies to admins").
 */
export function areaRefusal(areas: Area[], place: Place, person: Person, span: Span, ownAreasOnly: Rule | undefined): Refusal | undefined {
  if (person.admin && !ownAreasOnly) return undefined;
  const here = areas.filter((area) => place.areaIds.includes(area.id));
  for (const date of localDates(span, place.zone)) {
    if (!person.admin) {
      for (const area of here) {
        if (!area.exclusive || !reservedOn(area, date.dayOfWeek)) continue;
        if (area.teamIds.some((team) => person.teams.has(team))) continue;
        const days = area.weekdays.length === 0 ? '' : ` on ${weekdayNames(area.weekdays)}`;
        return {
          code: 'POLICY_VIOLATION',
          rule: { id: area.id, kind: 'AREA_RESERVED', name: area.name },
          message: `${area.name} is reserved for ${area.teamNames.join(', ') || 'its teams'}${days} (${date.toString()})`,
        };
      }
    }
    if (ownAreasOnly && !here.some((area) => reservedOn(area, date.dayOfWeek) && area.teamIds.some((team) => person.teams.has(team)))) {
      return {
        code: 'POLICY_VIOLATION',
        rule: label(ownAreasOnly),
        message: `You may book only in your teams' areas; this desk is not one of them on ${date.toString()}`,
      };
    }
  }
  return undefined;
}

// --- the limits that need nothing booked -----------------------------------------------------

/** The first limit without counting that the span breaks, or undefined. `now`: the time of the request. */
export function staticRefusal(rule: Rule, span: Span, zone: string, now: Date): Refusal | undefined {
  const limit = rule.limit;
  const ms = span.endTime.getTime() - span.startTime.getTime();
  const refuse = (message: string, figures?: Refusal['limit']): Refusal => ({
    code: 'POLICY_VIOLATION',
    rule: label(rule),
    message,
    ...(figures ? { limit: figures } : {}),
  });
  switch (limit.kind) {
    case 'BOOKING_WINDOW': {
      const ahead = Math.ceil((span.startTime.getTime() - now.getTime()) / 86_400_000);
      if (span.startTime.getTime() > now.getTime() + limit.days * 86_400_000) {
        return refuse(`You may book at most ${limit.days} days ahead`, { name: limit.kind, max: limit.days, current: ahead, requested: 1 });
      }
      return undefined;
    }
    case 'MIN_DURATION':
      if (ms < limit.minutes * 60_000) {
        return refuse(`A booking here lasts at least ${limit.minutes} minutes`, {
          name: limit.kind,
          max: limit.minutes,
          current: Math.floor(ms / 60_000),
          requested: 1,
        });
      }
      return undefined;
    case 'MAX_DURATION':
      if (ms > limit.minutes * 60_000) {
        return refuse(`A booking here lasts at most ${limit.minutes} minutes`, {
          name: limit.kind,
          max: limit.minutes,
          current: Math.ceil(ms / 60_000),
          requested: 1,
        });
      }
      return undefined;
    case 'GRANULARITY': {
      const start = zoned(span.startTime, zone);
      const end = zoned(span.endTime, zone);
      const onHour = (t: Temporal.ZonedDateTime) => t.minute === 0 && t.second === 0 && t.millisecond === 0;
      const onDay = (t: Temporal.ZonedDateTime) => onHour(t) && t.hour === 0;
      const ok = limit.unit === 'DAY' ? onDay(start) && onDay(end) : onHour(start) && onHour(end);
      return ok ? undefined : refuse(limit.unit === 'DAY' ? 'Desks here are booked by whole days' : 'Desks here are booked by whole hours');
    }
    case 'WEEKDAYS_HOURS': {
      const from = minutesOf(limit.from, 0);
      const to = minutesOf(limit.to, 1440);
      for (const date of localDates(span, zone)) {
        if (!limit.weekdays.includes(date.dayOfWeek)) return refuse(`Desks here may be booked only on ${weekdayNames(limit.weekdays)}`);
      }
      if (limit.from !== undefined || limit.to !== undefined) {
        // Minutes after the local midnight of the start's day: an end on a later day counts past 1440.
        const start = zoned(span.startTime, zone);
        const end = zoned(span.endTime, zone);
        const days = start.toPlainDate().until(end.toPlainDate(), { largestUnit: 'days' }).days;
        const startMin = start.hour * 60 + start.minute;
        const endMin = days * 1440 + end.hour * 60 + end.minute + (end.second > 0 || end.millisecond > 0 ? 1 : 0);
        if (startMin < from || endMin > to) return refuse(`Desks here may be booked only between ${limit.from ?? '00:00'} and ${limit.to ?? '24:00'}`);
      }
      return undefined;
    }
    default:
      return undefined;
  }
}

// --- the counted limits ----------------------------------------------------------------------

/** What the counted limits need beyond the owner's reservations: per CAPACITY rule and local date, desks taken and desks there. */
export interface CapacityFigures {
  /** `${ruleId}:${date}` → distinct desks with a reservation that day (this desk excluded), and desks in the scope. */
  taken: Map<string, number>;
  desks: Map<string, number>;
}

export const capacityOf = (limit: Extract<Limit, { kind: 'CAPACITY' }>, desks: number): number =>
  limit.count !== undefined ? limit.count : Math.floor(((limit.percent ?? 100) * desks) / 100);

/**
 * The counted limit the span breaks, given what the owner holds (`held`: their reservations, the
 * one being moved left out) and `now`. Bookings and hours count in the local period of their
 * start; concurrent bookings are those not ended at `now`; capacity counts desks per local day.
 */
export function countedRefusal(rule: Rule, span: Span, place: Place, held: Held[], capacity: CapacityFigures, now: Date): Refusal | undefined {
  const limit = rule.limit;
  const inScope = held.filter((h) => scopeMatches(rule.scope, h));
  switch (limit.kind) {
    case 'MAX_BOOKINGS':
    case 'MAX_HOURS': {
      const window = periodOf(span.startTime, limit.per, place.zone);
      const within = inScope.filter((h) => h.startTime >= window.from && h.startTime < window.to);
      const hours = (s: Span) => (s.endTime.getTime() - s.startTime.getTime()) / 3_600_000;
      const used = limit.kind === 'MAX_BOOKINGS' ? within.length : within.reduce((sum, h) => sum + hours(h), 0);
      const max = limit.kind === 'MAX_BOOKINGS' ? limit.count : limit.hours;
      const adding = limit.kind === 'MAX_BOOKINGS' ? 1 : hours(span);
      if (used + adding <= max + 1e-9) return undefined;
      const unit = limit.kind === 'MAX_BOOKINGS' ? 'bookings' : 'hours';
      const round = (n: number) => Math.round(n * 100) / 100;
      return {
        code: 'POLICY_LIMIT_REACHED',
        rule: label(rule),
        message: `You have booked ${round(used)} of your ${max} ${unit} this ${PERIOD_WORD[limit.per]}${limit.kind === 'MAX_HOURS' ? ` and asked for ${round(adding)} more` : ''}`,
        limit: { name: limit.kind, max, current: Math.ceil(used), requested: Math.ceil(adding) },
        window: { from: window.from.toISOString(), to: window.to.toISOString(), period: limit.per },
      };
    }
    case 'MAX_CONCURRENT': {
      const used = inScope.filter((h) => h.endTime > now).length;
      if (used + 1 <= limit.count) return undefined;
      return {
        code: 'POLICY_LIMIT_REACHED',
        rule: label(rule),
        message: `You hold ${used} of your ${limit.count} bookings that have not ended; cancel one first`,
        limit: { name: limit.kind, max: limit.count, current: used, requested: 1 },
      };
    }
    case 'CAPACITY': {
      for (const date of localDates(span, place.zone)) {
        const key = `${rule.id}:${date.toString()}`;
        const taken = capacity.taken.get(key) ?? 0;
        const max = capacityOf(limit, capacity.desks.get(rule.id) ?? 0);
        if (taken + 1 <= max) continue;
        const from = new Date(date.toZonedDateTime({ timeZone: place.zone }).epochMilliseconds);
        const to = new Date(date.add({ days: 1 }).toZonedDateTime({ timeZone: place.zone }).epochMilliseconds);
        return {
          code: 'POLICY_LIMIT_REACHED',
          rule: label(rule),
          message: `${taken} of the ${max} desks that may be booked here on ${date.toString()} are taken${limit.percent !== undefined ? ` (${limit.percent} % of the desks)` : ''}`,
          limit: { name: limit.kind, max, current: taken, requested: 1 },
          window: { from: from.toISOString(), to: to.toISOString(), period: 'DAY' },
        };
      }
      return undefined;
    }
    default:
      return undefined;
  }
}

/** For the allowance: a counted rule's figure and what of it `held` uses in `window` (MAX_CONCURRENT: not ended at `now`). */
export function usedIn(rule: Rule, held: Held[], window: { from: Date; to: Date }, now: Date): { limit: number; used: number } {
  const inScope = held.filter((h) => scopeMatches(rule.scope, h));
  const limit = rule.limit;
  switch (limit.kind) {
    case 'MAX_BOOKINGS':
      return { limit: limit.count, used: inScope.filter((h) => h.startTime >= window.from && h.startTime < window.to).length };
    case 'MAX_HOURS': {
      const hours = inScope
        .filter((h) => h.startTime >= window.from && h.startTime < window.to)
        .reduce((sum, h) => sum + (h.endTime.getTime() - h.startTime.getTime()) / 3_600_000, 0);
      return { limit: limit.hours, used: Math.round(hours * 100) / 100 };
    }
    case 'MAX_CONCURRENT':
      return { limit: limit.count, used: inScope.filter((h) => h.endTime > now).length };
    default:
      return { limit: 0, used: 0 };
  }
}

/** Cancellation (docs/policies.md#rules): refused when the reservation starts within the lead time. */
export function cancelRefusal(rule: Rule | undefined, startTime: Date, now: Date): Refusal | undefined {
  if (!rule || rule.limit.kind !== 'CANCEL_LEAD') return undefined;
  if (startTime <= now) return undefined; // a started reservation is ended early, never "cancelled late"
  const left = startTime.getTime() - now.getTime();
  if (left >= rule.limit.minutes * 60_000) return undefined;
  return {
    code: 'POLICY_VIOLATION',
    rule: label(rule),
    message: `A booking here may be cancelled up to ${rule.limit.minutes} minutes before it starts`,
    limit: { name: 'CANCEL_LEAD', max: rule.limit.minutes, current: Math.floor(left / 60_000), requested: 1 },
  };
}

/**
 * Every refusal of one booking, in order: areas, then the limits without counting, then (when
 * `held` is given) the counted ones. Answers the first.
 */
export function evaluate(
  input: { rules: Rule[]; areas: Area[]; place: Place; person: Person; span: Span; now: Date },
  counted?: { held: Held[]; capacity: CapacityFigures },
): Refusal | undefined {
  const inForce = rulesInForce(input.rules, input.place, input.person);
  const own = inForce.find((rule) => rule.limit.kind === 'OWN_AREAS_ONLY');
  const area = areaRefusal(input.areas, input.place, input.person, input.span, own);
  if (area) return area;
  for (const rule of inForce) {
    const refusal = staticRefusal(rule, input.span, input.place.zone, input.now);
    if (refusal) return refusal;
  }
  if (!counted) return undefined;
  return countedRefusals(inForce, input, counted);
}

/** The first counted limit among `inForce` that the span breaks (evaluate's last step, for a caller that judged the others already). */
export function countedRefusals(
  inForce: Rule[],
  input: { place: Place; span: Span; now: Date },
  counted: { held: Held[]; capacity: CapacityFigures },
): Refusal | undefined {
  for (const rule of inForce) {
    if (!COUNTED.has(rule.limit.kind)) continue;
    const refusal = countedRefusal(rule, input.span, input.place, counted.held, counted.capacity, input.now);
    if (refusal) return refusal;
  }
  return undefined;
}
