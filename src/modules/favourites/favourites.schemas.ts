import { Type, type Static } from '@sinclair/typebox';
import { InstantInput, Nullable, StringEnum, Timestamp, Uuid } from '../../shared/schemas.js';

/** Most desks one person may star (docs/favourites.md#favourite-desks). */
export const FAVOURITES_MAX = 50;
/** Most reservations of the pattern week "Book my usual" repeats (docs/favourites.md#book-my-usual). */
export const USUAL_MAX = 50;
/** Most desks the near-my-team ranking answers (docs/favourites.md#book-near-my-team). */
export const NEAR_TEAM_LIMIT_MAX = 200;
export const NEAR_TEAM_LIMIT_DEFAULT = 50;

const LocalDate = (description: string) => Type.String({ format: 'date', maxLength: 10, description });
const WallClock = (description: string) => Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$|^24:00$', maxLength: 5, description });

export const DeskParams = Type.Object({ deskId: Uuid('The desk.') });

export const FavouriteDesk = Type.Object(
  {
    deskId: Uuid(),
    deskName: Type.String(),
    roomId: Uuid('The room of the desk.'),
    roomName: Type.String(),
    departmentId: Uuid('The department (office) of the desk.'),
    createdAt: Timestamp('When the desk was starred.'),
  },
  { title: 'FavouriteDesk' },
);
export type FavouriteDeskDto = Static<typeof FavouriteDesk>;

export const FavouriteDesks = Type.Object(
  {
    content: Type.Array(FavouriteDesk, { description: `The caller's starred desks, oldest star first (at most ${FAVOURITES_MAX}).` }),
    max: Type.Integer({ description: 'How many desks one person may star.' }),
  },
  { title: 'FavouriteDesks' },
);
export type FavouriteDesksDto = Static<typeof FavouriteDesks>;

export const WindowKind = StringEnum(['NONE', 'HOURS', 'WHOLE_DAY'] as const, {
  description: 'NONE: no default window (Find a desk opens on 09:00–17:00). HOURS: startTime–endTime. WHOLE_DAY: 00:00–24:00.',
});

const bookingDefaultsFields = {
  homeDepartmentId: Nullable(Uuid('The home office (a department), preselected on Find a desk; null: none.')),
  window: WindowKind,
  startTime: Nullable(WallClock("HOURS: the window's start, HH:MM on the office's wall clock; null otherwise.")),
  endTime: Nullable(WallClock("HOURS: the window's end, HH:MM (24:00 = midnight), after startTime; null otherwise.")),
};

export const BookingDefaults = Type.Object(
  {
    ...bookingDefaultsFields,
    timeZone: Type.String({ description: "The home office's IANA time zone (UTC without a home office or office settings): the wall clock of the window." }),
  },
  { title: 'BookingDefaults' },
);
export type BookingDefaultsDto = Static<typeof BookingDefaults>;

export const BookingDefaultsBody = Type.Object(bookingDefaultsFields, { additionalProperties: false });
export type BookingDefaultsBody = Static<typeof BookingDefaultsBody>;

export const UsualQuery = Type.Object({
  week: Type.Optional(LocalDate('Any date of the week to book (Monday–Sunday); default the coming week (the Monday after today in the home office’s zone).')),
});
export type UsualQuery = Static<typeof UsualQuery>;

export const UsualBody = Type.Object(
  {
    week: UsualQuery.properties.week,
  },
  { additionalProperties: false },
);
export type UsualBody = Static<typeof UsualBody>;

export const UsualReason = StringEnum(['DESK_RESERVED', 'USER_OVERLAP', 'CLOSED', 'POLICY', 'NOT_ALLOWED'] as const, {
  description:
    'Why a day cannot be booked. DESK_RESERVED: the desk is taken then. USER_OVERLAP: you already have a reservation then. CLOSED: the office is closed that day. ' +
    'POLICY: a booking policy refuses it. NOT_ALLOWED: a booking rule refuses it (in the past, too far ahead, a desk no longer bookable, the limit of reservations); `code` names it.',
});

