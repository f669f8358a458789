import { Temporal } from 'temporal-polyfill';
import type { Database } from '../../db/client.js';
import { pgConstraint, pgErrorCode, PG } from '../../db/errors.js';
import type { Caller } from '../../identity/caller.js';
import type { Clock } from '../../shared/clock.js';
import { AppError, invalid, notFound } from '../../shared/errors.js';
import { parseInstant } from '../../shared/time.js';
import { isTimeZone } from '../../shared/zone.js';
import { toAreaDto, toRuleDto, weekdayCodes, weekdayNumbers } from './policies.mappers.js';
import { PoliciesRepository, type RuleRow } from './policies.repository.js';
import { judgeBooking } from './policies.check.js';
import { binds, COUNTED, periodOf, slotOf, specificity, usedIn, type Period, type Rule } from './policies.rules.js';
import type { AllowanceDto, AllowanceQueryDto, AreaBodyDto, AreaDto, PreviewBodyDto, PreviewDto, RuleBodyDto, RuleDto } from './policies.schemas.js';

/** At most this many rules and areas (docs/policies.md#limits-of-the-model): every booking reads the ones that could hold. */
export const MAX_RULES = 200;
export const MAX_AREAS = 100;

const TIME = /^([01]\d|2[0-3]):[0-5]\d$|^24:00$/;

/**
 * Areas and rules (docs/policies.md): their administration with the checks that name the field,
 * the preview of a booking against the rules, and a person's allowance. The check on every write
 * is policies.check.ts, called by the one writer of reservations.
 */
