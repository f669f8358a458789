import type { ReadRouting } from '../../db/replica.js';
import type { Caller } from '../../identity/caller.js';
import { invalid } from '../../shared/errors.js';
import { pageOf, parsePageRequest, type PageOf, type PageQuery } from '../../shared/paging.js';
import { parseInstant } from '../../shared/time.js';
import type { DepartmentDto, RoomDto } from '../inventory/inventory.schemas.js';
import type { ReportDto } from '../reports/reports.schemas.js';
import { toReportDto } from '../reports/reports.mappers.js';
import type { ReportSearchCriteria, SearchCriteria } from './search.schemas.js';
import { DEPARTMENT_SORTABLE, REPORT_SORTABLE, ROOM_SORTABLE, SearchRepository, type PlaceCriteria, type TimeWindow } from './search.repository.js';

type FreeCriterion = NonNullable<NonNullable<SearchCriteria['reservation']>['free']>;
type PartlyBetween = NonNullable<FreeCriterion['partlyBetween']>;

function timeWindow(field: string, window: { start: string; end: string }): TimeWindow {
  const start = parseInstant(`${field}.start`, window.start);
  const end = parseInstant(`${field}.end`, window.end);
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

/** Searches read the replica when the caller may (docs/deployment.md#with-a-read-replica). */
export class SearchService {
  constructor(private readonly reads: ReadRouting) {}

  /** Rooms matching the criteria, each listing exactly its matching desks. */
  async rooms(caller: Caller, body: SearchCriteria, query: PageQuery): Promise<PageOf<RoomDto>> {
    const criteria = placeCriteria(body);
    const request = parsePageRequest(query, ROOM_SORTABLE);
    const { rows, total } = await this.reads.read(caller.user.lastWriteLsn, (db) => new SearchRepository(db).rooms(criteria, request));
    return pageOf(rows, total, request);
  }

  async departments(caller: Caller, body: SearchCriteria, query: PageQuery): Promise<PageOf<DepartmentDto>> {
    const criteria = placeCriteria(body);
    const request = parsePageRequest(query, DEPARTMENT_SORTABLE);
    const { rows, total } = await this.reads.read(caller.user.lastWriteLsn, (db) => new SearchRepository(db).departments(criteria, request));
    return pageOf(rows, total, request);
  }

  async reports(caller: Caller, body: ReportSearchCriteria, query: PageQuery): Promise<PageOf<ReportDto>> {
    const request = parsePageRequest(query, REPORT_SORTABLE);
    const { rows, total } = await this.reads.read(caller.user.lastWriteLsn, (db) => new SearchRepository(db).reports(body, request));
    return pageOf(rows.map(toReportDto), total, request);
  }
}
