import type { ReportRow } from './reports.repository.js';
import type { ReportDto } from './reports.schemas.js';

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
