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

// Public holidays (docs/policies.md#public-holidays).

const HolidayRegion = Type.Object({ code: Type.String(), name: Type.String({ description: 'English name.' }) }, { title: 'HolidayRegion' });

export const HolidayCatalogue = Type.Object(
  {
    attribution: Type.String({ description: 'The attribution the holiday data (CC BY 3.0) asks for; show it next to the import.' }),
    countries: Type.Array(
      Type.Object(
        {
          code: Type.String({ description: 'ISO 3166-1 alpha-2 code.' }),
          name: Type.String({ description: 'English name.' }),
          languages: Type.Array(Type.String(), { description: 'Languages the holiday names come in; the first is the default.' }),
          states: Type.Array(
            Type.Object(
              {
                code: Type.String(),
                name: Type.String(),
                regions: Type.Array(HolidayRegion, { description: 'Regions of the state with holidays of their own.' }),
              },
              { title: 'HolidayState' },
            ),
            { description: 'States (or provinces) with holidays of their own.' },
          ),
        },
        { title: 'HolidayCountry' },
      ),
    ),
  },
  { title: 'HolidayCatalogue' },
);
export type HolidayCatalogueDto = Static<typeof HolidayCatalogue>;

const holidayImport = {
  scope: ClosureScope,
  departmentId: closureWhere.departmentId,
  location: closureWhere.location,
  building: closureWhere.building,
  country: Type.String({ pattern: '^[A-Za-z]{2}$', description: 'Country code (ISO 3166-1 alpha-2), from GET /api/closures/holidays/regions.' }),
  state: Type.Optional(Type.String({ minLength: 1, maxLength: 10, description: 'A state (or province) of the country with holidays of its own.' })),
  region: Type.Optional(Type.String({ minLength: 1, maxLength: 10, description: 'A region of the state with holidays of its own.' })),
  language: Type.Optional(
    Type.String({
      pattern: '^[A-Za-z]{2}$',
      description: 'Language of the holiday names (the closures’ reasons): one of the country’s languages; its first by default.',
    }),
  ),
  years: Type.Array(Type.Integer({ minimum: 2000, maximum: 2200 }), {
    minItems: 1,
    maxItems: 2,
    description: 'The years to import (one or two), from the current year to 10 years ahead.',
  }),
};

export const HolidayImportInput = Type.Object(holidayImport, { additionalProperties: false });
export type HolidayImportInput = Static<typeof HolidayImportInput>;

export const HolidayImportBody = Type.Object({ ...holidayImport, onExisting: CreateClosureBody.properties.onExisting }, { additionalProperties: false });
export type HolidayImportBody = Static<typeof HolidayImportBody>;

export const HolidayStatus = StringEnum(['NEW', 'CLOSED', 'PAST'] as const, {
  description: 'NEW: would be closed by the import. CLOSED: already closed in the whole scope (closureId). PAST: before today in the scope’s offices.',
});

export const PublicHoliday = Type.Object(
  {
    date: LocalDate('The holiday, a local date.'),
    name: Type.String({ description: 'Its name (several on one date joined with " / "): the closure’s reason.' }),
    status: HolidayStatus,
    closureId: Nullable(Uuid('CLOSED: a closure that already closes the date in the whole scope.')),
  },
  { title: 'PublicHoliday' },
);
export type PublicHolidayDto = Static<typeof PublicHoliday>;

export const HolidayPreview = Type.Object(
  {
    attribution: Type.String(),
    holidays: Type.Array(PublicHoliday, { description: 'The public holidays of the years, by date.' }),
    reservations: Page(AffectedReservation, 'PageOfHolidayAffectedReservation'),
  },
  { title: 'HolidayPreview' },
);
export type HolidayPreviewDto = Static<typeof HolidayPreview>;

export const HolidayImportResult = Type.Object(
  {
    closures: Type.Array(Closure, { description: 'The closures made: one per holiday name, with its new dates.' }),
    holidays: Type.Array(PublicHoliday, { description: 'Every holiday of the years and what became of it (NEW: closed now).' }),
    cancelled: Type.Integer({ minimum: 0, description: 'Reservations cancelled (onExisting cancel).' }),
    kept: Type.Integer({ minimum: 0, description: 'Reservations on the new closed days that stay (onExisting keep, or already started).' }),
  },
  { title: 'HolidayImportResult' },
);
export type HolidayImportResultDto = Static<typeof HolidayImportResult>;
