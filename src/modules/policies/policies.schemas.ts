import { Type, type Static } from '@sinclair/typebox';
import { InstantInput, Nullable, StringEnum, Timestamp, Uuid } from '../../shared/schemas.js';

/** The API's shapes of docs/policies.md: areas, rules, the preview of a booking, the allowance. */

export const WEEKDAY_CODES = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'] as const;
const Weekdays = (description: string) => Type.Array(StringEnum(WEEKDAY_CODES), { maxItems: 7, uniqueItems: true, description });

const AreaFields = {
  name: Type.String({ minLength: 1, maxLength: 100, pattern: '\\S', description: 'Unique name (ignoring case), e.g. "Sales floor".' }),
  kind: StringEnum(['DEPARTMENT', 'ROOM', 'DESKS'] as const, { description: 'DEPARTMENT (a whole office), ROOM, or DESKS (a set of desks: a neighbourhood).' }),
  departmentId: Type.Optional(Nullable(Uuid('The department (kind DEPARTMENT).'))),
  roomId: Type.Optional(Nullable(Uuid('The room (kind ROOM).'))),
  deskIds: Type.Optional(Type.Array(Uuid(), { maxItems: 200, uniqueItems: true, description: 'The desks (kind DESKS), 1 to 200.' })),
  teamIds: Type.Array(Uuid(), { minItems: 1, maxItems: 20, uniqueItems: true, description: 'The teams the area is reserved for.' }),
  weekdays: Type.Optional(Weekdays('The weekdays (in the office’s time zone) on which the area is its teams’; none or empty: every day.')),
  exclusive: Type.Optional(
    Type.Boolean({
      description: 'true (default): people in none of its teams may not book there on those days. false: the teams sit there, others may still book.',
    }),
  ),
};

export const AreaBody = Type.Object(AreaFields, { additionalProperties: false, title: 'PolicyAreaInput' });
export type AreaBodyDto = Static<typeof AreaBody>;

export const Area = Type.Object(
  {
    id: Uuid(),
    name: Type.String(),
    kind: AreaFields.kind,
    departmentId: Nullable(Uuid()),
    roomId: Nullable(Uuid()),
    deskIds: Type.Array(Uuid()),
    teamIds: Type.Array(Uuid()),
    weekdays: Type.Array(StringEnum(WEEKDAY_CODES)),
    exclusive: Type.Boolean(),
    createdAt: Timestamp(),
    modifiedAt: Timestamp(),
  },
  { title: 'PolicyArea' },
);
export type AreaDto = Static<typeof Area>;
export const AreaList = Type.Object({ items: Type.Array(Area) }, { title: 'PolicyAreaList' });

const Scope = Type.Object(
  {
    kind: StringEnum(['EVERYWHERE', 'DEPARTMENT', 'ROOM', 'AREA', 'DESK_TYPE'] as const),
    departmentId: Type.Optional(Uuid('kind DEPARTMENT')),
    roomId: Type.Optional(Uuid('kind ROOM')),
    areaId: Type.Optional(Uuid('kind AREA')),
    deskType: Type.Optional(StringEnum(['FLEX', 'FIXED'] as const, { description: 'kind DESK_TYPE' })),
  },
  { additionalProperties: false, description: 'Where the rule holds.' },
);

const Who = Type.Object(
  {
    kind: StringEnum(['EVERYONE', 'TEAM', 'ROLE'] as const),
    teamId: Type.Optional(Uuid('kind TEAM: the members of this team.')),
    role: Type.Optional(
      StringEnum(['USER', 'ADMIN', 'TEAM_MANAGER'] as const, { description: 'kind ROLE: USER, ADMIN, or TEAM_MANAGER (a manager of any team).' }),
    ),
  },
  { additionalProperties: false, description: 'Whom the rule binds.' },
);

const LimitKind = StringEnum(
  [
    'BOOKING_WINDOW',
    'MIN_DURATION',
    'MAX_DURATION',
    'GRANULARITY',
    'WEEKDAYS_HOURS',
    'MAX_BOOKINGS',
    'MAX_HOURS',
    'MAX_CONCURRENT',
    'CAPACITY',
    'CANCEL_LEAD',
    'OWN_AREAS_ONLY',
  ] as const,
  { description: 'The kind of limit (docs/policies.md#rules); each takes the members it names.' },
);

