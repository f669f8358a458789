import type { Dependents } from './published.js';
import { translate as t } from './translate.js';
import { formatDay, formatRange, formatWait } from './time.js';

/**
 * What the UI knows about a failed request: the service's problem+json members (all optional: a
 * proxy or a dropped connection answers something else) plus the HTTP status (0: no answer).
 * People see messages made from the code, never the raw body.
 */
export interface Problem {
  status: number;
  code?: string;
  title?: string;
  detail?: string;
  requestId?: string;
  errors?: { field: string; message: string }[];
  conflicts?: { startTime: string; endTime: string }[];
  /** What is in the way of a delete (HAS_DEPENDENTS). */
  dependents?: Dependents;
  /** The dates of a recurring booking that collided (SERIES_CONFLICT). */
  occurrences?: { date: string; startTime: string; endTime: string; reason: string }[];
  /** Seconds, from the Retry-After header. */
  retryAfter?: number;
  /** Whose reservation is in the way (RESERVATION_CONFLICT): DESK_RESERVED or USER_OVERLAP. */
  reason?: string;
  /** The booking rule broken (RESERVATION_NOT_ALLOWED), or the policy rule (POLICY_*: id and kind). */
  rule?: { name: string; seconds?: number; date?: string; id?: string; kind?: string };
  /** POLICY_LIMIT_REACHED: the period the limit counts in. */
  window?: { from: string; to: string; period?: string };
  /** Every refused row of an import (IMPORT_INVALID). */
  rows?: { line: number; column: string; reason: string; message: string }[];
  /** The closure a booking ran into (CLOSED_DAY). */
  closure?: { id: string; date: string; reason: string };
  /** The limit a request would have gone past (RESERVATION_LIMIT_REACHED). */
  limit?: { name: string; max: number; current: number; requested: number };
}

export class ApiError extends Error {
  override name = 'ApiError';
  constructor(readonly problem: Problem) {
    super(problem.detail ?? problem.title ?? `HTTP ${problem.status}`);
  }
}

/** The code of the 403 that asks the signed-in person to choose their own password first. */
export const PASSWORD_CHANGE_REQUIRED = 'PASSWORD_CHANGE_REQUIRED';

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
const count = (value: unknown) => (Number.isInteger(value) && (value as number) >= 0 ? (value as number) : undefined);

function dependentsOf(value: unknown): Dependents | undefined {
  if (!isRecord(value)) return undefined;
  const [rooms, desks, equipment, futureReservations] = [value.rooms, value.desks, value.equipment, value.futureReservations].map(count);
  if (rooms === undefined || desks === undefined || equipment === undefined || futureReservations === undefined) return undefined;
  return { rooms, desks, equipment, futureReservations };
}

/** A Problem from whatever a failed response carried; unknown shapes keep only the status. */
export function toProblem(status: number, body: unknown, retryAfterHeader?: string | null): Problem {
  const problem: Problem = { status };
  if (isRecord(body)) {
    problem.code = text(body.code);
    problem.title = text(body.title);
    problem.detail = text(body.detail);
    problem.requestId = text(body.requestId);
    if (Array.isArray(body.errors)) {
      problem.errors = body.errors
        .filter(isRecord)
        .map((item) => ({ field: text(item.field) ?? '', message: text(item.message) ?? t('problems:validation.invalid') }));
    }
    if (Array.isArray(body.conflicts)) {
      problem.conflicts = body.conflicts
        .filter(isRecord)
        .flatMap((item) =>
          typeof item.startTime === 'string' && typeof item.endTime === 'string' ? [{ startTime: item.startTime, endTime: item.endTime }] : [],
        );
    }
    problem.reason = text(body.reason);
    if (isRecord(body.rule) && typeof body.rule.name === 'string') {
      const seconds = count(body.rule.seconds);
      const date = text(body.rule.date);
      const [id, kind] = [text(body.rule.id), text(body.rule.kind)];
      problem.rule = {
        name: body.rule.name,
        ...(seconds !== undefined ? { seconds } : {}),
        ...(date !== undefined ? { date } : {}),
        ...(id !== undefined ? { id } : {}),
        ...(kind !== undefined ? { kind } : {}),
      };
    }
    if (isRecord(body.window) && typeof body.window.from === 'string' && typeof body.window.to === 'string') {
      const period = text(body.window.period);
      problem.window = { from: body.window.from, to: body.window.to, ...(period !== undefined ? { period } : {}) };
    }
    if (Array.isArray(body.rows)) {
      problem.rows = body.rows.filter(isRecord).flatMap((row) => {
        const line = count(row.line);
        return line === undefined ? [] : [{ line, column: text(row.column) ?? '', reason: text(row.reason) ?? '', message: text(row.message) ?? '' }];
      });
    }
    const dependents = dependentsOf(body.dependents);
    if (dependents) problem.dependents = dependents;
    if (isRecord(body.limit)) {
      const [max, current, requested] = [body.limit.max, body.limit.current, body.limit.requested].map(count);
      const name = text(body.limit.name);
      if (name !== undefined && max !== undefined && current !== undefined && requested !== undefined) problem.limit = { name, max, current, requested };
    }
  }
  const retryAfter = Number(retryAfterHeader);
  if (retryAfterHeader && Number.isFinite(retryAfter) && retryAfter > 0) problem.retryAfter = retryAfter;
  return problem;
}

