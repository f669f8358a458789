import type { Database } from '../../db/client.js';
import { pgErrorCode, PG } from '../../db/errors.js';
import type { Clock } from '../../shared/clock.js';
import { AppError, forbidden, notFound, type FieldError } from '../../shared/errors.js';
import { pageOf, parsePageRequest, type PageOf, type PageQuery } from '../../shared/paging.js';
import { isAdmin, type Caller } from '../../identity/caller.js';
import { isSelfOrAdmin, requireSelfOrAdmin } from '../../identity/policy.js';
import { REPORT_SORTABLE, ReportsRepository, type PlaceIds, type ReportRow, type ResolvedPlace } from './reports.repository.js';
import { toReportDto, toReportStatusDto, toReportWithStatusDto } from './reports.mappers.js';
import type {
  CreateReportBody,
  PutReportStatusBody,
  ReportDto,
  ReportListQuery,
  ReportStatusDto,
  ReportStatusListQuery,
  ReportWithStatusDto,
} from './reports.schemas.js';

const failed = (errors: FieldError[]) => new AppError('VALIDATION_FAILED', errors.map((error) => `${error.field} ${error.message}`).join('; '), { errors });

/** The place members from the most specific to the least. */
const PLACE_MEMBERS = ['equipmentId', 'deskId', 'roomId', 'departmentId'] as const;
const KIND: Record<(typeof PLACE_MEMBERS)[number], string> = { equipmentId: 'equipment item', deskId: 'desk', roomId: 'room', departmentId: 'department' };

/**
 * Field errors for the ids of a new report: every id that does not exist (reportedBy included),
 * else every parent given that is not the real parent of the place below it. A mismatch is blamed
 * on the most specific member given below that parent (the one that "is not in" it), once.
 */
function placeErrors(given: PlaceIds, place: ResolvedPlace): FieldError[] {
  const unknown: FieldError[] = [];
  if (place.userId === null) unknown.push({ field: 'reportedBy', message: 'no user has this id' });
  for (const member of PLACE_MEMBERS) {
    if (given[member] !== undefined && place[member] === null) unknown.push({ field: member, message: `no ${KIND[member]} has this id` });
  }
  if (unknown.length > 0) return unknown;

  const links = [
    { parent: 'deskId', actual: place.deskOfEquipment, below: ['equipmentId'], where: 'on the given desk' },
    { parent: 'roomId', actual: place.roomOfDesk, below: ['deskId', 'equipmentId'], where: 'in the given room' },
    { parent: 'departmentId', actual: place.departmentOfRoom, below: ['roomId', 'deskId', 'equipmentId'], where: 'in the given department' },
  ] as const;
  const inconsistent: FieldError[] = [];
  for (const link of links) {
    const blamed = link.below.find((member) => given[member] !== undefined);
    const alreadyBlamed = inconsistent.some((error) => error.field === blamed);
    if (given[link.parent] !== undefined && blamed !== undefined && !alreadyBlamed && link.actual !== place[link.parent]) {
      inconsistent.push({ field: blamed, message: `is not ${link.where}` });
    }
  }
  return inconsistent;
}

/** A report's status changed (docs/behaviour.md#report-status): what its reporter is to be told. */
export interface ReportStatusChanged {
  reportId: string;
  title: string;
  /** The reporter: the person to tell. */
  reportedBy: string;
  from: ReportRow['status'];
  to: ReportRow['status'];
  note: string | null;
  changedAt: Date;
  /** The admin who changed it. */
  changedBy: string;
}

/**
 * Called inside the transaction that changes a report's status, so that whatever it writes (a row
 * of the outbox) is committed with the change or not at all (docs/behaviour.md#report-status;
 * app.ts gives `mailReporter` when mail is configured).
 */
export type ReportStatusNotifier = (tx: Database, change: ReportStatusChanged) => Promise<void>;

/** Without mail: the reporter sees the status in the app only. */
export const notifyNobody: ReportStatusNotifier = async () => {};