export class PoliciesService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  private get repository() {
    return new PoliciesRepository(this.db);
  }

  // --- areas ------------------------------------------------------------------------------

  async listAreas(): Promise<{ items: AreaDto[] }> {
    return { items: (await this.repository.listAreas()).map(toAreaDto) };
  }

  async createArea(body: AreaBodyDto): Promise<AreaDto> {
    const id = await this.db.transaction(async (tx) => {
      const repository = new PoliciesRepository(tx);
      await repository.lockAdministration();
      if ((await repository.countAreas()) >= MAX_AREAS) throw new AppError('CONFLICT', `At most ${MAX_AREAS} areas; remove one first`);
      const values = await this.areaValues(repository, body);
      return this.uniqueName(() => repository.insertArea(values.row, body.teamIds, values.deskIds));
    });
    return toAreaDto((await this.repository.findArea(id))!);
  }

  async updateArea(id: string, body: AreaBodyDto): Promise<AreaDto> {
    await this.db.transaction(async (tx) => {
      const repository = new PoliciesRepository(tx);
      await repository.lockAdministration();
      const values = await this.areaValues(repository, body);
      const done = await this.uniqueName(() => repository.updateArea(id, { ...values.row, modifiedAt: this.clock.now() }, body.teamIds, values.deskIds));
      if (!done) throw notFound('Area', id);
    });
    return toAreaDto((await this.repository.findArea(id))!);
  }

  async deleteArea(id: string): Promise<void> {
    if (!(await this.repository.deleteArea(id))) throw notFound('Area', id);
  }

  private async areaValues(repository: PoliciesRepository, body: AreaBodyDto) {
    const departmentId = body.kind === 'DEPARTMENT' ? body.departmentId : null;
    const roomId = body.kind === 'ROOM' ? body.roomId : null;
    const deskIds = body.kind === 'DESKS' ? (body.deskIds ?? []) : [];
    if (body.kind === 'DEPARTMENT' && !departmentId) throw invalid('departmentId', 'required for an area of kind DEPARTMENT');
    if (body.kind === 'ROOM' && !roomId) throw invalid('roomId', 'required for an area of kind ROOM');
    if (body.kind === 'DESKS' && deskIds.length === 0) throw invalid('deskIds', 'an area of kind DESKS names at least one desk');
    if (body.kind !== 'DEPARTMENT' && body.departmentId) throw invalid('departmentId', `only an area of kind DEPARTMENT names one`);
    if (body.kind !== 'ROOM' && body.roomId) throw invalid('roomId', `only an area of kind ROOM names one`);
    if (body.kind !== 'DESKS' && (body.deskIds?.length ?? 0) > 0) throw invalid('deskIds', `only an area of kind DESKS names desks`);
    if (departmentId && !(await repository.existing('departments', [departmentId])).has(departmentId)) throw invalid('departmentId', 'no such department');
    if (roomId && !(await repository.existing('rooms', [roomId])).has(roomId)) throw invalid('roomId', 'no such room');
    const desks = await repository.existing('desks', deskIds);
    const missingDesk = deskIds.find((desk) => !desks.has(desk));
    if (missingDesk) throw invalid('deskIds', `no such desk: ${missingDesk}`);
    const teams = await repository.existing('teams', body.teamIds);
    const missingTeam = body.teamIds.find((team) => !teams.has(team));
    if (missingTeam) throw invalid('teamIds', `no such team: ${missingTeam}`);
    return {
      row: { name: body.name.trim(), kind: body.kind, departmentId, roomId, weekdays: weekdayNumbers(body.weekdays ?? []), exclusive: body.exclusive ?? true },
      deskIds,
    };
  }

  private async uniqueName<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (pgErrorCode(error) === PG.UNIQUE_VIOLATION && pgConstraint(error) === 'policy_areas_name_lower_key') {
        throw new AppError('CONFLICT', 'Another area has this name (ignoring case)', { errors: [{ field: 'name', message: 'already used by another area' }] });
      }
      throw error;
    }
  }

  // --- rules ------------------------------------------------------------------------------

  async listRules(): Promise<{ items: RuleDto[] }> {
    return { items: (await this.repository.listRules()).map(toRuleDto) };
  }

  async createRule(body: RuleBodyDto): Promise<RuleDto> {
    return this.db.transaction(async (tx) => {
      const repository = new PoliciesRepository(tx);
      await repository.lockAdministration();
      if ((await repository.countRules()) >= MAX_RULES) throw new AppError('CONFLICT', `At most ${MAX_RULES} rules; remove one first`);
      const values = await this.ruleValues(repository, body);
      await this.ensureNoContradiction(repository, values);
      return toRuleDto(await this.slotFree(() => repository.insertRule(values)));
    });
  }

  async updateRule(id: string, body: RuleBodyDto): Promise<RuleDto> {
    return this.db.transaction(async (tx) => {
      const repository = new PoliciesRepository(tx);
      await repository.lockAdministration();
      if (!(await repository.findRule(id))) throw notFound('Rule', id);
      const values = await this.ruleValues(repository, body);
      await this.ensureNoContradiction(repository, values, id);
      const row = await this.slotFree(() => repository.updateRule(id, { ...values, modifiedAt: this.clock.now() }));
      return toRuleDto(row!);
    });
  }

  async deleteRule(id: string): Promise<void> {
    if (!(await this.repository.deleteRule(id))) throw notFound('Rule', id);
  }

  /** The row of a rule, each member checked by its kind; a 400 names the member (`limit.days`, `scope.roomId` …). */
  private async ruleValues(repository: PoliciesRepository, body: RuleBodyDto): Promise<Omit<RuleRow, 'id' | 'createdAt' | 'modifiedAt'>> {
    const { scope, who, limit } = body;
    const scopeColumns = {
      departmentId: null as string | null,
      roomId: null as string | null,
      areaId: null as string | null,
      deskType: null as 'FLEX' | 'FIXED' | null,
    };
    const needs = { DEPARTMENT: 'departmentId', ROOM: 'roomId', AREA: 'areaId', DESK_TYPE: 'deskType' } as const;
    for (const [kind, member] of Object.entries(needs)) {
      const given = scope[member] !== undefined;
      if (scope.kind === kind && !given) throw invalid(`scope.${member}`, `required for scope ${kind}`);
      if (scope.kind !== kind && given) throw invalid(`scope.${member}`, `only scope ${kind} takes it`);
    }
    const tables = { departmentId: 'departments', roomId: 'rooms', areaId: 'policy_areas' } as const;
    for (const [member, table] of Object.entries(tables) as [keyof typeof tables, (typeof tables)[keyof typeof tables]][]) {
      const id = scope[member];
      if (id === undefined) continue;
      if (!(await repository.existing(table, [id])).has(id)) throw invalid(`scope.${member}`, 'does not exist');
      scopeColumns[member] = id;
    }
    if (scope.deskType) scopeColumns.deskType = scope.deskType;
    if (who.kind === 'TEAM' && !who.teamId) throw invalid('who.teamId', 'required for who TEAM');
    if (who.kind !== 'TEAM' && who.teamId) throw invalid('who.teamId', 'only who TEAM takes it');
    if (who.kind === 'ROLE' && !who.role) throw invalid('who.role', 'required for who ROLE');
    if (who.kind !== 'ROLE' && who.role) throw invalid('who.role', 'only who ROLE takes it');
    if (who.teamId && !(await repository.existing('teams', [who.teamId])).has(who.teamId)) throw invalid('who.teamId', 'no such team');
    return {
      name: (body.name ?? '').trim(),
      scope: scope.kind,
      ...scopeColumns,
      who: who.kind,
      teamId: who.teamId ?? null,
      role: who.role ?? null,
      kind: limit.kind,
      params: limitParams(limit),
      appliesToAdmins: body.appliesToAdmins ?? false,
    };
  }

  /** A minimum duration above the maximum (or the reverse) for the same place and people contradicts it: 409 naming limit.minutes. */
  private async ensureNoContradiction(repository: PoliciesRepository, values: Omit<RuleRow, 'id' | 'createdAt' | 'modifiedAt'>, exceptId?: string) {
    if (values.kind !== 'MIN_DURATION' && values.kind !== 'MAX_DURATION') return;
    const other = values.kind === 'MIN_DURATION' ? 'MAX_DURATION' : 'MIN_DURATION';
    const same = (await repository.listRules()).find(
      (row) =>
        row.id !== exceptId &&
        row.kind === other &&
        row.scope === values.scope &&
        row.departmentId === values.departmentId &&
        row.roomId === values.roomId &&
        row.areaId === values.areaId &&
        row.deskType === values.deskType &&
        row.who === values.who &&
        row.teamId === values.teamId &&
        row.role === values.role,
    );
    if (!same) return;
    const minutes = (values.params as { minutes: number }).minutes;
    const otherMinutes = (same.params as { minutes: number }).minutes;
    const [min, max] = values.kind === 'MIN_DURATION' ? [minutes, otherMinutes] : [otherMinutes, minutes];
    if (min > max) {
      throw new AppError(
        'POLICY_RULE_CONFLICT',
        `The minimum duration (${min} minutes) would exceed the maximum (${max} minutes) of rule ${same.id} for the same place and people`,
        {
          errors: [{ field: 'limit.minutes', message: `contradicts rule ${same.id}` }],
        },
      );
    }
  }

  private async slotFree<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (pgErrorCode(error) === PG.UNIQUE_VIOLATION && pgConstraint(error) === 'policy_rules_slot_key') {
        throw new AppError('POLICY_RULE_CONFLICT', 'Another rule already sets this limit for the same scope and people; change that one instead', {
          errors: [{ field: 'limit.kind', message: 'already set for this scope and who' }],
        });
      }
      throw error;
    }
  }

  // --- the preview and the allowance ------------------------------------------------------

  /** What the rules say of a booking, without writing it (docs/policies.md#preview): three reads, whatever the rules. */
  async preview(body: PreviewBodyDto): Promise<PreviewDto> {
    const startTime = parseInstant('startTime', body.startTime);
    const endTime = parseInstant('endTime', body.endTime);
    if (startTime >= endTime) throw invalid('endTime', 'must be after startTime');
    if (endTime.getTime() - startTime.getTime() > 62 * 86_400_000) throw invalid('endTime', 'a preview spans at most 62 days');
    const repository = this.repository;
    if (!(await repository.existing('desks', [body.deskId])).has(body.deskId)) throw invalid('deskId', 'no such desk');
    if (!(await repository.person(body.userId))) throw invalid('userId', 'no such user');
    // The figures a booking would read, without its locks: a preview writes nothing.
    const judged = await judgeBooking(this.db, { userId: body.userId, deskId: body.deskId, startTime, endTime, type: 'shared' }, this.clock.now(), {
      lock: false,
    });
    const refusal = judged?.refusal;
    return {
      allowed: !refusal,
      refusal: refusal
        ? {
            code: refusal.code,
            message: refusal.message,
            rule: refusal.rule,
            ...(refusal.limit ? { limit: refusal.limit } : {}),
            ...(refusal.window ? { window: refusal.window } : {}),
          }
        : null,
      rules: (judged?.inForce ?? []).map(ref),
    };
  }

  /**
   * What the caller may still book in an ISO week (docs/policies.md#allowance): each counted limit
   * that binds them, with what is used; and the areas closed to them. Four reads, bounded by the
   * rule and area caps, whatever the week asked.
   */
  async allowance(caller: Caller, query: AllowanceQueryDto): Promise<AllowanceDto> {
    const repository = this.repository;
    const zone = query.departmentId === undefined ? 'UTC' : await this.zoneOf(query.departmentId);
    const now = this.clock.now();
    const monday =
      query.week === undefined ? mondayOf(Temporal.Instant.fromEpochMilliseconds(now.getTime()).toZonedDateTimeISO(zone).toPlainDate()) : parseWeek(query.week);
    const from = new Date(monday.toZonedDateTime({ timeZone: zone }).epochMilliseconds);
    const to = new Date(monday.add({ weeks: 1 }).toZonedDateTime({ timeZone: zone }).epochMilliseconds);
    const context = await repository.allowanceContext(caller.user.id);
    if (!context) throw notFound('User', caller.user.id);
    const { person } = context;
    const binding = context.rules.filter((rule) => binds(rule, person) && COUNTED.has(rule.limit.kind) && rule.limit.kind !== 'CAPACITY');
    // Within one scope and slot, the most specific who wins (docs/policies.md#precedence).
    const shown = binding.filter(
      (rule) =>
        !binding.some(
          (other) =>
            other !== rule &&
            slotOf(other.limit) === slotOf(rule.limit) &&
            JSON.stringify(other.scope) === JSON.stringify(rule.scope) &&
            specificity(other) > specificity(rule),
        ),
    );
    const monthStart = periodOf(from, 'MONTH', zone).from;
    const monthEnd = periodOf(new Date(to.getTime() - 1), 'MONTH', zone).to;
    const held = shown.length === 0 ? [] : await repository.held(caller.user.id, monthStart, monthEnd, now);
    const limits: AllowanceDto['limits'] = [];
    for (const rule of shown) {
      const windows: { from: Date; to: Date; period?: Period }[] =
        rule.limit.kind === 'MAX_CONCURRENT'
          ? [{ from: now, to: now }]
          : rule.limit.kind === 'MAX_BOOKINGS' || rule.limit.kind === 'MAX_HOURS'
            ? rule.limit.per === 'DAY'
              ? Array.from({ length: 7 }, (_, i) => ({
                  ...periodOf(new Date(from.getTime() + i * 86_400_000 + 43_200_000), 'DAY', zone),
                  period: 'DAY' as const,
                }))
              : [{ ...periodOf(from, rule.limit.per, zone), period: rule.limit.per }]
            : [];
      for (const window of windows) {
        const { limit, used } = usedIn(rule, held, window, now);
        limits.push({
          rule: ref(rule),
          scope: toRuleDto({ ...ruleRowOf(rule) }).scope,
          limit,
          used,
          remaining: Math.max(0, Math.round((limit - used) * 100) / 100),
          window: { from: window.from.toISOString(), to: window.to.toISOString(), ...(window.period ? { period: window.period } : {}) },
        });
      }
    }
    return {
      week: weekName(monday),
      from: from.toISOString(),
      to: to.toISOString(),
      limits,
      closedAreas: person.admin
        ? []
        : context.closedAreas.map((area) => ({
            id: area.id,
            name: area.name,
            teams: area.teamNames,
            weekdays: weekdayCodes(area.weekdays),
            kind: area.kind,
            departmentId: area.departmentId,
            roomId: area.roomId,
            deskIds: area.deskIds,
          })),
    };
  }

  private async zoneOf(departmentId: string): Promise<string> {
    const zone = await this.repository.zoneOf(departmentId);
    if (zone === undefined) throw invalid('departmentId', 'no such department');
    return isTimeZone(zone) ? zone : 'UTC';
  }
}