/** The Problem of anything a request threw: our ApiError, or a network failure. */
export function problemOf(error: unknown): Problem {
  if (error instanceof ApiError) return error.problem;
  return { status: 0 };
}

/** The sentence for a failed query or mutation, if it failed. */
export const errorText = (error: unknown, subject?: string) => (error ? problemMessage(problemOf(error), subject) : undefined);

/**
 * Form field names (as the API reports them) in words people use: the keys of `problems:field.*`
 * (web/src/locales/<language>/problems.json; docs/i18n.md).
 */
const FIELD_LABELS = [
  'email',
  'password',
  'newPassword',
  'currentPassword',
  'firstName',
  'lastName',
  'location',
  'building',
  'floor',
  'name',
  'title',
  'description',
  'type',
  'startTime',
  'endTime',
  'deskId',
  'count',
  'until',
  'weekdays',
  'timeZone',
  'reason',
  'dates',
  'rrule',
  'startDate',
  'departmentId',
  'roomId',
  'areaId',
  'deskIds',
  'teamIds',
  'teamId',
  'language',
];

export function fieldLabel(field: string): string {
  const last = field.split('.').pop() ?? field;
  return FIELD_LABELS.includes(last) ? t(`problems:field.${last}`) : last;
}

/** Turns Ajv-style messages into plain words. */
function plainValidation(message: string): string {
  const fewer = /must NOT have fewer than (\d+) characters/.exec(message);
  if (fewer) return fewer[1] === '1' ? t('problems:validation.empty') : t('problems:validation.minLength', { min: Number(fewer[1]) });
  const more = /must NOT have more than (\d+) characters/.exec(message);
  if (more) return t('problems:validation.maxLength', { max: Number(more[1]) });
  if (/must match format "email"/.test(message)) return t('problems:validation.email');
  if (/must match pattern/.test(message)) return t('problems:validation.blank');
  if (/must match format "date-time"/.test(message)) return t('problems:validation.dateTime');
  const atMost = /^must be <= (\d+)$/.exec(message);
  if (atMost) return t('problems:validation.atMost', { max: Number(atMost[1]) });
  const atLeast = /^must be >= (\d+)$/.exec(message);
  if (atLeast) return t('problems:validation.atLeast', { min: Number(atLeast[1]) });
  if (/^must be (integer|number)$/.test(message)) return t('problems:validation.integer');
  return message;
}

export function fieldErrorMessages(problem: Problem): string[] {
  return (problem.errors ?? []).map((item) => t('problems:validation.field', { field: fieldLabel(item.field), message: plainValidation(item.message) }));
}

/** Ends a text with exactly one full stop. */
const sentence = (value: string) => `${value.trim().replace(/[.\s]+$/, '')}.`;

const conflictRanges = (problem: Problem) => (problem.conflicts ?? []).map((range) => formatRange(range.startTime, range.endTime)).join('; ');

/** A key, or its `_variant` when the variant's value is there (a message with or without a detail). */
const either = (key: string, variant: string, values: Record<string, unknown>, present: unknown) => (present ? t(`${key}_${variant}`, values) : t(key, values));

type MessageOf = (problem: Problem, subject: string) => string;

const SESSION_ENDED: MessageOf = () => t('problems:general.sessionEnded');
const NOT_ANSWERING: MessageOf = () => t('problems:general.notAnswering');
const SERVER_FAILED: MessageOf = (problem) =>
  problem.requestId ? t('problems:general.serverFailedReference', { reference: problem.requestId }) : t('problems:general.serverFailed');

/** A code whose sentence takes nothing from the problem: its key is `problems:code.<CODE>`. */
const plain =
  (code: string): MessageOf =>
  () =>
    t(`problems:code.${code}`);

