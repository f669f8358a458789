import type { ApprovalRow, RequirementRow } from './approvals.repository.js';
import type { ApprovalDto, RequirementDto } from './approvals.schemas.js';

export const toRequirementDto = (row: RequirementRow): RequirementDto => ({ ...row, createdAt: row.createdAt.toISOString() });

export const toApprovalDto = (row: ApprovalRow): ApprovalDto => ({
  reservationId: row.reservationId,
  requirementId: row.requirementId,
  userId: row.userId,
  userName: `${row.firstName} ${row.lastName}`.trim(),
  userEmail: row.email,
  deskId: row.deskId,
  deskName: row.deskName,
  roomName: row.roomName,
  place: row.place,
  office: row.office,
  timeZone: row.timeZone,
  startTime: row.startTime.toISOString(),
  endTime: row.endTime.toISOString(),
  status: row.status,
  requestedAt: row.requestedAt.toISOString(),
  decidedBy: row.decidedBy,
  decidedAt: row.decidedAt === null ? null : row.decidedAt.toISOString(),
  note: row.note,
});
