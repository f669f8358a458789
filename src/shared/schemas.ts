import { LANGUAGES } from './languages.js';
import { Type, type TSchema } from '@sinclair/typebox';

// The field schemas live in fields.ts, which the web app's forms share; re-exported for the routes.
export { Email, LONG_TEXT_MAX, Name, Password, SHORT_TEXT_MAX, StringEnum } from './fields.js';

/** Shared building blocks of the route schemas (and so of the OpenAPI document). */

export const Uuid = (description?: string) => Type.String({ format: 'uuid', ...(description ? { description } : {}) });

/** An instant given by a client: ISO 8601 with an offset, answered in UTC (docs/behaviour.md#reservations). */
export const InstantInput = (description: string) =>
  Type.String({ format: 'date-time', maxLength: 40, description: `${description} ISO 8601 with an offset (Z or ±hh:mm); answered in UTC.` });

export const Timestamp = (description?: string) => Type.String({ format: 'date-time', description: description ?? 'ISO 8601 date-time in UTC (ends in Z).' });

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const IdParams = Type.Object({ id: Uuid() });

/** The 204 answer of deletes and of changes that have nothing to return. */
export const NoContent = { type: 'null', description: 'Done.' } as const;

export const FieldErrorSchema = Type.Object({ field: Type.String(), message: Type.String() });

/** A closed day (docs/policies.md#closures-and-holidays): the closure, the local date, the reason. */
const ClosedDaySchema = Type.Object(
  {
    id: Type.String({ format: 'uuid', description: 'The closure.' }),
    date: Type.String({ format: 'date', description: "The closed local date, in the office's time zone." }),
    reason: Type.String({ description: 'Why the office is closed.' }),
  },
  { description: 'The closure of a closed day.' },
);

