/**
 * The one error catalogue. Each code is stable (clients may branch on it) and fixes the HTTP
 * status and title; the handler in plugins/problem.ts turns any AppError into RFC 9457
 * problem+json. docs/errors.md lists the catalogue.
 */
export const catalogue = {
  VALIDATION_FAILED: { status: 400, title: 'The request is not valid' },
  MALFORMED_JSON: { status: 400, title: 'The request body is not valid JSON' },
  INVALID_ENCODING: { status: 400, title: 'Text in the request is not valid UTF-8' },
  INVALID_CURRENT_PASSWORD: { status: 400, title: 'The current password is wrong' },
  PASSWORD_UNCHANGED: { status: 400, title: 'The new password must differ from the current one' },
  IMPORT_INVALID: { status: 400, title: 'Rows of the import are not valid; nothing was added' },
  RESERVATION_NOT_ALLOWED: { status: 400, title: 'The reservation breaks a booking rule' },
  INVALID_RESET_TOKEN: { status: 400, title: 'The link is invalid, used or expired; ask for a new one' },
  OIDC_STATE_INVALID: { status: 400, title: 'This single sign-on attempt is unknown, used, expired or from another browser; start again' },
  OIDC_CODE_INVALID: { status: 400, title: 'The sign-in code is invalid, used or expired; sign in again' },
  OIDC_PROVIDER_ERROR: { status: 400, title: 'The identity provider refused the sign-in' },
  UNAUTHENTICATED: { status: 401, title: 'Authentication is required' },
  INVALID_TOKEN: { status: 401, title: 'The access token is invalid, expired or revoked' },
  INVALID_CREDENTIALS: { status: 401, title: 'Wrong e-mail or password' },
  INVALID_REFRESH_TOKEN: { status: 401, title: 'The refresh token is invalid, expired or revoked' },
  REFRESH_TOKEN_REUSED: { status: 401, title: 'The refresh token was already used; the session is revoked' },
  OIDC_TOKEN_INVALID: { status: 401, title: "The identity provider's answer failed verification" },
  OIDC_NO_ACCOUNT: { status: 403, title: 'No account here may sign in with this identity; ask an admin to link it' },
  OIDC_ACCOUNT_DISABLED: { status: 403, title: 'This account is disabled' },
  FORBIDDEN: { status: 403, title: 'You may not do this' },
  AGGREGATES_ONLY: { status: 403, title: "The organisation shows attendance as aggregates only (works-council mode): no one's per-person figures" },
  CSRF_HEADER_REQUIRED: { status: 403, title: 'Send the X-Requested-With header: this operation uses the browser session cookie' },
  POLICY_VIOLATION: { status: 403, title: 'A booking policy does not allow this booking for its owner' },
  PASSWORD_CHANGE_REQUIRED: { status: 403, title: 'Choose a new password first (PUT /api/self/password): this account still has a generated one' },
  NOT_FOUND: { status: 404, title: 'Not found' },
  OIDC_DISABLED: { status: 404, title: 'Single sign-on is not configured' },
  ROUTE_NOT_FOUND: { status: 404, title: 'No such operation' },
  OIDC_ALREADY_LINKED: { status: 409, title: 'This identity or this account is already linked' },
  EMAIL_TAKEN: { status: 409, title: 'The e-mail address is already in use' },
  NAME_TAKEN: { status: 409, title: 'Another room of this department, or desk of this room, has this name (ignoring case)' },
  INSTALL_NOT_EMPTY: { status: 409, title: 'Sample data is loaded only into an install without offices' },
  LAST_ADMIN: { status: 409, title: 'The last enabled admin cannot be removed, disabled, demoted or made a directory user' },
  DIRECTORY_USER: { status: 409, title: 'The password of a directory user is managed by the directory' },
  RESERVATION_CONFLICT: { status: 409, title: 'The time range collides with another reservation' },
  SERIES_CONFLICT: { status: 409, title: 'Occurrences of the series collide with other reservations' },
  RESERVATION_LIMIT_REACHED: { status: 409, title: 'You hold as many reservations as you may; cancel one first' },
  CLOSED_DAY: { status: 409, title: 'The office is closed on that day' },
  DESK_NOT_BOOKABLE: { status: 409, title: 'This desk cannot be booked' },
  HAS_DEPENDENTS: { status: 409, title: 'It still has children or future reservations; remove them first or delete with ?force=true' },
  CHECK_IN_NOT_OPEN: { status: 409, title: 'Check-in is not open for this reservation (too early, past its deadline, released or ended)' },
  WALK_IN_NOT_POSSIBLE: { status: 409, title: 'The desk cannot be booked on the spot now' },
  APPROVAL_PENDING: { status: 409, title: 'The reservation awaits approval' },
  APPROVAL_DECIDED: { status: 409, title: 'The request was already approved, rejected or expired' },
  CONFLICT: { status: 409, title: 'The request conflicts with the current state' },
  OUTBOX_NOT_DEAD: { status: 409, title: 'Only a dead message can be retried' },
  POLICY_LIMIT_REACHED: { status: 409, title: 'A booking policy limit is used up for its owner' },
  POLICY_RULE_CONFLICT: { status: 409, title: 'Another rule already sets this limit for the same place and people' },
  TOO_MANY_SERIES: { status: 409, title: 'You have as many recurring series as one person may; cancel one first' },
  TEAM_NAME_TAKEN: { status: 409, title: 'Another team has this name (ignoring case)' },
  TEAM_GROUP_TAKEN: { status: 409, title: 'Another team already names this directory group or single sign-on group' },
  TOO_MANY_TEAMS: { status: 409, title: 'There are as many teams as the service keeps; remove one first' },
  TOO_MANY_DELEGATES: { status: 409, title: 'You have as many delegates as one person may; remove one first' },
  TOO_MANY_FAVOURITES: { status: 409, title: 'You have starred as many desks as one person may; unstar one first' },
  TOO_MANY_PUSH_SUBSCRIPTIONS: { status: 409, title: 'You have push turned on in as many browsers as one person may; turn it off in one first' },
  TOO_MANY_STARRED: { status: 409, title: 'You have starred as many people as one person may; unstar one first' },
  TOO_MANY_DISPLAYS: { status: 409, title: 'This office has as many lobby displays as it may; revoke one first' },
  PLAN_CHANGED: { status: 412, title: 'The floor plan changed since you read it; read it again (its new ETag) and redo your change' },
  PRECONDITION_REQUIRED: { status: 428, title: 'Send If-Match with the ETag you read (or * to overwrite whatever is there)' },
  REQUEST_TIMEOUT: { status: 408, title: 'The request did not arrive in time' },
  PAYLOAD_TOO_LARGE: { status: 413, title: 'The request body is too large' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, title: 'Unsupported media type' },
  TOO_MANY_REQUESTS: { status: 429, title: 'Too many requests' },
  TOO_MANY_WRITES: { status: 429, title: 'Too many reservation changes in a short time; retry after the time given' },
  HEADERS_TOO_LARGE: { status: 431, title: 'The request headers are too large' },
  TOO_MANY_CONCURRENT_REQUESTS: {
    status: 429,
    title: 'Too many of your searches, statistics or image uploads are running at once; retry when one has finished',
  },
  INTERNAL: { status: 500, title: 'Internal error' },
  SERVICE_UNAVAILABLE: { status: 503, title: 'A service this request depends on does not answer' },
  SERVER_BUSY: { status: 503, title: 'The server is busy with work of this kind; retry shortly' },
  WEB_APP_NOT_BUILT: { status: 503, title: 'The web app is not built; run npm run build:web' },
} as const satisfies Record<string, { status: number; title: string }>;

