import { Temporal } from 'temporal-polyfill';
import type { Database } from '../../db/client.js';
import { queueMails } from '../../infrastructure/mail/mail-kind.js';
import { closureMail } from '../../infrastructure/mail/templates.js';
import type { Caller } from '../../identity/caller.js';
import type { Clock } from '../../shared/clock.js';
import { invalid, notFound } from '../../shared/errors.js';
import { pageOf, parsePageRequest, type PageOf } from '../../shared/paging.js';
import { formatLocal, localDate } from '../../shared/zone.js';
import { ReservationWriter } from '../reservations/reservations.writer.js';
import { toAffectedDto, toClosureDetailDto, toClosureDto } from './closures.mappers.js';
import { expandClosureRule, MAX_CLOSURE_YEARS, parseClosureRule, parseLocalDate } from './closures.recurrence.js';
import { CLOSURE_SORTABLE, ClosuresRepository, type AffectedRow, type Where } from './closures.repository.js';
import type {
  ClosedDaysDto,
  ClosedDaysQuery,
  ClosureDetailDto,
  ClosureDto,
  ClosureInput,
  ClosureListQuery,
  ClosurePreviewDto,
  CreateClosureBody,
  CreatedClosureDto,
  PreviewQuery,
} from './closures.schemas.js';

/** Days the closed-days query may span. */
export const MAX_CLOSED_DAYS_RANGE = 92;
/** Closed days one closed-days answer lists. */
const MAX_CLOSED_DAYS_ROWS = 1000;

interface Plan {
  where: Where;
  reason: string;
  dates: string[] | null;
  rrule: string | null;
  days: string[];
}

/**
 * Closures and holidays (docs/policies.md#closures-and-holidays): days an office is closed, with a
 * reason. Creating one lists or cancels the reservations on its days in one transaction that holds
 * every reservation write back; from its commit on, the trigger closures_refuse refuses any
 * booking touching a closed day, and a series skips those days.
 */