/**
 * A sentence for every code the service can send (docs/errors.md; a test holds this list to the
 * server's catalogue), in the language in use (docs/i18n.md). `subject` names the thing acted on
 * ("This room") where the code alone would be vague.
 */
export const CODE_MESSAGES: Record<string, MessageOf> = {
  VALIDATION_FAILED: (problem) => {
    const fields = fieldErrorMessages(problem);
    return fields.length > 0 ? t('problems:code.VALIDATION_FAILED', { fields: fields.join(' ') }) : t('problems:code.VALIDATION_FAILED_plain');
  },
  MALFORMED_JSON: plain('MALFORMED_JSON'),
  INVALID_ENCODING: plain('INVALID_ENCODING'),
  INVALID_CURRENT_PASSWORD: plain('INVALID_CURRENT_PASSWORD'),
  PASSWORD_UNCHANGED: plain('PASSWORD_UNCHANGED'),
  IMPORT_INVALID: (problem) => importMessage(problem),
  NAME_TAKEN: plain('NAME_TAKEN'),
  INSTALL_NOT_EMPTY: plain('INSTALL_NOT_EMPTY'),
  RESERVATION_NOT_ALLOWED: (problem) => ruleMessage(problem),
  INVALID_RESET_TOKEN: plain('INVALID_RESET_TOKEN'),
  UNAUTHENTICATED: SESSION_ENDED,
  INVALID_TOKEN: SESSION_ENDED,
  INVALID_CREDENTIALS: plain('INVALID_CREDENTIALS'),
  INVALID_REFRESH_TOKEN: SESSION_ENDED,
  REFRESH_TOKEN_REUSED: SESSION_ENDED,
  FORBIDDEN: () => t('problems:general.forbidden'),
  CSRF_HEADER_REQUIRED: plain('CSRF_HEADER_REQUIRED'),
  [PASSWORD_CHANGE_REQUIRED]: plain(PASSWORD_CHANGE_REQUIRED),
  NOT_FOUND: (_problem, subject) => t('problems:code.NOT_FOUND', { subject }),
  ROUTE_NOT_FOUND: plain('ROUTE_NOT_FOUND'),
  EMAIL_TAKEN: plain('EMAIL_TAKEN'),
  LAST_ADMIN: plain('LAST_ADMIN'),
  DIRECTORY_USER: plain('DIRECTORY_USER'),
  RESERVATION_CONFLICT: (problem) => {
    const ranges = conflictRanges(problem);
    // Whose reservation is in the way decides the sentence (docs/errors.md, `reason`).
    if (problem.reason === 'USER_OVERLAP') return either('problems:code.USER_OVERLAP', 'ranges', { ranges }, ranges);
    return either('problems:code.DESK_TAKEN', 'ranges', { ranges }, ranges);
  },
  POLICY_VIOLATION: (problem) => policyMessage(problem),
  POLICY_LIMIT_REACHED: (problem) => policyMessage(problem),
  POLICY_RULE_CONFLICT: (problem) =>
    problem.errors?.some((error) => error.field === 'limit.minutes')
      ? t('problems:code.POLICY_RULE_CONFLICT_minutes')
      : t('problems:code.POLICY_RULE_CONFLICT'),
  RESERVATION_LIMIT_REACHED: (problem) => either('problems:code.RESERVATION_LIMIT_REACHED', 'max', { max: problem.limit?.max }, problem.limit),
  OUTBOX_NOT_DEAD: plain('OUTBOX_NOT_DEAD'),
  TEAM_NAME_TAKEN: plain('TEAM_NAME_TAKEN'),
  TEAM_GROUP_TAKEN: plain('TEAM_GROUP_TAKEN'),
  TOO_MANY_TEAMS: plain('TOO_MANY_TEAMS'),
  TOO_MANY_DELEGATES: plain('TOO_MANY_DELEGATES'),
  TOO_MANY_FAVOURITES: plain('TOO_MANY_FAVOURITES'),
  TOO_MANY_PUSH_SUBSCRIPTIONS: plain('TOO_MANY_PUSH_SUBSCRIPTIONS'),
  TOO_MANY_STARRED: plain('TOO_MANY_STARRED'),
  TOO_MANY_DISPLAYS: plain('TOO_MANY_DISPLAYS'),
  AGGREGATES_ONLY: plain('AGGREGATES_ONLY'),
  TOO_MANY_SERIES: plain('TOO_MANY_SERIES'),
  CLOSED_DAY: (problem) =>
    problem.closure
      ? t('problems:code.CLOSED_DAY_reason', { date: formatDay(problem.closure.date), reason: sentence(problem.closure.reason) })
      : t('problems:code.CLOSED_DAY'),
  DESK_NOT_BOOKABLE: plain('DESK_NOT_BOOKABLE'),
  HAS_DEPENDENTS: (problem, subject) => dependentsMessage(problem, subject),
  SERIES_CONFLICT: (problem) => {
    const count = problem.occurrences?.length ?? 0;
    return count > 0 ? t('problems:code.SERIES_CONFLICT', { count }) : t('problems:code.SERIES_CONFLICT_plain');
  },
  PLAN_CHANGED: plain('PLAN_CHANGED'),
  PRECONDITION_REQUIRED: plain('PRECONDITION_REQUIRED'),
  CHECK_IN_NOT_OPEN: plain('CHECK_IN_NOT_OPEN'),
  WALK_IN_NOT_POSSIBLE: plain('WALK_IN_NOT_POSSIBLE'),
  APPROVAL_PENDING: plain('APPROVAL_PENDING'),
  APPROVAL_DECIDED: plain('APPROVAL_DECIDED'),
  // A CONFLICT naming fields (an area's name in use, docs/errors.md) says which; else the state changed.
  CONFLICT: (problem) => {
    const fields = fieldErrorMessages(problem);
    return fields.length > 0 ? fields.join(' ') : t('problems:code.CONFLICT');
  },
  REQUEST_TIMEOUT: plain('REQUEST_TIMEOUT'),
  // Image uploads say which limits (lib/images.ts); these are for anything else.
  PAYLOAD_TOO_LARGE: plain('PAYLOAD_TOO_LARGE'),
  UNSUPPORTED_MEDIA_TYPE: plain('UNSUPPORTED_MEDIA_TYPE'),
  TOO_MANY_REQUESTS: (problem) => t('problems:code.TOO_MANY_REQUESTS', { wait: formatWait(problem.retryAfter ?? 60) }),
  HEADERS_TOO_LARGE: plain('HEADERS_TOO_LARGE'),
  TOO_MANY_WRITES: (problem) => t('problems:code.TOO_MANY_WRITES', { wait: formatWait(problem.retryAfter ?? 60) }),
  TOO_MANY_CONCURRENT_REQUESTS: (problem) => t('problems:code.TOO_MANY_CONCURRENT_REQUESTS', { wait: formatWait(problem.retryAfter ?? 1) }),
  INTERNAL: SERVER_FAILED,
  SERVICE_UNAVAILABLE: NOT_ANSWERING,
  SERVER_BUSY: (problem) => t('problems:code.SERVER_BUSY', { wait: formatWait(problem.retryAfter ?? 5) }),
  WEB_APP_NOT_BUILT: plain('WEB_APP_NOT_BUILT'),
  // Single sign-on: the return page (features/oidc) words its own; these are for anything else.
  OIDC_STATE_INVALID: plain('OIDC_STATE_INVALID'),
  OIDC_CODE_INVALID: plain('OIDC_CODE_INVALID'),
  OIDC_PROVIDER_ERROR: plain('OIDC_PROVIDER_ERROR'),
  OIDC_TOKEN_INVALID: plain('OIDC_TOKEN_INVALID'),
  OIDC_NO_ACCOUNT: plain('OIDC_NO_ACCOUNT'),
  OIDC_ACCOUNT_DISABLED: plain('OIDC_ACCOUNT_DISABLED'),
  OIDC_DISABLED: plain('OIDC_DISABLED'),
  OIDC_ALREADY_LINKED: plain('OIDC_ALREADY_LINKED'),
};

