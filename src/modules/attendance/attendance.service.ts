import type { Config } from '../../config.js';
import type { Database } from '../../db/client.js';
import { isAdmin, type Caller } from '../../identity/caller.js';
import type { Clock } from '../../shared/clock.js';
import type { Language } from '../../shared/languages.js';
import { AppError, forbidden, invalid, notFound } from '../../shared/errors.js';
import { pageOf, parsePageRequest, type PageOf } from '../../shared/paging.js';
import { parseInstant } from '../../shared/time.js';
import { atLocalTime, daysBetween, isTimeZone, localDate, nextDate, startOfLocalDate } from '../../shared/zone.js';
import { readPrivacySettings } from '../organisation/organisation.access.js';
import { languageOf } from '../preferences/preferences.access.js';
import { ReservationsRepository } from '../reservations/reservations.repository.js';
import { ensureDeskBookable } from '../reservations/reservations.rules.js';
import { ReservationWriter } from '../reservations/reservations.writer.js';
import { labelSheet } from './attendance.qr.js';
import { mailText } from '../../infrastructure/mail/messages.js';
import { ATTENDANCE_SORTABLE, AttendanceRepository, type AttendanceView, type SettingsRow } from './attendance.repository.js';
import type {
  AttendanceDto,
  AttendanceListQuery,
  DepartmentSettingsDto,
  DeskDayDto,
  NoShowQuery,
  NoShowStatsDto,
  PutDepartmentSettingsBody,
  WalkInResultDto,
} from './attendance.schemas.js';

/** A walk-in shorter than this is refused: the desk's next reservation starts too soon. */
export const WALK_IN_MIN_MS = 60_000;
const MAX_NO_SHOW_DAYS = 366;

export interface AttendanceRules {
  checkInRequired: boolean;
  checkInOpensBeforeMs: number;
  checkInGraceMs: number;
  /** Minutes after local midnight a walk-in ends at the latest. */
  walkInUntilMinutes: number;
  /** RESERVATION_MAX_LENGTH: a USER's walk-in is no longer. */
  maxLengthMs: number;
  /** RESERVATION_ONE_PER_USER. */
  onePerUser: boolean;
}

export const attendanceRules = (config: Config): AttendanceRules => ({
  checkInRequired: config.CHECK_IN_REQUIRED,
  checkInOpensBeforeMs: config.CHECK_IN_OPENS_BEFORE,
  checkInGraceMs: config.CHECK_IN_GRACE,
  walkInUntilMinutes: config.WALK_IN_UNTIL,
  maxLengthMs: config.RESERVATION_MAX_LENGTH,
  onePerUser: config.RESERVATION_ONE_PER_USER,
});

const iso = (date: Date | null) => (date === null ? null : date.toISOString());

export const toAttendanceDto = (row: AttendanceView): AttendanceDto => ({
  reservationId: row.reservationId,
  userId: row.userId,
  deskId: row.deskId,
  roomId: row.roomId,
  departmentId: row.departmentId,
  startTime: row.startTime.toISOString(),
  endTime: row.endTime.toISOString(),
  status: row.status,
  checkInOpensAt: row.checkInOpensAt.toISOString(),
  releaseAt: iso(row.releaseAt),
  checkedInAt: iso(row.checkedInAt),
  releasedAt: iso(row.releasedAt),
});

const minutes = (ms: number | null) => (ms === null ? null : ms / 60_000);
const notOpen = (detail: string) => new AppError('CHECK_IN_NOT_OPEN', detail);

const DAY_MS = 86_400_000;

/**
 * Attendance (docs/behaviour.md#attendance): check-in, the attendance resource and its list, the
 * per-department settings, the desk page's day and walk-in booking, and no-show rates. The release
 * of no-shows runs in attendance.release.ts.
 */
const aggregatesOnly = () =>
  new AppError('AGGREGATES_ONLY', "Works-council mode is on: attendance is shown as aggregates only (GET /api/stats/no-shows), never per person but one's own");

