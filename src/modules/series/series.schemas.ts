import { Type, type Static } from '@sinclair/typebox';
import { Page, pageQueryProperties } from '../../shared/paging.js';
import { InstantInput, Nullable, StringEnum, Timestamp, Uuid } from '../../shared/schemas.js';
import { MAX_OCCURRENCES, WEEKDAYS } from './series.recurrence.js';

const ReservationType = StringEnum(['shared', 'fixed'] as const, {
  description: 'shared: an ordinary booking (the default). fixed: an admin assigns a desk to a person (admins only).',
});

const LocalDate = (description: string) => Type.String({ format: 'date', maxLength: 10, description });

const ClosureRef = Type.Object(
  {
    id: Uuid('The closure (docs/policies.md#closures-and-holidays).'),
    date: LocalDate('The closed local date, in the office’s time zone.'),
    reason: Type.String({ description: 'Why the office is closed.' }),
  },
  { title: 'ClosedDayRef' },
);

export const Frequency = StringEnum(['DAILY', 'WEEKLY'] as const, {
  description: 'DAILY: every `interval` days. WEEKLY: on `weekdays`, every `interval` weeks.',
});
export const WeekdayName = StringEnum(WEEKDAYS, { description: 'MO, TU, WE, TH, FR, SA or SU.' });

export const SeriesRule = Type.Object(
  {
    frequency: Frequency,
    interval: Type.Optional(Type.Integer({ minimum: 1, maximum: 52, description: 'Every this many days or weeks (default 1).' })),
    weekdays: Type.Optional(
      Type.Array(WeekdayName, {
        minItems: 1,
        maxItems: 7,
        uniqueItems: true,
        description: 'WEEKLY only: the weekdays (in the time zone) to book; default the weekday of startTime.',
      }),
    ),
    until: Type.Optional(LocalDate('Last local date to book (inclusive, in timeZone). Give exactly one of until and count.')),
    count: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_OCCURRENCES, description: `Number of occurrences (at most ${MAX_OCCURRENCES}).` })),
  },
  { additionalProperties: false },
);

export const CreateSeriesBody = Type.Object(
  {
    deskId: Uuid(),
    startTime: InstantInput('Start of the first occurrence, inclusive; its local time in timeZone is kept by every occurrence.'),
    endTime: InstantInput('End of the first occurrence, exclusive.'),
    timeZone: Type.String({ minLength: 1, maxLength: 64, description: 'IANA time zone the rule is computed in, e.g. Europe/Berlin.' }),
    rule: SeriesRule,
    skipConflicts: Type.Optional(
      Type.Boolean({
        description: 'false (default): any colliding occurrence refuses the whole series (409). true: book the free ones and list the rest as skipped.',
      }),
    ),
    type: Type.Optional({ ...ReservationType, description: 'Default shared; fixed is for admins only (403).' }),
    userId: Type.Optional(
      Uuid(
        'Whom the series is for: default the caller; another person for admins, managers of a team the person is in and delegates the person named (403 otherwise; docs/policies.md#booking-for-someone-else).',
      ),
    ),
  },
  { additionalProperties: false },
);
export type CreateSeriesBody = Static<typeof CreateSeriesBody>;

const RuleOut = Type.Object({
  frequency: Frequency,
  interval: Type.Integer(),
  weekdays: Type.Array(WeekdayName, { description: 'Empty for DAILY.' }),
  until: Nullable(LocalDate('Last local date, or null when count ends the series.')),
  count: Nullable(Type.Integer({ description: 'Number of occurrences asked for, or null when until ends the series.' })),
});

const OccurrenceOut = Type.Object({
  reservationId: Uuid('The Reservation of this occurrence (an ordinary reservation, see /api/reservation/{id}).'),
  date: LocalDate('Local date in the time zone of the series.'),
  startTime: Timestamp(),
  endTime: Timestamp(),
});