/** One readable sentence (or two) for a failed request; without a known code, one from the HTTP status. */
export function problemMessage(problem: Problem, subject = t('problems:subject.it')): string {
  if (problem.status === 0) return t('problems:general.unreachable');
  const byCode = problem.code === undefined ? undefined : Object.hasOwn(CODE_MESSAGES, problem.code) ? CODE_MESSAGES[problem.code] : undefined;
  if (byCode) return byCode(problem, subject);
  if (problem.status === 503 || problem.status === 502 || problem.status === 504) return NOT_ANSWERING(problem, subject);
  if (problem.status >= 500) return SERVER_FAILED(problem, subject);
  if (problem.status === 404) return t('problems:general.gone', { subject });
  if (problem.status === 403) return t('problems:general.forbidden');
  if (problem.status === 401) return SESSION_ENDED(problem, subject);
  return t('problems:general.refused');
}

/** "90 days", "24 hours", "15 minutes": a limit in seconds, in words. */
export function durationWords(seconds: number): string {
  if (seconds >= 2 * 86_400 && seconds % 86_400 === 0) return t('problems:duration.days', { count: seconds / 86_400 });
  if (seconds >= 3600 && seconds % 3600 === 0) return t('problems:duration.hours', { count: seconds / 3600 });
  return t('problems:duration.minutes', { count: Math.round(seconds / 60) });
}