export const Problem = Type.Object(
  {
    type: Type.String({ description: 'URI naming the problem type; its last part is the stable code in lower case.' }),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.String(),
    instance: Type.String({ description: 'The request path.' }),
    code: Type.String({ description: 'Stable error code (see docs/errors.md).' }),
    requestId: Type.String({ description: 'Request id, also in the x-request-id header and the server log.' }),
    errors: Type.Optional(Type.Array(FieldErrorSchema, { description: 'Validation failures, one per field.' })),
    conflicts: Type.Optional(
      Type.Array(Type.Object({ startTime: Timestamp(), endTime: Timestamp() }), { description: 'Time ranges that collided (reservation conflicts).' }),
    ),
    reason: Type.Optional(
      Type.String({
        description: 'RESERVATION_CONFLICT: DESK_RESERVED (the desk is taken then) or USER_OVERLAP (the owner already has a reservation then).',
      }),
    ),
    rule: Type.Optional(
      Type.Object(
        {
          name: Type.String({
            description:
              'RESERVATION_NOT_ALLOWED: END_IN_PAST, START_IN_PAST, TOO_LONG, TOO_SHORT or TOO_FAR_AHEAD. POLICY_*: the name an admin gave the rule (may be empty) or the area.',
          }),
          id: Type.Optional(Type.String({ format: 'uuid', description: 'POLICY_*: the policy rule (or, for AREA_RESERVED, the area).' })),
          kind: Type.Optional(Type.String({ description: "POLICY_*: the rule's limit kind (docs/policies.md#rules), or AREA_RESERVED." })),
          seconds: Type.Optional(Type.Integer({ minimum: 0, description: 'The limit of TOO_LONG, TOO_SHORT and TOO_FAR_AHEAD, in seconds.' })),
          date: Type.Optional(Type.String({ format: 'date', description: 'The local date of the occurrence of a series that breaks it.' })),
        },
        {
          description:
            'The booking rule broken (RESERVATION_NOT_ALLOWED), or the policy rule that refused the booking (POLICY_VIOLATION, POLICY_LIMIT_REACHED).',
        },
      ),
    ),
    rows: Type.Optional(
      Type.Array(
        Type.Object({
          line: Type.Integer({ minimum: 1, description: 'The line of the CSV file (the header is line 1), or the 1-based position in a JSON list.' }),
          column: Type.String({ description: 'The column (member) refused.' }),
          reason: Type.String({
            description: 'MISSING, TOO_LONG, UNKNOWN_TYPE, REPEATED_IN_IMPORT, NAME_TAKEN, UNKNOWN_COLUMN, TOO_MANY_COLUMNS, TOO_MANY_ROWS or UNCLOSED_QUOTE.',
          }),
          message: Type.String(),
        }),
        { description: 'Every row an import refused (IMPORT_INVALID); nothing was added.' },
      ),
    ),
    occurrences: Type.Optional(
      Type.Array(
        Type.Object({
          date: Type.String({ format: 'date', description: "The occurrence's local date in the series' time zone." }),
          startTime: Timestamp(),
          endTime: Timestamp(),
          reason: Type.String({
            description:
              'DESK_RESERVED (the desk is taken then), USER_OVERLAP (the owner already has a reservation then) CLOSED (the office is closed that day) or POLICY (a booking policy refuses it).',
          }),
          closure: Type.Optional(ClosedDaySchema),
          rule: Type.Optional(
            Type.Object(
              { id: Type.String({ format: 'uuid' }), kind: Type.String(), name: Type.String() },
              { description: 'POLICY: the rule or area that refuses it.' },
            ),
          ),
          message: Type.Optional(Type.String({ description: 'POLICY: why, in a sentence.' })),
        }),
        { description: 'Every occurrence of a recurring series that collided (SERIES_CONFLICT).' },
      ),
    ),
    dependents: Type.Optional(
      Type.Object(
        {
          rooms: Type.Integer({ minimum: 0 }),
          desks: Type.Integer({ minimum: 0 }),
          equipment: Type.Integer({ minimum: 0 }),
          futureReservations: Type.Integer({ minimum: 0, description: 'Reservations of desks beneath that have not ended.' }),
        },
        { description: 'What is still beneath the department, room or desk that was not deleted (HAS_DEPENDENTS).' },
      ),
    ),
    limit: Type.Optional(
      Type.Object(
        {
          name: Type.String({ description: 'The setting that sets the limit, e.g. RESERVATION_MAX_FUTURE, or the policy limit kind (MAX_BOOKINGS …).' }),
          max: Type.Integer({ minimum: 0, description: 'Its value.' }),
          current: Type.Integer({ minimum: 0, description: 'What the person holds now (policies: what is used in the window).' }),
          requested: Type.Integer({ minimum: 0, description: 'What the request would have added.' }),
        },
        { description: 'The limit a request would have gone past (RESERVATION_LIMIT_REACHED, POLICY_LIMIT_REACHED, some POLICY_VIOLATIONs).' },
      ),
    ),
    used: Type.Optional(Type.Integer({ minimum: 0, description: 'POLICY_*: what is used of the limit (limit.current).' })),
    window: Type.Optional(
      Type.Object(
        {
          from: Timestamp(),
          to: Timestamp(),
          period: Type.Optional(Type.String({ description: 'DAY, WEEK (ISO, from Monday) or MONTH, in the office’s time zone.' })),
        },
        { description: 'POLICY_LIMIT_REACHED: the period the limit counts in, [from, to).' },
      ),
    ),
    closure: Type.Optional({ ...ClosedDaySchema, description: 'The closure a booking ran into (CLOSED_DAY): its id, the closed local date and the reason.' }),
    subject: Type.Optional(
      Type.String({ description: "The identity provider's `sub` that no account here is linked to (OIDC_NO_ACCOUNT): an admin can link it to an account." }),
    ),
  },
  { $id: 'Problem', title: 'Problem', description: 'RFC 9457 problem details (application/problem+json).' },
);

/** Registered once with app.addSchema (plugins/problem.ts); routes refer to it, and OpenAPI lists it once. */
const problemResponse = (description: string) => ({ description, content: { 'application/problem+json': { schema: { $ref: 'Problem#' } } } });

/** Error responses every route may give, keyed by status, for the route schemas. */
export const problemResponses = (...statuses: (400 | 401 | 403 | 404 | 409 | 412 | 413 | 415 | 428 | 429 | 503)[]) => {
  const descriptions: Record<number, string> = {
    400: 'Invalid input (problem+json, with `errors`).',
    401: 'Missing, invalid, expired or revoked credentials.',
    403: 'Not allowed for this role or owner (`FORBIDDEN`), or the caller must first replace a generated password with PUT /api/self/password (`PASSWORD_CHANGE_REQUIRED`).',
    404: 'Not found.',
    409: 'Conflicts with the current state.',
    412: 'A precondition (If-Match) does not hold: the resource changed.',
    413: 'Body too large.',
    415: 'Unsupported media type.',
    428: 'A precondition header (If-Match) is required.',
    429: 'Too many requests; see Retry-After.',
    503: 'The database or another dependency does not answer.',
  };
  const result: Record<number, object> = { 500: problemResponse('Unexpected error (details only in the server log).') };
  for (const status of new Set([400, 401, 503, ...statuses])) result[status] = problemResponse(descriptions[status]!);
  return result;
};

/** A language Deskbook ships (docs/i18n.md): en, de or fr. */
export const LanguageCode = (description = 'A language Deskbook ships: en (English), de (German), fr (French).') =>
  Type.Union(
    LANGUAGES.map((code) => Type.Literal(code)),
    { description },
  );
