import { Type, type Static } from '@sinclair/typebox';
import { Nullable, Timestamp, Uuid } from '../../shared/schemas.js';

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