export class ReportsService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly statusChanged: ReportStatusNotifier = notifyNobody,
  ) {}

  private get reports() {
    return new ReportsRepository(this.db);
  }

  /**
   * Files a report. The ids are checked against each other in one statement, and the parents
   * left out are filled in from the most specific place given.
   */
  async create(caller: Caller, body: CreateReportBody): Promise<ReportDto> {
    requireSelfOrAdmin(caller, body.reportedBy, 'Users file reports in their own name only (reportedBy must be your id)');
    const given: PlaceIds = { departmentId: body.departmentId, roomId: body.roomId, deskId: body.deskId, equipmentId: body.equipmentId };
    const place = await this.resolvePlace(body.reportedBy, given);
    try {
      const row = await this.reports.insert({
        title: body.title.trim(),
        description: body.description,
        reportedBy: body.reportedBy,
        departmentId: place.departmentId,
        roomId: place.roomId,
        deskId: place.deskId,
        equipmentId: place.equipmentId,
        createdAt: this.clock.now(),
      });
      return toReportDto(row);
    } catch (error) {
      // Something named was deleted between the check and the insert: the check now says which.
      if (pgErrorCode(error) === PG.FOREIGN_KEY_VIOLATION) await this.resolvePlace(body.reportedBy, given);
      throw error;
    }
  }

  private async resolvePlace(reportedBy: string, given: PlaceIds): Promise<ResolvedPlace> {
    const place = await this.reports.resolve(reportedBy, given);
    const errors = placeErrors(given, place);
    if (errors.length > 0) throw failed(errors);
    return place;
  }

  async list(query: ReportListQuery): Promise<PageOf<ReportDto>> {
    const request = parsePageRequest(query, REPORT_SORTABLE);
    const { rows, total } = await this.reports.page({ reportedBy: query.reportedBy }, request);
    return pageOf(rows.map(toReportDto), total, request);
  }

  async listOfRoom(departmentId: string, roomId: string, query: PageQuery): Promise<PageOf<ReportDto>> {
    const request = parsePageRequest(query, REPORT_SORTABLE);
    const { rows, total, ...found } = await this.reports.pageOfRoom(departmentId, roomId, request);
    if (!found.department) throw notFound('Department', departmentId);
    if (!found.room) throw new AppError('NOT_FOUND', `Room ${roomId} not found in department ${departmentId}`);
    return pageOf(rows.map(toReportDto), total, request);
  }

  async get(id: string): Promise<ReportDto> {
    const row = await this.reports.findById(id);
    if (!row) throw notFound('Report', id);
    return toReportDto(row);
  }

  async delete(id: string): Promise<void> {
    if (!(await this.reports.delete(id))) throw notFound('Report', id);
  }

  // ---- status (docs/behaviour.md#report-status) ------------------------------------------------

  /** The status of a report: its reporter and admins only (403 for others). */
  async getStatus(caller: Caller, id: string): Promise<ReportStatusDto> {
    const row = await this.reports.findById(id);
    if (!row) throw notFound('Report', id);
    if (!isSelfOrAdmin(caller, row.reportedBy)) throw forbidden('Only the reporter and admins see the status of a report');
    return toReportStatusDto(row);
  }

  /**
   * Sets a report's status and note (admins; the route checks the role). Setting what is stored
   * already changes nothing and tells nobody; a change is told through `statusChanged`, in the
   * same transaction.
   */
  async setStatus(caller: Caller, id: string, body: PutReportStatusBody): Promise<ReportStatusDto> {
    const note = body.note?.trim() ? body.note.trim() : null;
    const changedAt = this.clock.now();
    return this.db.transaction(async (tx) => {
      const result = await new ReportsRepository(tx).setStatus(id, { status: body.status, note, changedAt, changedBy: caller.user.id });
      if (!result) throw notFound('Report', id);
      const { before, after } = result;
      if (!after) return toReportStatusDto(before);
      await this.notifyStatusChanged(tx, {
        reportId: after.id,
        title: after.title,
        reportedBy: after.reportedBy,
        from: before.status,
        to: after.status,
        note: after.statusNote,
        changedAt,
        changedBy: caller.user.id,
      });
      return toReportStatusDto(after);
    });
  }

  /**
   * The one place a status change is announced (docs/behaviour.md#report-status): through
   * `statusChanged` (given by app.ts), which queues the reporter's mail in the outbox, never sends
   * from this request.
   */
  private async notifyStatusChanged(tx: Database, change: ReportStatusChanged): Promise<void> {
    await this.statusChanged(tx, change);
  }

  /** Reports with their status, newest first: admins any; a USER only their own (reportedBy = their id). */
  async listWithStatus(caller: Caller, query: ReportStatusListQuery): Promise<PageOf<ReportWithStatusDto>> {
    if (!isAdmin(caller) && query.reportedBy !== caller.user.id) {
      throw forbidden('Users list the status of their own reports only (reportedBy must be your id)');
    }
    const request = parsePageRequest(query, REPORT_SORTABLE);
    const { status, reportedBy, departmentId, title, description } = query;
    const { rows, total } = await this.reports.page({ status, reportedBy, departmentId, title, description }, request);
    return pageOf(rows.map(toReportWithStatusDto), total, request);
  }
}