const usualDay = {
  date: LocalDate("The day to book, in the office's time zone."),
  weekday: StringEnum(['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'] as const, { description: 'Its weekday.' }),
  deskId: Uuid(),
  deskName: Type.String(),
  roomName: Type.String(),
  departmentId: Uuid(),
  startTime: Timestamp(),
  endTime: Timestamp(),
  fromReservationId: Uuid('The reservation of the pattern week this day repeats.'),
};

export const UsualPreview = Type.Object(
  {
    week: LocalDate('Monday of the week proposed.'),
    patternWeek: LocalDate('Monday of the week repeated (the week before).'),
    days: Type.Array(
      Type.Object({
        ...usualDay,
        conflict: Nullable(UsualReason),
        code: Type.Optional(Type.String({ description: 'The problem code a booking would answer (docs/errors.md).' })),
        message: Type.Optional(Type.String({ description: 'Why, in a sentence.' })),
      }),
      { description: 'The proposed reservations in time order; conflict null: free and bookable now.' },
    ),
  },
  { title: 'UsualPreview' },
);
export type UsualPreviewDto = Static<typeof UsualPreview>;

export const UsualBooked = Type.Object(
  {
    week: LocalDate('Monday of the week booked.'),
    patternWeek: LocalDate('Monday of the week repeated.'),
    booked: Type.Array(
      Type.Object({
        ...usualDay,
        reservationId: Uuid('The new reservation (an ordinary Reservation).'),
        awaitingApproval: Type.Boolean({ description: 'It holds its slot pending an approver’s decision (docs/policies.md#approvals).' }),
      }),
      { description: 'The days booked, in time order.' },
    ),
    refused: Type.Array(
      Type.Object({
        ...usualDay,
        reason: UsualReason,
        code: Type.String({ description: 'The problem code the booking answered (docs/errors.md).' }),
        message: Type.String({ description: 'Why, in a sentence.' }),
      }),
      { description: 'The days not booked, in time order, each with why.' },
    ),
  },
  { title: 'UsualBooked' },
);
export type UsualBookedDto = Static<typeof UsualBooked>;

export const NearTeamQuery = Type.Object({
  startTime: InstantInput('Start of the window the desks must be free in.'),
  endTime: InstantInput('End of the window (exclusive).'),
  departmentId: Type.Optional(Uuid('Only desks of this department (office); default every office.')),
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: NEAR_TEAM_LIMIT_MAX,
      description: `Most desks answered (default ${NEAR_TEAM_LIMIT_DEFAULT}, at most ${NEAR_TEAM_LIMIT_MAX}).`,
    }),
  ),
});
export type NearTeamQuery = Static<typeof NearTeamQuery>;

export const Nearness = StringEnum(['ROOM', 'AREA', 'DEPARTMENT'] as const, {
  description:
    "ROOM: people of your teams have a booking in the desk's room that day. AREA: the desk lies in an area of one of your teams (docs/policies.md#areas). DEPARTMENT: people of your teams are in the desk's office (floor) that day.",
});

export const NearTeam = Type.Object(
  {
    teams: Type.Integer({ description: 'How many teams the caller is in (0: nothing can be near).' }),
    desks: Type.Array(
      Type.Object({
        deskId: Uuid(),
        deskName: Type.String(),
        roomId: Uuid(),
        roomName: Type.String(),
        departmentId: Uuid(),
        nearness: Nearness,
        teammates: Type.Integer({
          description: 'How many people of your teams are booked there (room, area or office, as nearness says) that day; never who.',
        }),
        reason: Type.String({ description: 'Why, in a sentence: "3 of Sales are in Atlas".' }),
      }),
      {
        description: 'Free desks near your teams, nearest first (ROOM, AREA, DEPARTMENT; more teammates first; then by name). Desks near no one are left out.',
      },
    ),
  },
  { title: 'NearTeam' },
);
export type NearTeamDto = Static<typeof NearTeam>;