const LimitSchema = Type.Object(
  {
    kind: LimitKind,
    days: Type.Optional(Type.Integer({ description: 'BOOKING_WINDOW: days ahead, 1–3650.' })),
    minutes: Type.Optional(Type.Integer({ description: 'MIN_DURATION, MAX_DURATION (1–525600), CANCEL_LEAD (1–43200).' })),
    unit: Type.Optional(StringEnum(['DAY', 'HOUR'] as const, { description: 'GRANULARITY: whole local days, or whole hours.' })),
    weekdays: Type.Optional(Weekdays('WEEKDAYS_HOURS: the weekdays allowed (at least one).')),
    from: Type.Optional(Type.String({ maxLength: 5, description: 'WEEKDAYS_HOURS: earliest local start, HH:MM.' })),
    to: Type.Optional(Type.String({ maxLength: 5, description: 'WEEKDAYS_HOURS: latest local end, HH:MM (24:00 allowed).' })),
    count: Type.Optional(Type.Integer({ description: 'MAX_BOOKINGS, MAX_CONCURRENT (1–1000); CAPACITY: desks (0–10000).' })),
    hours: Type.Optional(Type.Number({ description: 'MAX_HOURS: booked hours, more than 0 and at most 10000.' })),
    per: Type.Optional(StringEnum(['DAY', 'WEEK', 'MONTH'] as const, { description: 'MAX_BOOKINGS, MAX_HOURS: the local period.' })),
    percent: Type.Optional(Type.Integer({ description: 'CAPACITY: percent of the desks of the scope, 0–100 (instead of count).' })),
  },
  { additionalProperties: false },
);

const RuleFields = {
  name: Type.Optional(Type.String({ maxLength: 100, description: 'A label for admins (shown in refusals).' })),
  scope: Scope,
  who: Who,
  limit: LimitSchema,
  appliesToAdmins: Type.Optional(Type.Boolean({ description: 'Admins are bound only by rules that say so (default false).' })),
};

export const RuleBody = Type.Object(RuleFields, { additionalProperties: false, title: 'PolicyRuleInput' });
export type RuleBodyDto = Static<typeof RuleBody>;

export const Rule = Type.Object(
  {
    id: Uuid(),
    name: Type.String(),
    scope: Scope,
    who: Who,
    limit: LimitSchema,
    appliesToAdmins: Type.Boolean(),
    createdAt: Timestamp(),
    modifiedAt: Timestamp(),
  },
  { title: 'PolicyRule' },
);
export type RuleDto = Static<typeof Rule>;
export const RuleList = Type.Object({ items: Type.Array(Rule) }, { title: 'PolicyRuleList' });

const RuleRef = Type.Object({ id: Uuid(), kind: Type.String(), name: Type.String() });
const Figures = Type.Object({ name: Type.String(), max: Type.Integer(), current: Type.Integer(), requested: Type.Integer() });
const Window = Type.Object({ from: Timestamp(), to: Timestamp(), period: Type.Optional(Type.String()) });

export const PreviewBody = Type.Object(
  {
    userId: Uuid('The person the booking would be for.'),
    deskId: Uuid(),
    startTime: InstantInput('Start.'),
    endTime: InstantInput('End.'),
  },
  { additionalProperties: false, title: 'PolicyPreviewInput' },
);
export type PreviewBodyDto = Static<typeof PreviewBody>;

export const Preview = Type.Object(
  {
    allowed: Type.Boolean({ description: 'Whether the booking policies let this person book this (collisions with other reservations are not looked at).' }),
    refusal: Nullable(
      Type.Object({
        code: StringEnum(['POLICY_VIOLATION', 'POLICY_LIMIT_REACHED'] as const),
        message: Type.String(),
        rule: RuleRef,
        limit: Type.Optional(Figures),
        window: Type.Optional(Window),
      }),
    ),
    rules: Type.Array(RuleRef, { description: 'The rules in force for this person at this desk, one per limit (docs/policies.md#precedence).' }),
  },
  { title: 'PolicyPreview' },
);
export type PreviewDto = Static<typeof Preview>;

export const AllowanceQuery = Type.Object(
  {
    week: Type.Optional(Type.String({ pattern: '^\\d{4}-W\\d{2}$', maxLength: 8, description: 'ISO week, e.g. 2031-W02 (default: the current week).' })),
    departmentId: Type.Optional(Uuid('The office whose time zone sets the week’s bounds (default UTC).')),
  },
  { additionalProperties: false },
);
export type AllowanceQueryDto = Static<typeof AllowanceQuery>;

export const Allowance = Type.Object(
  {
    week: Type.String(),
    from: Timestamp('Monday 00:00 of the week, in the office’s zone.'),
    to: Timestamp(),
    limits: Type.Array(
      Type.Object({
        rule: RuleRef,
        scope: Scope,
        limit: Type.Number({ description: 'The figure: bookings, hours or concurrent bookings.' }),
        used: Type.Number(),
        remaining: Type.Number(),
        window: Window,
      }),
      { description: 'Each counted limit that binds the caller (MAX_BOOKINGS, MAX_HOURS per period; MAX_CONCURRENT now): how much is left.' },
    ),
    closedAreas: Type.Array(
      Type.Object({
        id: Uuid(),
        name: Type.String(),
        teams: Type.Array(Type.String()),
        weekdays: Type.Array(StringEnum(WEEKDAY_CODES)),
        kind: AreaFields.kind,
        departmentId: Nullable(Uuid()),
        roomId: Nullable(Uuid()),
        deskIds: Type.Array(Uuid()),
      }),
      { description: 'Areas reserved for teams the caller is in none of: desks there are not bookable for them on those weekdays.' },
    ),
  },
  { title: 'Allowance' },
);
export type AllowanceDto = Static<typeof Allowance>;