const ref = (rule: Rule) => ({ id: rule.id, kind: rule.limit.kind, name: rule.name });

/** Enough of a row for the DTO's scope. */
const ruleRowOf = (rule: Rule): RuleRow => ({
  id: rule.id,
  name: rule.name,
  scope: rule.scope.kind,
  departmentId: rule.scope.kind === 'DEPARTMENT' ? rule.scope.id : null,
  roomId: rule.scope.kind === 'ROOM' ? rule.scope.id : null,
  areaId: rule.scope.kind === 'AREA' ? rule.scope.id : null,
  deskType: rule.scope.kind === 'DESK_TYPE' ? rule.scope.deskType : null,
  who: rule.who.kind,
  teamId: rule.who.kind === 'TEAM' ? rule.who.teamId : null,
  role: rule.who.kind === 'ROLE' ? rule.who.role : null,
  kind: rule.limit.kind,
  params: {},
  appliesToAdmins: rule.appliesToAdmins,
  createdAt: new Date(0),
  modifiedAt: new Date(0),
});

const mondayOf = (date: Temporal.PlainDate) => date.subtract({ days: date.dayOfWeek - 1 });

/** An ISO week "2031-W02" → its Monday; a week that does not exist is 400 on `week`. */
function parseWeek(week: string): Temporal.PlainDate {
  const year = Number(week.slice(0, 4));
  const number = Number(week.slice(6));
  if (year < 2000 || year > 2100) throw invalid('week', 'the year lies between 2000 and 2100');
  const firstMonday = mondayOf(Temporal.PlainDate.from({ year, month: 1, day: 4 }));
  const monday = firstMonday.add({ weeks: number - 1 });
  if (number < 1 || weekName(monday) !== week) throw invalid('week', 'no such ISO week');
  return monday;
}

