import { Type, type Static } from '@sinclair/typebox';
import { Nullable, Timestamp, Uuid } from '../../shared/schemas.js';

/** Most people one person may star (docs/people.md#the-week-view). */
export const STARRED_PER_PERSON = 50;
/** Most bookings one who's-in answer lists (docs/people.md#who-is-in): beyond it `truncated` is true. */
export const PEOPLE_IN_MAX = 2000;
/** The longest window of the desks' occupants. */
export const OCCUPANTS_MAX_WINDOW_HOURS = 24;
/** Most bookings one week answer lists. */
export const PEOPLE_WEEK_MAX = 2000;

export const PersonPrivacy = Type.Object(
  {
    hideBookings: Type.Boolean({
      description:
        "Hide my bookings from colleagues: I am left out of colleagues' who's-in lists and week views (counted only as booked); admins still see me (docs/people.md#a-persons-switches). Default false.",
    }),
    bookAnonymously: Type.Boolean({
      description:
        'Book anonymously: my desk shows only "booked" on the floor plan and the lobby display, and where I sit is left out of who\'s-in lists; admins still see it. Default false.',
    }),
  },
  { title: 'PersonPrivacy' },
);
export type PersonPrivacyDto = Static<typeof PersonPrivacy>;
export const PutPersonPrivacyBody = Type.Object(
  { hideBookings: Type.Optional(Type.Boolean()), bookAnonymously: Type.Optional(Type.Boolean()) },
  { additionalProperties: false },
);
export type PutPersonPrivacyBody = Static<typeof PutPersonPrivacyBody>;

export const StarredPerson = Type.Object(
  { userId: Uuid(), firstName: Type.String(), lastName: Type.String(), createdAt: Timestamp('When the caller starred them.') },
  { title: 'StarredPerson' },
);
export type StarredPersonDto = Static<typeof StarredPerson>;
export const StarredPeople = Type.Array(StarredPerson, { maxItems: STARRED_PER_PERSON });
export const UserIdParams = Type.Object({ userId: Uuid() });

const Team = Type.Object({ id: Uuid(), name: Type.String() }, { title: 'PeopleTeam' });

export const PersonIn = Type.Object(
  {
    userId: Uuid(),
    firstName: Type.String(),
    lastName: Type.String(),
    deskId: Nullable(Uuid('null when the person books anonymously and the viewer is not an admin.')),
    deskName: Nullable(Type.String()),
    roomId: Nullable(Uuid()),
    roomName: Nullable(Type.String()),
    startTime: Timestamp(),
    endTime: Timestamp(),
    checkedIn: Nullable(
      Type.Boolean({
        description:
          'true: checked in; false: check-in is required and not done (or the booking was released); null: check-in is not required for it, or works-council mode hides it (docs/people.md#works-council-mode).',
      }),
    ),
  },
  { title: 'PersonIn' },
);
export type PersonInDto = Static<typeof PersonIn>;

export const PeopleInQuery = Type.Object({
  departmentId: Uuid('The office (a department: docs/people.md#who-is-in).'),
  date: Type.Optional(Type.String({ format: 'date', description: "Local date in the office's time zone (default: today there)." })),
});
export type PeopleInQuery = Static<typeof PeopleInQuery>;

export const PeopleIn = Type.Object(
  {
    departmentId: Uuid(),
    date: Type.String({ format: 'date' }),
    timeZone: Type.String(),
    booked: Type.Integer({ minimum: 0, description: 'Bookings of the office that day (every one, named or not).' }),
    checkedIn: Type.Integer({ minimum: 0, description: 'Of them, checked in (an aggregate: shown in works-council mode too).' }),
    anonymous: Type.Integer({ minimum: 0, description: 'Bookings whose owner the caller may not see: counted only, as "booked".' }),
    teams: Type.Array(Type.Object({ team: Team, people: Type.Array(PersonIn) }), {
      description: 'The people the caller may see, by team (by team name); a person of several teams is listed under each.',
    }),
    withoutTeam: Type.Array(PersonIn, { description: 'The people the caller may see who belong to no team.' }),
    truncated: Type.Boolean({ description: `More than ${PEOPLE_IN_MAX} bookings: only the first ${PEOPLE_IN_MAX} (by start) are counted and listed.` }),
  },
  { title: 'PeopleIn' },
);
export type PeopleInDto = Static<typeof PeopleIn>;

export const PeopleWeekQuery = Type.Object({
  from: Type.Optional(Type.String({ format: 'date', description: 'First of the 7 days (YYYY-MM-DD; default: today in UTC).' })),
});

export const PersonDay = Type.Object(
  {
    date: Type.String({ format: 'date', description: "The booking's local date in its office's time zone." }),
    departmentId: Uuid(),
    location: Type.String(),
    deskId: Nullable(Uuid('null when the person books anonymously and the viewer is not an admin.')),
    deskName: Nullable(Type.String()),
    startTime: Timestamp(),
    endTime: Timestamp(),
  },
  { title: 'PersonDay' },
);

export const PeopleWeek = Type.Object(
  {
    from: Type.String({ format: 'date' }),
    to: Type.String({ format: 'date', description: 'The last of the 7 days.' }),
    people: Type.Array(
      Type.Object({
        userId: Uuid(),
        firstName: Type.String(),
        lastName: Type.String(),
        me: Type.Boolean(),
        starred: Type.Boolean(),
        teamMate: Type.Boolean(),
        days: Type.Array(PersonDay),
      }),
      { description: 'The caller, their team mates and the people they starred whom they may see, by name; each with their bookings of the week.' },
    ),
    anonymous: Type.Array(Type.Object({ date: Type.String({ format: 'date' }), count: Type.Integer({ minimum: 0 }) }), {
      description: 'Per day, the bookings of team mates and starred people the caller may not see by name.',
    }),
    truncated: Type.Boolean(),
  },
  { title: 'PeopleWeek' },
);
export type PeopleWeekDto = Static<typeof PeopleWeek>;

export const DeskOccupantsQuery = Type.Object(
  {
    departmentId: Uuid(),
    from: Type.String({
      format: 'date-time',
      description: "Start of the window (inclusive), ISO 8601 with Z or an offset (as the floor plan's availability).",
    }),
    to: Type.String({ format: 'date-time', description: `End of the window (exclusive); after from, at most ${OCCUPANTS_MAX_WINDOW_HOURS} hours later.` }),
  },
  { additionalProperties: false },
);
export type DeskOccupantsQuery = Static<typeof DeskOccupantsQuery>;

export const DeskOccupants = Type.Object(
  {
    departmentId: Uuid(),
    desks: Type.Array(
      Type.Object({
        deskId: Uuid(),
        occupants: Type.Array(
          Type.Object({
            userId: Nullable(Uuid()),
            name: Nullable(Type.String({ description: 'First and last name; null: "booked" (the caller may not see whose).' })),
            startTime: Timestamp(),
            endTime: Timestamp(),
          }),
        ),
      }),
      { description: 'The booked desks of the office in the window, each with its bookings overlapping it.' },
    ),
  },
  { title: 'DeskOccupants' },
);
export type DeskOccupantsDto = Static<typeof DeskOccupants>;