export type ErrorCode = keyof typeof catalogue;

export interface FieldError {
  field: string;
  message: string;
}

/** Why an occurrence of a series cannot be booked: the desk is taken, its owner already has a reservation then, or a booking policy refuses it. */
export type OccurrenceConflictReason = 'DESK_RESERVED' | 'USER_OVERLAP' | 'POLICY';

/** A closed day (docs/policies.md#closures-and-holidays): the closure, the local date and its reason. */
export interface ClosedDay {
  id: string;
  date: string;
  reason: string;
}

export interface OccurrenceConflict {
  /** The occurrence's local date in the series' time zone (YYYY-MM-DD). */
  date: string;
  startTime: string;
  endTime: string;
  /** CLOSED: the office is closed that day (a series skips it always; `closure` says which and why). POLICY: a booking policy refuses it. */
  reason: OccurrenceConflictReason | 'CLOSED';
  closure?: ClosedDay;
  /** POLICY: the rule (or area) that refuses it, and why in words (docs/policies.md). */
  rule?: PolicyRuleRef;
  message?: string;
}

/** Why a booking collided (RESERVATION_CONFLICT): the desk is taken then, or its owner already holds another reservation then. */
export type ConflictReason = Exclude<OccurrenceConflictReason, 'POLICY'>;

