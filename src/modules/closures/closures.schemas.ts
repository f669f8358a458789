import { Type, type Static } from '@sinclair/typebox';
import { Page, pageQueryProperties } from '../../shared/paging.js';
import { Nullable, StringEnum, Timestamp, Uuid } from '../../shared/schemas.js';
import { MAX_CLOSURE_DATES } from './closures.recurrence.js';

const LocalDate = (description: string) => Type.String({ format: 'date', maxLength: 10, description });

export const ClosureScope = StringEnum(['EVERYWHERE', 'DEPARTMENT', 'BUILDING'] as const, {
  description: 'EVERYWHERE: every office. DEPARTMENT: one department (departmentId). BUILDING: every department of one location and building.',
});

const closureWhere = {
  scope: ClosureScope,
  departmentId: Type.Optional(Uuid('DEPARTMENT scope only: the department.')),
  location: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'BUILDING scope only: the location of the building.' })),
  building: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'BUILDING scope only: the building (as departments name it).' })),
  reason: Type.String({
    minLength: 1,
    maxLength: 200,
    description: 'Why the office is closed ("Christmas Day", "Move to the new floor"): shown to people and mailed.',
  }),
  dates: Type.Optional(
    Type.Array(LocalDate('A closed local date.'), {
      minItems: 1,
      maxItems: MAX_CLOSURE_DATES,
      description: `One-off closed dates (at most ${MAX_CLOSURE_DATES}), whole local days in each office's time zone. Give dates or rrule, not both.`,
    }),
  ),
  rrule: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 500,
      description:
        'A recurrence (RFC 5545 RRULE, e.g. FREQ=YEARLY;BYMONTH=12;BYMONTHDAY=25;COUNT=5) from startDate: FREQ DAILY, WEEKLY, MONTHLY or YEARLY, with COUNT or UNTIL (required), ' +
        'INTERVAL, BYDAY, BYMONTHDAY and BYMONTH; at most 400 days within 5 years.',
    }),
  ),
  startDate: Type.Optional(LocalDate('With rrule: the first day of the recurrence (DTSTART).')),
};

export const ClosureInput = Type.Object(closureWhere, { additionalProperties: false });
export type ClosureInput = Static<typeof ClosureInput>;

export const CreateClosureBody = Type.Object(
  {
    ...closureWhere,
    onExisting: StringEnum(['cancel', 'keep'] as const, {
      description:
        'What happens to reservations on the closed days that have not started yet (list them first with POST /api/closures/preview): cancel them (their owners are mailed the reason and get the calendar cancellation) or keep them. Either way no new booking may touch a closed day.',
    }),
  },
  { additionalProperties: false },
);
export type CreateClosureBody = Static<typeof CreateClosureBody>;

export const Closure = Type.Object(
  {
    id: Uuid(),
    scope: ClosureScope,
    departmentId: Nullable(Uuid()),
    location: Nullable(Type.String()),
    building: Nullable(Type.String()),
    reason: Type.String(),
    dates: Nullable(Type.Array(LocalDate('A one-off closed date.'), { description: 'The one-off dates, or null for a recurrence.' })),
    rrule: Nullable(Type.String({ description: 'The recurrence, or null for one-off dates.' })),
    startDate: LocalDate('The first closed day.'),
    lastDate: LocalDate('The last closed day.'),
    dayCount: Type.Integer({ minimum: 1, description: 'How many days are closed.' }),
    createdAt: Timestamp(),
  },
  { title: 'Closure' },
);
export type ClosureDto = Static<typeof Closure>;

export const ClosureDetail = Type.Object(
  { ...Closure.properties, days: Type.Array(LocalDate('A closed day.'), { description: 'Every closed day, in order.' }) },
  { title: 'ClosureDetail' },
);
export type ClosureDetailDto = Static<typeof ClosureDetail>;

export const ClosurePage = Page(Closure, 'PageOfClosure');

export const ClosureListQuery = Type.Object({
  ...pageQueryProperties,
  departmentId: Type.Optional(Uuid('Only closures that hold in this department (its own, its building’s and those everywhere).')),
  upcoming: Type.Optional(Type.Boolean({ description: 'true: only closures with a closed day today or later.' })),
});
export type ClosureListQuery = Static<typeof ClosureListQuery>;

export const AffectedReservation = Type.Object(
  {
    id: Uuid('The reservation.'),
    userId: Uuid(),
    userName: Type.String({ description: 'First and last name of the owner.' }),
    deskId: Uuid(),
    deskName: Type.String(),
    roomName: Type.String(),
    departmentId: Uuid(),
    place: Type.String({ description: '"location · building · Floor n" of the department.' }),
    timeZone: Type.String({ description: 'The office’s IANA time zone, in which the day is closed.' }),
    date: LocalDate('The first closed local day the reservation touches.'),
    startTime: Timestamp(),
    endTime: Timestamp(),
    started: Type.Boolean({ description: 'Already started: it is kept whatever onExisting says.' }),
  },
  { title: 'ClosureAffectedReservation' },
);
export type AffectedReservationDto = Static<typeof AffectedReservation>;

export const ClosurePreview = Type.Object(
  {
    days: Type.Array(LocalDate('A closed day.'), { description: 'Every day the closure would close, in order.' }),
    reservations: Page(AffectedReservation, 'PageOfClosureAffectedReservation'),
  },
  { title: 'ClosurePreview' },
);
export type ClosurePreviewDto = Static<typeof ClosurePreview>;

export const PreviewQuery = Type.Object(pageQueryProperties);
export type PreviewQuery = Static<typeof PreviewQuery>;

export const CreatedClosure = Type.Object(
  {
    closure: ClosureDetail,
    cancelled: Type.Integer({ minimum: 0, description: 'Reservations cancelled (onExisting cancel).' }),
    kept: Type.Integer({ minimum: 0, description: 'Reservations on the closed days that stay (onExisting keep, or already started).' }),
  },
  { title: 'CreatedClosure' },
);
export type CreatedClosureDto = Static<typeof CreatedClosure>;

export const ClosedDaysQuery = Type.Object({
  from: LocalDate('First local date (inclusive).'),
  to: LocalDate('Last local date (inclusive); at most 92 days after from.'),
  departmentId: Type.Optional(Uuid('Only closures that hold in this department.')),
});
export type ClosedDaysQuery = Static<typeof ClosedDaysQuery>;

export const ClosedDay = Type.Object(
  {
    date: LocalDate('A closed local date.'),
    closureId: Uuid(),
    reason: Type.String(),
    scope: ClosureScope,
    departmentId: Nullable(Uuid()),
    location: Nullable(Type.String()),
    building: Nullable(Type.String()),
  },
  { title: 'ClosedDay' },
);
export type ClosedDayDto = Static<typeof ClosedDay>;

export const ClosedDays = Type.Object(
  { days: Type.Array(ClosedDay, { description: 'Each closed day of each closure in the range, by date (at most 1000).' }) },
  { title: 'ClosedDays' },
);
export type ClosedDaysDto = Static<typeof ClosedDays>;
