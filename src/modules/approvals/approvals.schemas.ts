import { Type, type Static } from '@sinclair/typebox';
import { Page, pageQueryProperties } from '../../shared/paging.js';
import { Nullable, StringEnum, Timestamp, Uuid } from '../../shared/schemas.js';

export const ApprovalScope = StringEnum(['AREA', 'DEPARTMENT', 'ROOM', 'DESK_TYPE'] as const, {
  description:
    'AREA: the desks of one area (areaId: its department, room or desks; every day). DEPARTMENT: the desks of one department (departmentId). ROOM: the desks of one room (roomId). DESK_TYPE: every desk of a type (deskType). The most specific holds: area, room, department, desk type.',
});
export const AppliesTo = StringEnum(['EVERYONE', 'MEMBERS', 'NON_MEMBERS'] as const, {
  description: 'Whose bookings need approval: everyone, the people of teamId, or the people outside teamId.',
});
export const ApprovalStatus = StringEnum(['PENDING', 'APPROVED', 'REJECTED', 'EXPIRED'] as const, {
  description:
    'PENDING: awaiting a decision (the reservation holds its desk). APPROVED. REJECTED: the reservation was cancelled. EXPIRED: not approved before it began; cancelled.',
});

export const RequirementInput = Type.Object(
  {
    scope: ApprovalScope,
    departmentId: Type.Optional(Uuid('DEPARTMENT scope only.')),
    roomId: Type.Optional(Uuid('ROOM scope only.')),
    areaId: Type.Optional(Uuid('AREA scope only: the area (GET /api/admin/policies/areas).')),
    deskType: Type.Optional(StringEnum(['FLEX', 'FIXED'] as const, { description: 'DESK_TYPE scope only.' })),
    appliesTo: Type.Optional(AppliesTo),
    teamId: Type.Optional(Uuid('With appliesTo MEMBERS or NON_MEMBERS: the team.')),
    approverTeamId: Type.Optional(Uuid('Whose managers decide, besides the admins (without it: admins only).')),
  },
  { additionalProperties: false },
);
export type RequirementInput = Static<typeof RequirementInput>;

export const Requirement = Type.Object(
  {
    id: Uuid(),
    scope: ApprovalScope,
    departmentId: Nullable(Uuid()),
    roomId: Nullable(Uuid()),
    areaId: Nullable(Uuid()),
    deskType: Nullable(StringEnum(['FLEX', 'FIXED'] as const)),
    appliesTo: AppliesTo,
    teamId: Nullable(Uuid()),
    approverTeamId: Nullable(Uuid()),
    createdAt: Timestamp(),
  },
  { title: 'ApprovalRequirement' },
);
export type RequirementDto = Static<typeof Requirement>;
export const RequirementPage = Page(Requirement, 'ApprovalRequirementPage');
export const RequirementListQuery = Type.Object({ ...pageQueryProperties }, { additionalProperties: false });
export type RequirementListQuery = Static<typeof RequirementListQuery>;

export const Approval = Type.Object(
  {
    reservationId: Uuid('The reservation (GET /api/reservation/{id} while it exists).'),
    requirementId: Nullable(Uuid('The requirement it fell under (null once that was deleted: admins decide).')),
    userId: Uuid('Whose reservation it is.'),
    userName: Type.String({ description: 'First and last name of the owner.' }),
    userEmail: Type.String(),
    deskId: Nullable(Uuid()),
    deskName: Nullable(Type.String()),
    roomName: Nullable(Type.String()),
    place: Nullable(Type.String({ description: 'location · building · Floor n, in English (`office` names it for a client to word).' })),
    office: Nullable(
      Type.Object(
        { location: Type.String(), building: Type.String(), floor: Type.Integer() },
        { title: 'ApprovalOffice', description: "The desk's office, for a client to name in its own language (docs/i18n.md)." },
      ),
    ),
    timeZone: Type.String({ description: "The office's IANA time zone." }),
    startTime: Timestamp(),
    endTime: Timestamp(),
    status: ApprovalStatus,
    requestedAt: Timestamp(),
    decidedBy: Nullable(Uuid('Who approved or rejected it (null while pending, or when it expired).')),
    decidedAt: Nullable(Timestamp()),
    note: Nullable(Type.String({ description: "The approver's note." })),
  },
  { title: 'Approval' },
);
export type ApprovalDto = Static<typeof Approval>;
export const ApprovalPage = Page(Approval, 'ApprovalPage');

export const ApprovalListQuery = Type.Object({ ...pageQueryProperties, status: Type.Optional(ApprovalStatus) }, { additionalProperties: false });
export type ApprovalListQuery = Static<typeof ApprovalListQuery>;

export const DecisionBody = Type.Object(
  { note: Type.Optional(Type.String({ maxLength: 500, description: 'Told to the owner in the mail.' })) },
  { additionalProperties: false },
);
export type DecisionBody = Static<typeof DecisionBody>;