export class AttendanceService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly rules: AttendanceRules,
  ) {}

  private get repository() {
    return new AttendanceRepository(this.db);
  }

  /** Stores the global check-in settings for the database's trigger (at start-up). */
  async syncDefaults(): Promise<boolean> {
    const { checkInRequired, checkInOpensBeforeMs, checkInGraceMs } = this.rules;
    return this.repository.syncDefaults({ checkInRequired, checkInOpensBeforeMs, checkInGraceMs }, this.clock.now());
  }

  // ---- settings --------------------------------------------------------------------------------

  async getSettings(departmentId: string): Promise<DepartmentSettingsDto> {
    const found = await this.repository.departmentSettings(departmentId);
    if (!found) throw notFound('Department', departmentId);
    return this.settingsDto(departmentId, found.row);
  }

  /** PUT replaces (left out: inherit / UTC); PATCH (`partial`) keeps what is left out. */
  async saveSettings(departmentId: string, body: PutDepartmentSettingsBody, partial: boolean): Promise<DepartmentSettingsDto> {
    if (body.timeZone !== undefined && !isTimeZone(body.timeZone)) throw invalid('timeZone', 'must be an IANA time zone such as Europe/Berlin');
    const current = partial ? await this.repository.settings(departmentId) : undefined;
    const pick = <T>(given: T | null | undefined, kept: T | null | undefined): T | null => (given !== undefined ? given : (kept ?? null));
    const values: SettingsRow = {
      checkInRequired: pick(body.checkInRequired, current?.checkInRequired),
      checkInOpensBeforeMs: pick(body.checkInOpensBeforeMinutes === undefined ? undefined : mul(body.checkInOpensBeforeMinutes), current?.checkInOpensBeforeMs),
      checkInGraceMs: pick(body.checkInGraceMinutes === undefined ? undefined : mul(body.checkInGraceMinutes), current?.checkInGraceMs),
      timeZone: body.timeZone ?? current?.timeZone ?? 'UTC',
    };
    if (!(await this.repository.saveSettings(departmentId, values, this.clock.now()))) throw notFound('Department', departmentId);
    return this.settingsDto(departmentId, values);
  }

  private settingsDto(departmentId: string, row: SettingsRow | undefined): DepartmentSettingsDto {
    return {
      departmentId,
      checkInRequired: row?.checkInRequired ?? null,
      checkInOpensBeforeMinutes: minutes(row?.checkInOpensBeforeMs ?? null),
      checkInGraceMinutes: minutes(row?.checkInGraceMs ?? null),
      timeZone: row?.timeZone ?? 'UTC',
      effective: {
        checkInRequired: row?.checkInRequired ?? this.rules.checkInRequired,
        checkInOpensBeforeMinutes: (row?.checkInOpensBeforeMs ?? this.rules.checkInOpensBeforeMs) / 60_000,
        checkInGraceMinutes: (row?.checkInGraceMs ?? this.rules.checkInGraceMs) / 60_000,
      },
    };
  }

  // ---- attendance and check-in ------------------------------------------------------------------

  async get(caller: Caller, reservationId: string): Promise<AttendanceDto> {
    const found = await this.repository.findByIdWithMode(reservationId);
    if (!found || (!isAdmin(caller) && found.userId !== caller.user.id)) throw notFound('Reservation', reservationId);
    const { worksCouncilMode, ...row } = found;
    if (row.userId !== caller.user.id && worksCouncilMode) throw aggregatesOnly();
    return toAttendanceDto(row);
  }

  /** Works-council mode (docs/people.md#works-council-mode): nobody's attendance but one's own, admins included; the daily rates stay. */
  private async ensurePerPersonShown(): Promise<void> {
    if ((await readPrivacySettings(this.db)).worksCouncilMode) {
      throw new AppError(
        'AGGREGATES_ONLY',
        "Works-council mode is on: attendance is shown as aggregates only (GET /api/stats/no-shows), never per person but one's own",
      );
    }
  }

  async list(caller: Caller, query: AttendanceListQuery): Promise<PageOf<AttendanceDto>> {
    const admin = isAdmin(caller);
    if (!admin && query.userId !== undefined && query.userId !== caller.user.id) throw forbidden('You may list only your own attendance');
    const from = query.from === undefined ? undefined : parseInstant('from', query.from);
    const to = query.to === undefined ? undefined : parseInstant('to', query.to);
    if (from && to && from >= to) throw invalid('to', 'must be after from');
    const request = parsePageRequest(query, ATTENDANCE_SORTABLE);
    // Works-council mode first (docs/people.md#works-council-mode): a refusal reads nothing else.
    if (admin && query.userId !== caller.user.id) await this.ensurePerPersonShown();
    const { rows, total } = await this.repository.page(
      {
        userId: admin ? query.userId : caller.user.id,
        deskId: query.deskId,
        roomId: query.roomId,
        departmentId: query.departmentId,
        status: query.status,
        from,
        to,
      },
      request,
    );
    return pageOf(rows.map(toAttendanceDto), total, request);
  }

  /**
   * Check-in (docs/behaviour.md#check-in): from checkInOpensAt until the reservation ends and,
   * while required, before releaseAt. Idempotent. One UPDATE when it succeeds; it locks the row
   * the release job claims, so of a check-in and a release racing at the deadline exactly one wins.
   * When nothing changed, the row is read to answer why.
   */
  async checkIn(caller: Caller, reservationId: string): Promise<AttendanceDto> {
    const now = this.clock.now();
    const admin = isAdmin(caller);
    const done = await this.repository.checkInIfOpen(reservationId, now, admin ? undefined : caller.user.id);
    if (done) return toAttendanceDto(done);
    const row = await this.repository.findById(reservationId);
    if (!row || (!admin && row.userId !== caller.user.id)) throw notFound('Reservation', reservationId);
    if (row.status === 'CHECKED_IN') return toAttendanceDto(row);
    if (await this.repository.awaitsApproval(reservationId))
      throw new AppError('APPROVAL_PENDING', 'The reservation awaits approval: it can be checked in once approved');
    if (row.status === 'NO_SHOW') throw notOpen(`Nobody checked in by ${iso(row.releaseAt)}: the reservation was released at ${iso(row.releasedAt)}`);
    if (now < row.checkInOpensAt) throw notOpen(`Check-in opens at ${row.checkInOpensAt.toISOString()}`);
    if (now >= row.endTime) throw notOpen('The reservation has ended');
    if (row.releaseAt !== null && now >= row.releaseAt) throw notOpen(`Check-in closed at ${row.releaseAt.toISOString()}; the reservation is being released`);
    // Changed between the two statements (e.g. moved): let the caller try again.
    throw new AppError('CONFLICT', 'The reservation changed meanwhile; try again');
  }

  // ---- statistics ------------------------------------------------------------------------------

  async noShows(query: NoShowQuery): Promise<NoShowStatsDto> {
    let span: number;
    try {
      span = daysBetween(query.from, query.to);
    } catch {
      throw invalid('from', 'must be a calendar date YYYY-MM-DD');
    }
    if (span < 0) throw invalid('to', 'must not be before from');
    if (span >= MAX_NO_SHOW_DAYS) throw invalid('to', `must be at most ${MAX_NO_SHOW_DAYS - 1} days after from`);
    let zone = 'UTC';
    if (query.departmentId !== undefined) {
      if (!(await this.repository.departmentExists(query.departmentId))) throw invalid('departmentId', 'no such department');
      zone = await this.repository.timeZoneOfDepartment(query.departmentId);
    }
    const from = startOfLocalDate(query.from, zone);
    const to = startOfLocalDate(nextDate(query.to), zone);
    const days = await this.repository.noShowDays(zone, query.from, query.to, from, to, query.departmentId);
    return { timeZone: zone, days };
  }

  // ---- the desk page ---------------------------------------------------------------------------

  async deskDay(caller: Caller, deskId: string, date?: string): Promise<DeskDayDto> {
    const now = this.clock.now();
    // One statement for the whole page: its reservations are read for a window wider than any
    // local day (UTC−12 … UTC+14 around the date), then cut to the office's day below.
    const around = date === undefined ? now.getTime() : Date.parse(`${date}T12:00:00Z`);
    if (Number.isNaN(around)) throw invalid('date', 'must be a calendar date YYYY-MM-DD');
    const found = await this.repository.deskDay(deskId, new Date(around - 2 * DAY_MS), new Date(around + 2 * DAY_MS), now);
    if (!found) throw notFound('Desk', deskId);
    const { place } = found;
    const zone = place.timeZone;
    const day = date ?? localDate(now, zone);
    let from: Date;
    try {
      from = startOfLocalDate(day, zone);
    } catch {
      throw invalid('date', 'must be a calendar date YYYY-MM-DD');
    }
    const to = startOfLocalDate(nextDate(day), zone);
    const rows = found.reservations.filter((row) => row.endTime > from && row.startTime < to);
    const admin = isAdmin(caller);
    const freeNow = !found.occupied;
    const walkIn = freeNow ? await this.walkInEnd(caller, place, now, found.nextStart).catch(() => null) : null;
    return {
      desk: place.desk,
      room: place.room,
      department: place.department,
      timeZone: zone,
      date: day,
      freeNow,
      walkInUntil: walkIn === null ? null : walkIn.toISOString(),
      reservations: rows.map((row) => {
        const mine = row.userId === caller.user.id;
        return {
          id: mine || admin ? row.reservationId : null,
          startTime: row.startTime.toISOString(),
          endTime: row.endTime.toISOString(),
          mine,
          attendance: mine || admin ? toAttendanceDto(row) : null,
        };
      }),
    };
  }

  /** Where a walk-in starting now would end, or an AppError saying why there is none. */
  /** `knownNext`: the desk's next start after `now` when already read (null: none), else it is looked up. */
  private async walkInEnd(
    caller: Caller,
    place: NonNullable<Awaited<ReturnType<AttendanceRepository['deskPlace']>>>,
    now: Date,
    knownNext?: Date | null,
  ): Promise<Date> {
    const admin = isAdmin(caller);
    // The reservations module's rule for a USER: no FIXED desk, none in an unavailable room (docs/behaviour.md#reservations).
    const { desk, room, department } = place;
    ensureDeskBookable({ id: desk.id, type: desk.type, roomId: room.id, departmentId: department.id, roomAvailable: room.available }, admin);
    const dayEnd = atLocalTime(localDate(now, place.timeZone), this.rules.walkInUntilMinutes, place.timeZone);
    let end = dayEnd;
    if (!admin) end = new Date(Math.min(end.getTime(), now.getTime() + this.rules.maxLengthMs));
    const next =
      knownNext === undefined
        ? await this.repository.nextStart(place.desk.id, now, end)
        : knownNext !== null && knownNext.getTime() < end.getTime()
          ? knownNext
          : undefined;
    if (next !== undefined) end = next;
    if (end.getTime() - now.getTime() < WALK_IN_MIN_MS) {
      throw new AppError(
        'WALK_IN_NOT_POSSIBLE',
        next !== undefined ? `The desk is reserved from ${next.toISOString()}` : `The working day at this office ends at ${dayEnd.toISOString()}`,
      );
    }
    return end;
  }

  /**
   * Walk-in (docs/behaviour.md#walk-in): books the desk for the caller from now until its next
   * reservation or WALK_IN_UNTIL local time, under the booking rules, checked in at once.
   */
  async walkIn(caller: Caller, deskId: string): Promise<WalkInResultDto> {
    const place = await this.repository.deskPlace(deskId);
    if (!place) throw notFound('Desk', deskId);
    // Planned anew on each attempt: someone who booked the desk meanwhile makes it taken now, or the
    // walk-in end sooner. The reservations module writes, retries and answers conflicts.
    const writer = new ReservationWriter(this.db, this.clock, this.rules.onePerUser);
    const { id, booking } = await writer.bookPlanned(
      { id: caller.user.id, admin: isAdmin(caller) },
      async () => {
        const now = this.clock.now();
        if (await this.repository.occupiedAt(deskId, now)) {
          throw new AppError('RESERVATION_CONFLICT', 'The desk is taken right now', {
            conflicts: await this.conflicts({ deskId }, now),
            reason: 'DESK_RESERVED',
          });
        }
        const end = await this.walkInEnd(caller, place, now);
        return { userId: caller.user.id, deskId, startTime: now, endTime: end, type: 'shared' };
      },
      (tx, reservationId, { startTime }) => new AttendanceRepository(tx).markCheckedIn(tx, reservationId, startTime),
    );
    const row = await this.repository.findById(id);
    return { reservationId: id, startTime: booking.startTime.toISOString(), endTime: booking.endTime.toISOString(), attendance: toAttendanceDto(row!) };
  }

  private async conflicts(owner: { deskId: string } | { userId: string }, start: Date, end = new Date(start.getTime() + 1)) {
    const ranges = await new ReservationsRepository(this.db).overlapping(owner, start, end);
    return ranges.map((range) => ({ startTime: range.startTime.toISOString(), endTime: range.endTime.toISOString() }));
  }

  /**
   * The printable label sheet of a room's desks (docs/behaviour.md#desk-qr-codes), in the language of
   * `caller` (their preference, else `defaultLanguage`: docs/i18n.md#mails-and-the-calendar-feed).
   */
  async labelSheet(caller: Caller, roomId: string, publicUrl: string, defaultLanguage: Language = 'en'): Promise<string> {
    const desks = await this.repository.roomDesks(roomId);
    if (desks.length === 0 && !(await this.repository.roomExists(roomId))) throw notFound('Room', roomId);
    const language = await languageOf(this.db, caller.user.id, defaultLanguage);
    return labelSheet(desks[0]?.roomName ?? mailText(language, 'qr.someRoom'), desks, publicUrl, language);
  }

  async deskExists(deskId: string): Promise<boolean> {
    return this.repository.deskExists(deskId);
  }
}

const mul = (value: number | null) => (value === null ? null : value * 60_000);
