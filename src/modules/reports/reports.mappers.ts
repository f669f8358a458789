import type { ReportRow } from './reports.repository.js';
import type { ReportDto, ReportStatusDto, ReportWithStatusDto } from './reports.schemas.js';

/** The Report of docs/api.md. */
export function toReportDto(row: ReportRow): ReportDto {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    reportedBy: row.reportedBy,
    departmentId: row.departmentId,
    roomId: row.roomId,
    deskId: row.deskId,
    equipmentId: row.equipmentId,
    createdAt: row.createdAt.toISOString(),
  };
}

/** The ReportStatus of docs/behaviour.md#report-status. */
export function toReportStatusDto(row: ReportRow): ReportStatusDto {
  return {
    reportId: row.id,
    status: row.status,
    note: row.statusNote,
    changedAt: row.statusChangedAt?.toISOString() ?? null,
    changedBy: row.statusChangedBy,
  };
}

export const toReportWithStatusDto = (row: ReportRow): ReportWithStatusDto => ({ report: toReportDto(row), status: toReportStatusDto(row) });
