import { Type, type Static } from '@sinclair/typebox';
import { ReportDescription, ReportStatusNote, ReportStatusValue } from '../../shared/fields.js';
import { Name, Nullable, SHORT_TEXT_MAX, Timestamp, Uuid } from '../../shared/schemas.js';
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

// ---- status (docs/behaviour.md#report-status): a resource of its own, since Report may not grow

export const ReportStatus = Type.Object(
  {
    reportId: Uuid(),
    status: ReportStatusValue(),
    note: Nullable(Type.String({ description: "The admins' note to the reporter; null when none." })),
    changedAt: Nullable(Timestamp('When an admin last changed the status or note; null while nobody has.')),
    changedBy: Nullable(Uuid('The admin who last changed it; null while nobody has, or once that account is deleted.')),
  },
  { title: 'ReportStatus', description: 'What became of a defect report: its status and the note the admins left for the reporter.' },
);
export type ReportStatusDto = Static<typeof ReportStatus>;

export const PutReportStatusBody = Type.Object(
  {
    status: ReportStatusValue(),
    note: Type.Optional(ReportStatusNote()),
  },
  { additionalProperties: false },
);
export type PutReportStatusBody = Static<typeof PutReportStatusBody>;

export const ReportWithStatus = Type.Object(
  { report: Report, status: ReportStatus },
  { title: 'ReportWithStatus', description: 'A defect report and its status.' },
);
export type ReportWithStatusDto = Static<typeof ReportWithStatus>;

export const ReportWithStatusPage = Page(ReportWithStatus, 'PageOfReportWithStatus');

export const ReportStatusListQuery = Type.Object({
  ...pageQueryProperties,
  status: Type.Optional(ReportStatusValue()),
  reportedBy: Type.Optional(Uuid('Only the reports filed by this user; a USER must give their own id.')),
  departmentId: Type.Optional(Uuid('Only the reports of this office.')),
  title: Type.Optional(Type.String({ minLength: 1, maxLength: SHORT_TEXT_MAX, description: 'Only the reports whose title contains this, any case.' })),
  description: Type.Optional(
    Type.String({ minLength: 1, maxLength: SHORT_TEXT_MAX, description: 'Only the reports whose description contains this, any case.' }),
  ),
});
export type ReportStatusListQuery = Static<typeof ReportStatusListQuery>;