const Skipped = Type.Object({
  date: LocalDate('Local date in the time zone of the series.'),
  startTime: Timestamp(),
  endTime: Timestamp(),
  reason: StringEnum(['DESK_RESERVED', 'USER_OVERLAP', 'CLOSED', 'POLICY'] as const, {
    description:
      'DESK_RESERVED: the desk is taken then. USER_OVERLAP: the owner already has a reservation then. CLOSED: the office is closed that day (always skipped; closure says which and why). POLICY: a booking policy refuses it (rule, message; docs/policies.md).',
  }),
  closure: Type.Optional(ClosureRef),
  rule: Type.Optional(
    Type.Object(
      { id: Uuid(), kind: Type.String(), name: Type.String() },
      { description: 'POLICY: the rule (or, kind AREA_RESERVED, the area) that refuses it.' },
    ),
  ),
  message: Type.Optional(Type.String({ description: 'POLICY: why, in a sentence.' })),
});

const seriesCore = {
  id: Uuid(),
  userId: Uuid(),
  deskId: Uuid(),
  roomId: Uuid('The room of the desk.'),
  departmentId: Uuid('The department of the desk.'),
  type: ReservationType,
  timeZone: Type.String(),
  rule: RuleOut,
  startTime: Timestamp('Start of the first occurrence asked for.'),
  endTime: Timestamp('End of the first occurrence asked for.'),
  createdAt: Timestamp(),
};

export const Series = Type.Object(
  { ...seriesCore, occurrences: Type.Array(OccurrenceOut, { description: 'The booked occurrences that still exist, in time order.' }) },
  { title: 'ReservationSeries' },
);
export type SeriesDto = Static<typeof Series>;

export const CancelledSeries = Type.Object(
  {
    ...Series.properties,
    kept: Type.Array(
      Type.Object({
        reservationId: Uuid(),
        startTime: Timestamp(),
        endTime: Timestamp(),
        rule: Type.Object({ id: Uuid(), kind: Type.String(), name: Type.String() }, { description: 'The CANCEL_LEAD rule that keeps it.' }),
        message: Type.String({ description: 'Why, in a sentence.' }),
      }),
      {
        description:
          'Occurrences not cancelled because they start within the cancellation lead time in force (CANCEL_LEAD; never for admins): they stay booked (docs/policies.md#cancelling-a-series).',
      },
    ),
  },
  { title: 'CancelledReservationSeries' },
);
export type CancelledSeriesDto = Static<typeof CancelledSeries>;

export const CreatedSeries = Type.Object(
  {
    ...seriesCore,
    occurrences: Type.Array(OccurrenceOut, { description: 'The booked occurrences, in time order.' }),
    skipped: Type.Array(Skipped, { description: 'Occurrences not booked: on a closed day (always), or colliding (skipConflicts only); by date.' }),
  },
  { title: 'CreatedReservationSeries' },
);
export type CreatedSeriesDto = Static<typeof CreatedSeries>;

export const SeriesSummary = Type.Object(
  {
    ...seriesCore,
    upcoming: Type.Integer({ description: 'Booked occurrences that have not ended.' }),
    nextStartTime: Nullable(Timestamp('Start of the next occurrence that has not ended, or null.')),
  },
  { title: 'ReservationSeriesSummary' },
);
export type SeriesSummaryDto = Static<typeof SeriesSummary>;

export const SeriesPage = Page(SeriesSummary, 'PageOfReservationSeries');

export const SeriesPreview = Type.Object(
  {
    occurrences: Type.Array(
      Type.Object({
        date: LocalDate('Local date in the time zone.'),
        startTime: Timestamp(),
        endTime: Timestamp(),
        conflict: Nullable(Skipped.properties.reason),
        closure: Nullable(ClosureRef),
        message: Type.Optional(Type.String({ description: 'POLICY: why a booking policy refuses it.' })),
      }),
      { description: 'Every occurrence of the rule; conflict says why one could not be booked now (null: free).' },
    ),
  },
  { title: 'ReservationSeriesPreview' },
);
export type SeriesPreviewDto = Static<typeof SeriesPreview>;

export const SeriesListQuery = Type.Object({
  ...pageQueryProperties,
  userId: Type.Optional(Uuid("Only this user's series (admins; a USER may give only their own id, 403 otherwise).")),
});
export type SeriesListQuery = Static<typeof SeriesListQuery>;

export const CancelSeriesQuery = Type.Object({
  from: Type.Optional(InstantInput('Cancel the occurrences starting at or after this instant (e.g. the start of one occurrence); default all.')),
});
export type CancelSeriesQuery = Static<typeof CancelSeriesQuery>;