const weekName = (monday: Temporal.PlainDate) => `${monday.yearOfWeek}-W${String(monday.weekOfYear).padStart(2, '0')}`;

/** The stored figures of a limit, each member checked by its kind; 400 names `limit.<member>`. */
function limitParams(limit: RuleBodyDto['limit']): Record<string, unknown> {
  const allowed: Record<string, string[]> = {
    BOOKING_WINDOW: ['days'],
    MIN_DURATION: ['minutes'],
    MAX_DURATION: ['minutes'],
    GRANULARITY: ['unit'],
    WEEKDAYS_HOURS: ['weekdays', 'from', 'to'],
    MAX_BOOKINGS: ['count', 'per'],
    MAX_HOURS: ['hours', 'per'],
    MAX_CONCURRENT: ['count'],
    CAPACITY: ['count', 'percent'],
    CANCEL_LEAD: ['minutes'],
    OWN_AREAS_ONLY: [],
  };
  const members = allowed[limit.kind]!;
  for (const member of Object.keys(limit)) {
    if (member !== 'kind' && !members.includes(member)) throw invalid(`limit.${member}`, `a ${limit.kind} limit does not take it`);
  }
  const int = (member: 'days' | 'minutes' | 'count' | 'percent', min: number, max: number) => {
    const value = limit[member];
    if (value === undefined) throw invalid(`limit.${member}`, `required for ${limit.kind}`);
    if (value < min || value > max) throw invalid(`limit.${member}`, `must be between ${min} and ${max}`);
    return value;
  };
  switch (limit.kind) {
    case 'BOOKING_WINDOW':
      return { days: int('days', 1, 3650) };
    case 'MIN_DURATION':
    case 'MAX_DURATION':
      return { minutes: int('minutes', 1, 525_600) };
    case 'CANCEL_LEAD':
      return { minutes: int('minutes', 1, 43_200) };
    case 'GRANULARITY':
      if (!limit.unit) throw invalid('limit.unit', 'required for GRANULARITY');
      return { unit: limit.unit };
    case 'WEEKDAYS_HOURS': {
      if (!limit.weekdays || limit.weekdays.length === 0) throw invalid('limit.weekdays', 'name at least one weekday');
      for (const member of ['from', 'to'] as const) {
        const value = limit[member];
        if (value !== undefined && !TIME.test(value)) throw invalid(`limit.${member}`, 'must be a local time HH:MM (00:00–24:00)');
      }
      if (limit.from !== undefined && limit.to !== undefined && limit.from >= limit.to) throw invalid('limit.to', 'must be after limit.from');
      return {
        weekdays: weekdayNumbers(limit.weekdays).sort((a, b) => a - b),
        ...(limit.from ? { from: limit.from } : {}),
        ...(limit.to ? { to: limit.to } : {}),
      };
    }
    case 'MAX_BOOKINGS':
    case 'MAX_HOURS': {
      if (!limit.per) throw invalid('limit.per', `required for ${limit.kind}`);
      if (limit.kind === 'MAX_BOOKINGS') return { count: int('count', 1, 1000), per: limit.per };
      if (limit.hours === undefined) throw invalid('limit.hours', 'required for MAX_HOURS');
      if (!(limit.hours > 0 && limit.hours <= 10_000)) throw invalid('limit.hours', 'must be more than 0 and at most 10000');
      return { hours: limit.hours, per: limit.per };
    }
    case 'MAX_CONCURRENT':
      return { count: int('count', 1, 1000) };
    case 'CAPACITY':
      if ((limit.count === undefined) === (limit.percent === undefined)) throw invalid('limit.percent', 'give exactly one of limit.count and limit.percent');
      return limit.count !== undefined ? { count: int('count', 0, 10_000) } : { percent: int('percent', 0, 100) };
    case 'OWN_AREAS_ONLY':
      return {};
  }
}
