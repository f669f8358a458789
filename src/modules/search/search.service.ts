import type { Database } from '../../db/client.js';
import { invalid } from '../../shared/errors.js';
import { pageOf, parsePageRequest, type PageOf, type PageQuery } from '../../shared/paging.js';
import type { DepartmentDto, RoomDto } from '../inventory/inventory.schemas.js';
import type { ReportDto } from '../reports/reports.schemas.js';
import { toReportDto } from '../reports/reports.service.js';
import type { ReportSearchCriteria, SearchCriteria } from './search.schemas.js';
import {
  DEPARTMENT_SORTABLE,
  REPORT_SORTABLE,
  ROOM_SORTABLE,
  SearchRepository,
  type PlaceCriteria,
  type TimeWindow,
} from './search.repository.js';

type FreeCriterion = NonNullable<NonNullable<SearchCriteria['reservation']>['free']>;
type PartlyBetween = NonNullable<FreeCriterion['partlyBetween']>;

// The schema has checked the shape (format date-time: a date, a time and Z or an offset).
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:Z|([+-])(\d{2})(?::?(\d{2}))?)$/i;
const EARLIEST = Date.parse('0001-01-01T00:00:00.000Z');
const LATEST = Date.parse('9999-12-31T23:59:59.999Z');

/** An ISO 8601 date-time with any offset, as an instant (milliseconds; finer digits are dropped). */
function instant(field: string, text: string): Date {
  const match = DATE_TIME.exec(text);
  if (!match) throw invalid(field, 'must be an ISO 8601 date-time with Z or an offset, e.g. 2025-03-03T09:00:00+02:00');
  const [, year, month, day, hour, minute, second, fraction, sign, offsetHours, offsetMinutes] = match;
  if (Number(second) > 59) throw invalid(field, 'leap seconds are not supported');
  const local = new Date(0);
  local.setUTCFullYear(Number(year), Number(month) - 1, Number(day));
  local.setUTCHours(Number(hour), Number(minute), Number(second), Number((fraction ?? '').slice(0, 3).padEnd(3, '0')));
  const offsetMs = sign === undefined ? 0 : (sign === '-' ? -1 : 1) * (Number(offsetHours) * 60 + Number(offsetMinutes ?? 0)) * 60_000;
  const time = local.getTime() - offsetMs;
  if (time < EARLIEST || time > LATEST) throw invalid(field, 'must lie between the years 0001 and 9999 (UTC)');
  return new Date(time);
}

function timeWindow(field: string, window: { start: string; end: string }): TimeWindow {
  const start = instant(`${field}.start`, window.start);
  const end = instant(`${field}.end`, window.end);
  if (start.getTime() >= end.getTime()) throw invalid(`${field}.end`, 'must be after start');
  return { start, end };
}

// Days, hours, minutes and seconds only: years and months have no fixed length.
const ISO_DURATION = /^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:[.,]\d{1,9})?)S)?)?$/i;

function durationSeconds(field: string, value: PartlyBetween): number {
  let seconds: number;
  if (typeof value === 'number') {
    seconds = value;
  } else if (typeof value === 'string') {
    const match = ISO_DURATION.exec(value);
    // "P", "PT" and "P1DT" fit the pattern but name no time.
    if (!match || !/\d/.test(value) || /T$/i.test(value)) {
      throw invalid(field, 'must be an ISO 8601 duration of days, hours, minutes and seconds, e.g. PT2H, PT1H30M or P1D');
    }
    const [, days, hours, minutes, secs] = match;
    seconds = Number(days ?? 0) * 86_400 + Number(hours ?? 0) * 3_600 + Number(minutes ?? 0) * 60 + Number((secs ?? '0').replace(',', '.'));
  } else {
    seconds = (value.seconds ?? 0) + (value.nano ?? 0) / 1e9;
  }
  if (!Number.isFinite(seconds)) throw invalid(field, 'is too long');
  if (seconds < 0) throw invalid(field, 'must not be negative');
  return seconds;
}

/** Validates the body beyond its schema (windows, durations) and fills in the absent parts. */
function placeCriteria(body: SearchCriteria): PlaceCriteria {
  const { full, free } = body.reservation ?? {};
  const criteria: PlaceCriteria = {
    department: body.department ?? {},
    room: body.room ?? {},
    desk: body.desk ?? {},
    equipment: body.equipment ?? [],
  };
  if (full) criteria.full = timeWindow('reservation.full', full);
  if (free) {
    criteria.free = timeWindow('reservation.free', free);
    // partlyBetween is checked even where it has no effect, so a typo never passes silently.
    const partlyBetween = free.partlyBetween === undefined ? 0 : durationSeconds('reservation.free.partlyBetween', free.partlyBetween);
    if (free.partlyReserved === true) criteria.free.partlyFreeSeconds = partlyBetween;
  }
  return criteria;
}

export class SearchService {
  constructor(private readonly db: Database) {}

  private get search() {
    return new SearchRepository(this.db);
  }

  /** Rooms matching the criteria, each listing exactly its matching desks. */
  async rooms(body: SearchCriteria, query: PageQuery): Promise<PageOf<RoomDto>> {
    const criteria = placeCriteria(body);
    const request = parsePageRequest(query, ROOM_SORTABLE);
    const { rows, total } = await this.search.rooms(criteria, request);
    return pageOf(rows, total, request);
  }

  async departments(body: SearchCriteria, query: PageQuery): Promise<PageOf<DepartmentDto>> {
    const criteria = placeCriteria(body);
    const request = parsePageRequest(query, DEPARTMENT_SORTABLE);
    const { rows, total } = await this.search.departments(criteria, request);
    return pageOf(rows, total, request);
  }

  async reports(body: ReportSearchCriteria, query: PageQuery): Promise<PageOf<ReportDto>> {
    const request = parsePageRequest(query, REPORT_SORTABLE);
    const { rows, total } = await this.search.reports(body, request);
    return pageOf(rows.map(toReportDto), total, request);
  }
}
