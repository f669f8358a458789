import { Type, type Static } from '@sinclair/typebox';
import { Page, pageQueryProperties } from '../../shared/paging.js';
import { LONG_TEXT_MAX, SHORT_TEXT_MAX, Uuid } from '../../shared/schemas.js';
import { Department, DeskType, EquipmentType, Room } from '../inventory/inventory.schemas.js';
import { Report } from '../reports/reports.schemas.js';

/** Search criteria (docs/behaviour.md#search) of rooms and departments; every member optional, unknown members refused. */

const Contains = (what: string, maxLength = SHORT_TEXT_MAX) =>
  Type.String({ maxLength, description: `Part of the ${what}, any case; \`%\`, \`_\` and \`\\\` are taken literally (at most ${maxLength} characters).` });

const INT4_MIN = -2_147_483_648;
const INT4_MAX = 2_147_483_647;

const Instant = (description: string) =>
  Type.String({
    format: 'date-time',
    description: `${description}: ISO 8601 date-time with \`Z\` or an offset such as \`+02:00\`, compared as an instant (to the millisecond).`,
  });

const windowProperties = {
  start: Instant('Start of the window (inclusive)'),
  end: Instant('End of the window (exclusive); must be after start'),
};

const DurationObject = Type.Object(
  {
    seconds: Type.Optional(Type.Integer({ description: 'Whole seconds (default 0).' })),
    nano: Type.Optional(Type.Integer({ minimum: 0, maximum: 999_999_999, description: 'Nanoseconds added to seconds (default 0).' })),
    zero: Type.Optional(Type.Boolean({ description: 'Accepted and ignored.' })),
    negative: Type.Optional(Type.Boolean({ description: 'Accepted and ignored.' })),
    positive: Type.Optional(Type.Boolean({ description: 'Accepted and ignored.' })),
    units: Type.Optional(
      Type.Array(
        Type.Object(
          { durationEstimated: Type.Optional(Type.Boolean()), timeBased: Type.Optional(Type.Boolean()), dateBased: Type.Optional(Type.Boolean()) },
          { additionalProperties: false },
        ),
        { maxItems: 20, description: 'Accepted and ignored.' },
      ),
    ),
  },
  { additionalProperties: false, description: 'A duration of seconds + nano / 10^9 seconds.' },
);

export const PartlyBetween = Type.Union(
  [
    DurationObject,
    Type.String({ maxLength: 100, description: 'ISO 8601 duration of days, hours, minutes and seconds: PT2H, PT90M, PT1H30M, PT0.5S, P1D, P1DT12H.' }),
    Type.Number({ description: 'Seconds.' }),
  ],
  {
    description:
      'With partlyReserved true: the shortest continuous free stretch inside the window that makes a partly reserved desk match. ' +
      'A duration object, an ISO 8601 duration string or a number of seconds; not negative. Without partlyReserved true it has no effect (but must still be valid).',
  },
);

export const SearchCriteria = Type.Object(
  {
    department: Type.Optional(
      Type.Object(
        {
          location: Type.Optional(Contains('location')),
          building: Type.Optional(Contains('building')),
          floor: Type.Optional(Type.Integer({ minimum: INT4_MIN, maximum: INT4_MAX, description: 'Exact floor.' })),
        },
        { additionalProperties: false },
      ),
    ),
    room: Type.Optional(
      Type.Object(
        {
          id: Type.Optional(Uuid('Exact room id.')),
          name: Type.Optional(Contains('room name')),
          available: Type.Optional(Type.Boolean({ description: 'Exact.' })),
        },
        { additionalProperties: false },
      ),
    ),
    desk: Type.Optional(
      Type.Object(
        {
          id: Type.Optional(Uuid('Exact desk id.')),
          name: Type.Optional(Contains('desk name')),
          type: Type.Optional({ ...DeskType, description: 'Exact desk type (FLEX or FIXED).' }),
        },
        { additionalProperties: false },
      ),
    ),
    equipment: Type.Optional(
      Type.Array(
        Type.Object(
          {
            type: Type.Optional({ ...EquipmentType, description: 'Exact equipment type.' }),
            name: Type.Optional(Contains('equipment name')),
          },
          { additionalProperties: false },
        ),
        {
          maxItems: 20,
          description:
            'The desk has ALL of these: each element is matched by one of its equipment items (type exact and name substring, whichever are given; an empty element: any item). An empty array is no criterion.',
        },
      ),
    ),
    reservation: Type.Optional(
      Type.Object(
        {
          full: Type.Optional(
            Type.Object(windowProperties, {
              additionalProperties: false,
              description: 'Desks whose reservations (one, or several back to back) cover the whole [start, end).',
            }),
          ),
          free: Type.Optional(
            Type.Object(
              {
                ...windowProperties,
                partlyBetween: Type.Optional(PartlyBetween),
                partlyReserved: Type.Optional(
                  Type.Boolean({
                    description:
                      'True: desks reserved for part of the window match too, if they have a continuous free stretch of at least partlyBetween inside it (any stretch without partlyBetween).',
                  }),
                ),
              },
              {
                additionalProperties: false,
                description: 'Desks with no reservation overlapping [start, end) (a reservation ending at start or beginning at end does not count).',
              },
            ),
          ),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false, title: 'SearchCriteria' },
);
export type SearchCriteria = Static<typeof SearchCriteria>;

export const ReportSearchCriteria = Type.Object(
  {
    title: Type.Optional(Contains('title')),
    description: Type.Optional(Contains('description', LONG_TEXT_MAX)),
    reportedBy: Type.Optional(Uuid('Exact id of the user who filed it.')),
    department: Type.Optional(Uuid('Exact department id.')),
    room: Type.Optional(Uuid('Exact room id.')),
    desk: Type.Optional(Uuid('Exact desk id.')),
    equipment: Type.Optional(Uuid('Exact equipment id.')),
  },
  { additionalProperties: false, title: 'ReportSearchCriteria' },
);
export type ReportSearchCriteria = Static<typeof ReportSearchCriteria>;

export const SearchPageQuery = Type.Object(pageQueryProperties);
export type SearchPageQuery = Static<typeof SearchPageQuery>;

export const RoomPage = Page(Room, 'PageOfRoom');
export const DepartmentPage = Page(Department, 'PageOfDepartment');
export const ReportPage = Page(Report, 'PageOfReport');