export class ClosuresService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    /** PUBLIC_URL, for the link in the mail. */
    private readonly publicUrl: string,
  ) {}

  async list(query: ClosureListQuery): Promise<PageOf<ClosureDto>> {
    const request = parsePageRequest(query, CLOSURE_SORTABLE);
    // "Today" for the upcoming filter: the earliest date still current somewhere (UTC-12).
    const from = query.upcoming === true ? localDate(this.clock.now(), 'Etc/GMT+12') : undefined;
    const { rows, total } = await new ClosuresRepository(this.db).page({ departmentId: query.departmentId, from }, request);
    return pageOf(rows.map(toClosureDto), total, request);
  }

  async get(id: string): Promise<ClosureDetailDto> {
    const row = await new ClosuresRepository(this.db).find(id);
    if (!row) throw notFound('Closure', id);
    return toClosureDetailDto(row);
  }

  /** Deleting a closure opens its days again; reservations it cancelled stay cancelled. */
  async delete(id: string): Promise<void> {
    if (!(await new ClosuresRepository(this.db).delete(id))) throw notFound('Closure', id);
  }

  /** The days a closure would close and a page of the reservations on them, nothing written. */
  async preview(input: ClosureInput, query: PreviewQuery): Promise<ClosurePreviewDto> {
    const request = parsePageRequest(query, []);
    const repository = new ClosuresRepository(this.db);
    const plan = await this.plan(repository, input);
    const { rows, total } = await repository.affected(plan.where, plan.days, this.clock.now(), request);
    const now = this.clock.now();
    return {
      days: plan.days,
      reservations: pageOf(
        rows.map((row) => toAffectedDto(row, now)),
        total,
        request,
      ),
    };
  }

  async create(caller: Caller, body: CreateClosureBody): Promise<CreatedClosureDto> {
    const { onExisting, ...input } = body;
    const plan = await this.plan(new ClosuresRepository(this.db), input);
    const { id, cancelled, kept } = await this.db.transaction(async (tx) => {
      const repository = new ClosuresRepository(tx);
      await repository.lockReservations();
      const now = this.clock.now();
      const closureId = await repository.insert(
        plan.where,
        { reason: plan.reason, dates: plan.dates, rrule: plan.rrule, startDate: plan.days[0]!, createdBy: caller.user.id },
        plan.days,
        now,
      );
      const { rows } = await repository.affected(plan.where, plan.days, now);
      // A reservation already started stays (its past part happened); the others go when asked to.
      const cancellable = onExisting === 'cancel' ? rows.filter((row) => row.startTime > now) : [];
      const gone = new Set(
        await ReservationWriter.cancelForClosure(
          tx,
          cancellable.map((row) => row.id),
        ),
      );
      // Without SMTP the outbox drops them unsent (docs/architecture.md#the-outbox).
      if (gone.size > 0)
        await queueMails(
          tx,
          this.mailsFor(
            plan.reason,
            cancellable.filter((row) => gone.has(row.id)),
          ),
        );
      return { id: closureId, cancelled: gone.size, kept: rows.length - gone.size };
    });
    return { closure: await this.get(id), cancelled, kept };
  }

  /** Closed days of a range, for everyone (the date picker of Find a desk says why a day is closed). */
  async closedDays(query: ClosedDaysQuery): Promise<ClosedDaysDto> {
    const from = parseLocalDate('from', query.from);
    const to = parseLocalDate('to', query.to);
    const span = from.until(to, { largestUnit: 'days' }).days;
    if (span < 0) throw invalid('to', 'must not be before from');
    if (span > MAX_CLOSED_DAYS_RANGE) throw invalid('to', `must be at most ${MAX_CLOSED_DAYS_RANGE} days after from`);
    const days = await new ClosuresRepository(this.db).closedDays(query.from, query.to, query.departmentId, MAX_CLOSED_DAYS_ROWS);
    return { days };
  }

  /** One mail per owner, listing their cancelled reservations. */
  private mailsFor(reason: string, rows: AffectedRow[]) {
    const byOwner = new Map<string, AffectedRow[]>();
    for (const row of rows) {
      const own = byOwner.get(row.userId);
      if (own) own.push(row);
      else byOwner.set(row.userId, [row]);
    }
    return [...byOwner.values()].map((own) =>
      closureMail({
        to: own[0]!.email,
        firstName: own[0]!.firstName,
        reason,
        reservations: own.map((row) => ({
          deskName: row.deskName,
          place: `${row.place} · ${row.roomName}`,
          start: formatLocal(row.startTime, row.timeZone),
          timeZone: row.timeZone,
        })),
        publicUrl: this.publicUrl,
      }),
    );
  }

  /** The closure asked for, checked: scope, days (expanded and bounded), none in the past. 400 names the field. */
  private async plan(repository: ClosuresRepository, input: ClosureInput): Promise<Plan> {
    const where = await this.where(repository, input);
    const reason = input.reason.trim();
    if (reason.length === 0) throw invalid('reason', 'must not be blank');
    let days: string[];
    let field: string;
    if (input.dates !== undefined) {
      if (input.rrule !== undefined) throw invalid('rrule', 'give dates or rrule, not both');
      if (input.startDate !== undefined) throw invalid('startDate', 'only a recurrence (rrule) takes startDate');
      days = [...new Set(input.dates.map((date, i) => parseLocalDate(`dates[${i}]`, date).toString()))].sort();
      const first = Temporal.PlainDate.from(days[0]!);
      if (Temporal.PlainDate.compare(Temporal.PlainDate.from(days[days.length - 1]!), first.add({ years: MAX_CLOSURE_YEARS })) > 0) {
        throw invalid('dates', `must lie within ${MAX_CLOSURE_YEARS} years of the first`);
      }
      field = 'dates';
    } else if (input.rrule !== undefined) {
      if (input.startDate === undefined) throw invalid('startDate', 'is required with rrule');
      const start = parseLocalDate('startDate', input.startDate);
      days = expandClosureRule('rrule', parseClosureRule('rrule', input.rrule), start);
      field = 'startDate';
    } else {
      throw invalid('dates', 'give dates or rrule');
    }
    // Past: before today in every office of the scope (a date still current in one of them is accepted).
    const zones = await repository.zonesOf(where);
    const now = this.clock.now();
    const today = (zones.length > 0 ? zones : ['UTC']).map((zone) => localDate(now, zone)).sort()[0]!;
    if (days[0]! < today) throw invalid(field, `lies in the past (${days[0]} is before ${today})`);
    return { where, reason, dates: input.dates === undefined ? null : days, rrule: input.rrule === undefined ? null : input.rrule.trim(), days };
  }

  private async where(repository: ClosuresRepository, input: ClosureInput): Promise<Where> {
    const { scope, departmentId, location, building } = input;
    if (scope !== 'DEPARTMENT' && departmentId !== undefined) throw invalid('departmentId', 'only the DEPARTMENT scope takes a department');
    if (scope !== 'BUILDING' && (location !== undefined || building !== undefined)) {
      throw invalid(location !== undefined ? 'location' : 'building', 'only the BUILDING scope takes a location and building');
    }
    if (scope === 'DEPARTMENT') {
      if (departmentId === undefined) throw invalid('departmentId', 'is required for the DEPARTMENT scope');
      if (!(await repository.departmentExists(departmentId))) throw invalid('departmentId', 'no such department');
      return { scope, departmentId, location: null, building: null };
    }
    if (scope === 'BUILDING') {
      if (location === undefined) throw invalid('location', 'is required for the BUILDING scope');
      if (building === undefined) throw invalid('building', 'is required for the BUILDING scope');
      if (!(await repository.buildingExists(location, building))) throw invalid('building', 'no department lies in this location and building');
      return { scope, departmentId: null, location, building };
    }
    return { scope, departmentId: null, location: null, building: null };
  }
}
