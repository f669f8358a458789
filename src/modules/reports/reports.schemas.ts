import { Type, type Static } from '@sinclair/typebox';
import { ReportDescription } from '../../shared/fields.js';
import { Name, Nullable, Timestamp, Uuid } from '../../shared/schemas.js';
import { Page, pageQueryProperties } from '../../shared/paging.js';

export const Report = Type.Object(
  {
    id: Uuid(),
    title: Type.String(),
    description: Type.String(),
    reportedBy: Uuid('The user who filed it.'),
    departmentId: Nullable(Uuid()),
    roomId: Nullable(Uuid()),
    deskId: Nullable(Uuid()),
    equipmentId: Nullable(Uuid()),
    createdAt: Timestamp(),
  },
  { title: 'Report', description: 'A defect report. The place it names is null when not given (or when that place was deleted later).' },
);
export type ReportDto = Static<typeof Report>;

export const ReportPage = Page(Report, 'PageOfReport');

export const CreateReportBody = Type.Object(
  {
    title: Name('Title'),
    description: ReportDescription(),
    reportedBy: Uuid("The user filing it: the caller's own id, unless the caller is an admin."),
    departmentId: Type.Optional(Uuid()),
    roomId: Type.Optional(Uuid()),
    deskId: Type.Optional(Uuid()),
    equipmentId: Type.Optional(Uuid()),
  },
  { additionalProperties: false },
);
export type CreateReportBody = Static<typeof CreateReportBody>;

export const ReportListQuery = Type.Object({
  ...pageQueryProperties,
  reportedBy: Type.Optional(Uuid('Only the reports filed by this user.')),
});
export type ReportListQuery = Static<typeof ReportListQuery>;

export const RoomReportsParams = Type.Object({ departmentId: Uuid(), roomId: Uuid() });

export const RoomReportsQuery = Type.Object(pageQueryProperties);
export type RoomReportsQuery = Static<typeof RoomReportsQuery>;
