import { Type, type Static } from '@sinclair/typebox';
import { Page, pageQueryProperties } from '../../shared/paging.js';
import { InstantInput, Nullable, StringEnum, Timestamp, Uuid } from '../../shared/schemas.js';

export const ATTENDANCE_STATUSES = ['PENDING', 'CHECKED_IN', 'NO_SHOW', 'NOT_REQUIRED'] as const;

export const AttendanceStatus = StringEnum(ATTENDANCE_STATUSES, {
  description:
    'PENDING: check-in required and not done yet. CHECKED_IN: the owner (or an admin) checked in. NO_SHOW: nobody checked in by `releaseAt`; the reservation was released. NOT_REQUIRED: check-in was not required when it was booked.',
});

export const Attendance = Type.Object(
  {
    reservationId: Uuid(),
    userId: Uuid(),
    deskId: Uuid(),
    roomId: Uuid(),
    departmentId: Uuid(),
    startTime: Timestamp('Start of the reservation.'),
    endTime: Timestamp('End of the reservation (cut to `releasedAt` when released).'),
    status: AttendanceStatus,
    checkInOpensAt: Timestamp('Check-in is accepted from this instant until the reservation ends (and, while check-in is required, before `releaseAt`).'),
    releaseAt: Nullable(
      Timestamp('When the reservation is released if nobody checks in (the earlier of start + grace and the end); null when check-in is not required.'),
    ),
    checkedInAt: Nullable(Timestamp()),
    releasedAt: Nullable(Timestamp('When the reservation was released as a no-show.')),
  },
  { title: 'Attendance' },
);
export type AttendanceDto = Static<typeof Attendance>;

export const AttendanceListQuery = Type.Object({
  ...pageQueryProperties,
  departmentId: Type.Optional(Uuid('Only reservations of desks in this department.')),
  roomId: Type.Optional(Uuid('Only reservations of desks in this room.')),
  deskId: Type.Optional(Uuid('Only reservations of this desk.')),
  userId: Type.Optional(Uuid("Only this user's reservations (a USER may give only their own id; 403 otherwise).")),
  status: Type.Optional(AttendanceStatus),
  from: Type.Optional(InstantInput('Only reservations ending after this instant.')),
  to: Type.Optional(InstantInput('Only reservations starting before this instant.')),
});
export type AttendanceListQuery = Static<typeof AttendanceListQuery>;

export const AttendancePage = Page(Attendance, 'PageOfAttendance');

const Minutes = (description: string) => Type.Integer({ minimum: 0, maximum: 1440, description });
const TimeZone = Type.String({ minLength: 1, maxLength: 64, description: 'IANA time zone of the office, e.g. Europe/Berlin (default UTC).' });

export const DepartmentSettings = Type.Object(
  {
    departmentId: Uuid(),
    checkInRequired: Nullable(Type.Boolean({ description: 'Override of CHECK_IN_REQUIRED; null: the global setting.' })),
    checkInOpensBeforeMinutes: Nullable(Minutes('Override of CHECK_IN_OPENS_BEFORE in minutes; null: the global setting.')),
    checkInGraceMinutes: Nullable(Minutes('Override of CHECK_IN_GRACE in minutes; null: the global setting.')),
    timeZone: TimeZone,
    effective: Type.Object(
      {
        checkInRequired: Type.Boolean(),
        checkInOpensBeforeMinutes: Type.Number({ minimum: 0 }),
        checkInGraceMinutes: Type.Number({ minimum: 0 }),
      },
      { description: 'What applies to new reservations of this department: the overrides, else the global settings.' },
    ),
  },
  { title: 'DepartmentSettings' },
);
export type DepartmentSettingsDto = Static<typeof DepartmentSettings>;

export const PutDepartmentSettingsBody = Type.Object(
  {
    checkInRequired: Type.Optional(Nullable(Type.Boolean())),
    checkInOpensBeforeMinutes: Type.Optional(Nullable(Minutes('Minutes; null or left out: the global setting.'))),
    checkInGraceMinutes: Type.Optional(Nullable(Minutes('Minutes; null or left out: the global setting.'))),
    timeZone: Type.Optional(TimeZone),
  },
  { additionalProperties: false },
);
export type PutDepartmentSettingsBody = Static<typeof PutDepartmentSettingsBody>;

export const NoShowQuery = Type.Object({
  from: Type.String({ format: 'date', description: 'First day (YYYY-MM-DD), inclusive.' }),
  to: Type.String({ format: 'date', description: 'Last day (YYYY-MM-DD), inclusive; at most 366 days after `from`.' }),
  departmentId: Type.Optional(Uuid('Only this department; its days are those of its time zone (otherwise UTC days).')),
});
export type NoShowQuery = Static<typeof NoShowQuery>;

export const NoShowStats = Type.Object(
  {
    timeZone: Type.String({ description: 'The zone whose days are counted.' }),
    days: Type.Array(
      Type.Object({
        date: Type.String({ format: 'date' }),
        reservations: Type.Integer({ minimum: 0, description: 'Reservations starting that day.' }),
        checkedIn: Type.Integer({ minimum: 0 }),
        noShows: Type.Integer({ minimum: 0 }),
        pending: Type.Integer({ minimum: 0 }),
        notRequired: Type.Integer({ minimum: 0 }),
        noShowRate: Nullable(Type.Number({ minimum: 0, maximum: 1, description: 'noShows / (checkedIn + noShows); null without either.' })),
      }),
      { description: 'One entry per day, oldest first, days without reservations included.' },
    ),
  },
  { title: 'NoShowStats' },
);
export type NoShowStatsDto = Static<typeof NoShowStats>;

export const DeskDayQuery = Type.Object({
  date: Type.Optional(Type.String({ format: 'date', description: "Local date in the office's time zone (default: today there)." })),
});

export const DeskDay = Type.Object(
  {
    desk: Type.Object({ id: Uuid(), name: Type.String(), type: StringEnum(['FLEX', 'FIXED'] as const) }),
    room: Type.Object({ id: Uuid(), name: Type.String(), available: Type.Boolean() }),
    department: Type.Object({ id: Uuid(), location: Type.String(), building: Type.String(), floor: Type.Integer() }),
    timeZone: Type.String(),
    date: Type.String({ format: 'date' }),
    freeNow: Type.Boolean({ description: 'No reservation of this desk covers the present instant.' }),
    walkInUntil: Nullable(Timestamp('Where a walk-in booked now would end (null when the desk cannot be booked on the spot now).')),
    reservations: Type.Array(
      Type.Object({
        id: Nullable(Uuid("The id for the caller's own reservations (and for admins); null for other people's.")),
        startTime: Timestamp(),
        endTime: Timestamp(),
        mine: Type.Boolean(),
        attendance: Nullable(Attendance),
      }),
      { description: "The desk's reservations overlapping the day, in start order; the attendance only of the caller's own (or for admins)." },
    ),
  },
  { title: 'DeskDay' },
);
export type DeskDayDto = Static<typeof DeskDay>;

export const WalkInResult = Type.Object(
  {
    reservationId: Uuid(),
    startTime: Timestamp(),
    endTime: Timestamp(),
    attendance: Attendance,
  },
  { title: 'WalkIn' },
);
export type WalkInResultDto = Static<typeof WalkInResult>;