/** The booking rule a refused booking broke, worded from `rule` (never the service's own text). */
function ruleMessage(problem: Problem): string {
  const rule = problem.rule;
  const limit = rule?.seconds === undefined ? undefined : durationWords(rule.seconds);
  const which = rule?.date ? ` ${t('problems:rule.date', { date: formatDay(rule.date) })}` : '';
  switch (rule?.name) {
    case 'END_IN_PAST':
    case 'START_IN_PAST':
      return `${t(`problems:rule.${rule.name}`)}${which}`;
    case 'TOO_LONG':
    case 'TOO_SHORT':
      return `${either(`problems:rule.${rule.name}`, 'plain', { limit }, !limit)}${which}`;
    case 'TOO_FAR_AHEAD':
      return `${either('problems:rule.TOO_FAR_AHEAD', 'plain', { limit }, !limit)}${which}${rule.date ? ` ${t('problems:rule.fewer')}` : ''}`;
    default:
      return t('problems:rule.other');
  }
}

/** "Line 3: the desk has no name. Line 7: …": the rows an import refused (at most 10 named). */
function importMessage(problem: Problem): string {
  const rows = problem.rows ?? [];
  if (rows.length === 0) return t('problems:import.nothing');
  const named = rows.slice(0, 10).map((row) => t('problems:import.row', { line: row.line, message: row.message }));
  const more = rows.length > 10 ? ` ${t('problems:import.more', { count: rows.length - 10 })}` : '';
  return t('problems:import.rows', { rows: `${named.join(' ')}${more}` });
}

/** "2 rooms, 3 desks and 1 future reservation": the non-zero counts, in words. */
export function dependentsList(dependents: Dependents): string {
  const parts = (['rooms', 'desks', 'equipment', 'futureReservations'] as const)
    .filter((kind) => dependents[kind] > 0)
    .map((kind) => t(`problems:dependents.${kind}`, { count: dependents[kind] }));
  return parts.length > 1 ? t('problems:dependents.and', { list: parts.slice(0, -1).join(', '), last: parts.at(-1) }) : (parts[0] ?? '');
}

/**
 * What keeps a delete from happening: the counts the service sends in `dependents`, or, from a
 * service that does not send them, a general sentence.
 */
export function dependentsMessage(problem: Problem, subject = t('problems:subject.it')): string {
  const list = problem.dependents ? dependentsList(problem.dependents) : '';
  if (list) return t('problems:dependents.has', { subject, list });
  return t('problems:dependents.general', { subject });
}

/**
 * After a refused booking: the collision was with one of the caller's own reservations
 * (`reason` USER_OVERLAP) or someone else got the desk; without a `reason`, a desk still free tells the first.
 */
export function bookingConflictMessage(problem: Problem, deskStillFree: boolean): string {
  const ranges = conflictRanges(problem);
  // The service says whose reservation is in the way (`reason`); the desk's state is the fallback.
  const own = problem.reason === undefined ? deskStillFree : problem.reason === 'USER_OVERLAP';
  if (own) return either('problems:code.USER_OVERLAP', 'ranges', { ranges }, ranges);
  return either('problems:code.SOMEONE_ELSE', 'ranges', { ranges }, ranges);
}

const PERIODS = ['DAY', 'WEEK', 'MONTH'];

/**
 * A booking policy's refusal in a sentence (docs/errors.md, docs/policies.md): the counted limits
 * from their figures ("You have booked 2 of your 2 bookings this week"), the others from the
 * server's detail, which names the rule's figure or the area.
 */
export function policyMessage(problem: Problem): string {
  const { limit, window } = problem;
  const period = window?.period && PERIODS.includes(window.period) ? ` ${t(`problems:policy.${window.period}`)}` : '';
  const named = problem.rule?.name ? ` (${problem.rule.name})` : '';
  if (limit && ['MAX_BOOKINGS', 'MAX_HOURS', 'MAX_CONCURRENT', 'CAPACITY'].includes(limit.name)) {
    return t(`problems:policy.${limit.name}`, { current: limit.current, max: limit.max, requested: limit.requested, period, named });
  }
  return problem.detail ? sentence(problem.detail) : t('problems:policy.other');
}