/** The booking policy rule behind a refusal (POLICY_VIOLATION, POLICY_LIMIT_REACHED): its id and limit kind (AREA_RESERVED: an area's id). */
export interface PolicyRuleRef {
  id: string;
  kind: string;
  name: string;
}

/**
 * The booking rule a USER's reservation breaks (RESERVATION_NOT_ALLOWED), for clients to word
 * (docs/errors.md): its name, the limit in seconds where there is one, and the occurrence's date
 * when it was one of a series.
 */
export interface BrokenRule {
  name: 'END_IN_PAST' | 'START_IN_PAST' | 'TOO_LONG' | 'TOO_SHORT' | 'TOO_FAR_AHEAD';
  seconds?: number;
  date?: string;
}

/** One refused row of an import (IMPORT_INVALID): its line (CSV) or position (1-based), the column, and why. */
export interface ImportRowError {
  line: number;
  column: string;
  reason:
    'MISSING' | 'TOO_LONG' | 'UNKNOWN_TYPE' | 'REPEATED_IN_IMPORT' | 'NAME_TAKEN' | 'UNKNOWN_COLUMN' | 'TOO_MANY_COLUMNS' | 'TOO_MANY_ROWS' | 'UNCLOSED_QUOTE';
  message: string;
}

export interface ProblemExtras {
  errors?: FieldError[];
  conflicts?: { startTime: string; endTime: string }[];
  /** RESERVATION_CONFLICT: whose reservation is in the way. */
  reason?: ConflictReason;
  /** RESERVATION_NOT_ALLOWED: which rule, with its figure; POLICY_*: the policy rule's id and kind. */
  rule?: BrokenRule | PolicyRuleRef;
  /** POLICY_LIMIT_REACHED and some POLICY_VIOLATIONs: the period the limit counts in (instants, UTC). */
  window?: { from: string; to: string; period?: 'DAY' | 'WEEK' | 'MONTH' };
  /** IMPORT_INVALID: every row refused. */
  rows?: ImportRowError[];
  /** The occurrences of a recurring series that could not be booked, and why (SERIES_CONFLICT). */
  occurrences?: OccurrenceConflict[];
  /** What keeps a department, room or desk from being deleted (HAS_DEPENDENTS). */
  dependents?: { rooms: number; desks: number; equipment: number; futureReservations: number };
  /** OIDC_NO_ACCOUNT: the provider's `sub` of the identity no account is linked to (an admin can link it). */
  subject?: string;
  /** Seconds; also sent as the Retry-After header. */
  retryAfter?: number;
  /** RESERVATION_LIMIT_REACHED: which setting, its value, what the person holds and asked for; POLICY_*: the rule's figure (max) and what is used (current). */
  limit?: ProblemLimit;
  /** CLOSED_DAY: the closure in the way: its id, the closed local date and its reason. */
  closure?: ClosedDay;
  /** POLICY_*: what is used of `limit.max` (the same as limit.current), named as clients look for it. */
  used?: number;
}

export interface ProblemLimit {
  name: string;
  max: number;
  current: number;
  requested: number;
}

export class AppError extends Error {
  override name = 'AppError';
  readonly status: number;
  readonly title: string;

  constructor(
    readonly code: ErrorCode,
    detail?: string,
    readonly extras: ProblemExtras = {},
  ) {
    super(detail ?? catalogue[code].title);
    this.status = catalogue[code].status;
    this.title = catalogue[code].title;
  }
}

export const problemType = (code: ErrorCode): string => `urn:deskbook:problem:${code.toLowerCase().replaceAll('_', '-')}`;

export const notFound = (what: string, id?: string): AppError => new AppError('NOT_FOUND', id === undefined ? `${what} not found` : `${what} ${id} not found`);

export const forbidden = (detail: string): AppError => new AppError('FORBIDDEN', detail);

export const invalid = (field: string, message: string): AppError =>
  new AppError('VALIDATION_FAILED', `${field}: ${message}`, { errors: [{ field, message }] });

/** CLOSED_DAY for a booking that touches a closed day (docs/policies.md#closures-and-holidays). */
export const closedDayProblem = (closure: { closureId: string; date: string; reason: string }): AppError =>
  new AppError('CLOSED_DAY', `The office is closed on ${closure.date}: ${closure.reason}`, {
    closure: { id: closure.closureId, date: closure.date, reason: closure.reason },
  });
