import { createHash } from 'node:crypto';
import { Temporal } from 'temporal-polyfill';
import type { Database } from '../../db/client.js';
import { queueMails } from '../../infrastructure/mail/mail-kind.js';
import { placeText } from '../../infrastructure/mail/messages.js';
import { closureMail } from '../../infrastructure/mail/templates.js';
import type { Caller } from '../../identity/caller.js';
import type { Clock } from '../../shared/clock.js';
import type { Language } from '../../shared/languages.js';
import { invalid, notFound } from '../../shared/errors.js';
import { pageOf, parsePageRequest, type PageOf } from '../../shared/paging.js';
import { formatLocal, localDate } from '../../shared/zone.js';
import { languagesOf } from '../preferences/preferences.access.js';
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
  HolidayCatalogueDto,
  HolidayImportBody,
  HolidayImportInput,
  HolidayImportResultDto,
  HolidayPreviewDto,
  PreviewQuery,
  PublicHolidayDto,
} from './closures.schemas.js';
import { HOLIDAY_ATTRIBUTION, holidayCatalogue, publicHolidays, type PublicHoliday } from './closures.holidays.js';

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
    /** The server's default language, for owners who chose none (docs/i18n.md#choosing-the-language). */
    private readonly defaultLanguage: Language = 'en',
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
    const { ids, cancelled, kept } = await this.db.transaction(async (tx) => {
      const repository = new ClosuresRepository(tx);
      await repository.lockReservations();
      return this.write(repository, tx, caller, plan.where, [plan], onExisting);
    });
    return { closure: await this.get(ids[0]!), cancelled, kept };
  }

  /**
   * Writes closures of one scope and handles the reservations on their days (docs/policies.md#closures-and-holidays),
   * in the caller's transaction, which holds the reservations lock: cancels those not started when asked to,
   * mails each owner once. Shared by a closure's creation and the holiday import.
   */
  private async write(
    repository: ClosuresRepository,
    tx: Database,
    caller: Caller,
    where: Where,
    plans: Omit<Plan, 'where'>[],
    onExisting: 'cancel' | 'keep',
  ): Promise<{ ids: string[]; cancelled: number; kept: number }> {
    const now = this.clock.now();
    const ids: string[] = [];
    const reasonOf = new Map<string, string>();
    for (const plan of plans) {
      ids.push(
        await repository.insert(
          where,
          { reason: plan.reason, dates: plan.dates, rrule: plan.rrule, startDate: plan.days[0]!, createdBy: caller.user.id },
          plan.days,
          now,
        ),
      );
      for (const day of plan.days) if (!reasonOf.has(day)) reasonOf.set(day, plan.reason);
    }
    const days = [...reasonOf.keys()].sort();
    if (days.length === 0) return { ids, cancelled: 0, kept: 0 };
    const { rows } = await repository.affected(where, days, now);
    // A reservation already started stays (its past part happened); the others go when asked to.
    const cancellable = onExisting === 'cancel' ? rows.filter((row) => row.startTime > now) : [];
    const gone = new Set(
      await ReservationWriter.cancelForClosure(
        tx,
        cancellable.map((row) => row.id),
      ),
    );
    // Without SMTP the outbox drops them unsent (docs/architecture.md#the-outbox).
    if (gone.size > 0) {
      const cancelled = cancellable.filter((row) => gone.has(row.id));
      const languageOf = await languagesOf(tx, [...new Set(cancelled.map((row) => row.userId))], this.defaultLanguage);
      await queueMails(tx, this.mailsFor(reasonOf, cancelled, languageOf));
    }
    return { ids, cancelled: gone.size, kept: rows.length - gone.size };
  }

  /** Countries, states and regions with public holidays (docs/policies.md#public-holidays). */
  holidayCatalogue(): HolidayCatalogueDto {
    return { attribution: HOLIDAY_ATTRIBUTION, countries: holidayCatalogue() };
  }

  /** The catalogue as JSON and its ETag, made once per process: it changes only with the service's version. */
  holidayCatalogueJson(): { json: string; etag: string } {
    this.catalogueJson ??= (() => {
      const json = JSON.stringify(this.holidayCatalogue());
      return { json, etag: `"${createHash('sha256').update(json).digest('base64url').slice(0, 22)}"` };
    })();
    return this.catalogueJson;
  }

  private catalogueJson: { json: string; etag: string } | undefined;

  /** The public holidays of the years and what an import would do with each, and a page of the reservations on the new days. */
  async previewHolidays(input: HolidayImportInput, query: PreviewQuery): Promise<HolidayPreviewDto> {
    const request = parsePageRequest(query, []);
    const repository = new ClosuresRepository(this.db);
    const { where, holidays } = await this.holidayPlan(repository, input);
    const days = holidays.filter((holiday) => holiday.status === 'NEW').map((holiday) => holiday.date);
    const now = this.clock.now();
    const { rows, total } = days.length === 0 ? { rows: [], total: 0 } : await repository.affected(where, days, now, request);
    return {
      attribution: HOLIDAY_ATTRIBUTION,
      holidays,
      reservations: pageOf(
        rows.map((row) => toAffectedDto(row, now)),
        total,
        request,
      ),
    };
  }

  /**
   * Imports public holidays as one-off closures, one per holiday name (docs/policies.md#public-holidays).
   * Dates already closed throughout the scope and past ones are skipped, so a second import of the same
   * years adds nothing. What is closed is judged again under the reservations lock, which two imports
   * cannot hold at once.
   */
  async importHolidays(caller: Caller, body: HolidayImportBody): Promise<HolidayImportResultDto> {
    const { onExisting, ...input } = body;
    const planned = await this.holidayPlan(new ClosuresRepository(this.db), input);
    const { ids, holidays, cancelled, kept } = await this.db.transaction(async (tx) => {
      const repository = new ClosuresRepository(tx);
      await repository.lockReservations();
      const { where, holidays } = await this.holidayPlan(repository, input, planned.found);
      const byName = new Map<string, string[]>();
      for (const holiday of holidays.filter((entry) => entry.status === 'NEW')) byName.set(holiday.name, [...(byName.get(holiday.name) ?? []), holiday.date]);
      const plans = [...byName.entries()].map(([reason, days]) => ({ reason, dates: days, rrule: null, days }));
      return { ...(await this.write(repository, tx, caller, where, plans, onExisting)), holidays };
    });
    const closures = await new ClosuresRepository(this.db).findAll(ids);
    return { closures: closures.map(toClosureDto), holidays, cancelled, kept };
  }

  /** The holidays asked for, each NEW, CLOSED (throughout the scope) or PAST; 400 naming the field. */
  private async holidayPlan(
    repository: ClosuresRepository,
    input: HolidayImportInput,
    found?: PublicHoliday[],
  ): Promise<{ where: Where; holidays: PublicHolidayDto[]; found: PublicHoliday[] }> {
    const where = await this.where(repository, input);
    const today = await this.today(repository, where);
    const holidays = found ?? publicHolidays(input, Temporal.PlainDate.from(today).year);
    const closed = await repository.closedThroughout(
      where,
      holidays.filter((holiday) => holiday.date >= today).map((holiday) => holiday.date),
    );
    return {
      where,
      found: holidays,
      holidays: holidays.map((holiday) => {
        const closureId = closed.get(holiday.date) ?? null;
        return { ...holiday, status: holiday.date < today ? 'PAST' : closureId !== null ? 'CLOSED' : 'NEW', closureId };
      }),
    };
  }

  /** Today in the offices of the scope: the earliest local date among their zones (UTC without any). */
  private async today(repository: ClosuresRepository, where: Where): Promise<string> {
    const zones = await repository.zonesOf(where);
    const now = this.clock.now();
    return (zones.length > 0 ? zones : ['UTC']).map((zone) => localDate(now, zone)).sort()[0]!;
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

  /** One mail per owner, listing their cancelled reservations with the reasons of the days they touch. */
  private mailsFor(reasonOf: Map<string, string>, rows: AffectedRow[], languageOf: (userId: string) => Language) {
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
        reason: [...new Set(own.map((row) => reasonOf.get(row.date) ?? ''))].filter(Boolean).join(', '),
        reservations: own.map((row) => ({
          deskName: row.deskName,
          place: placeText(languageOf(own[0]!.userId), `${row.place} · ${row.roomName}`),
          start: formatLocal(row.startTime, row.timeZone),
          timeZone: row.timeZone,
        })),
        publicUrl: this.publicUrl,
        language: languageOf(own[0]!.userId),
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
    const today = await this.today(repository, where);
    if (days[0]! < today) throw invalid(field, `lies in the past (${days[0]} is before ${today})`);
    return { where, reason, dates: input.dates === undefined ? null : days, rrule: input.rrule === undefined ? null : input.rrule.trim(), days };
  }

  private async where(repository: ClosuresRepository, input: Pick<ClosureInput, 'scope' | 'departmentId' | 'location' | 'building'>): Promise<Where> {
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
