import type { Dependents } from './published.js';
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
      problem.errors = body.errors.filter(isRecord).map((item) => ({ field: text(item.field) ?? '', message: text(item.message) ?? 'is not valid' }));
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

/** Form field names (as the API reports them) in words people use. */
const FIELD_LABELS: Record<string, string> = {
  email: 'E-mail',
  password: 'Password',
  newPassword: 'New password',
  currentPassword: 'Current password',
  firstName: 'First name',
  lastName: 'Last name',
  location: 'Location',
  building: 'Building',
  floor: 'Floor',
  name: 'Name',
  title: 'Title',
  description: 'Description',
  type: 'Type',
  startTime: 'Start',
  endTime: 'End',
  deskId: 'Desk',
  count: 'Number of times',
  until: 'Until',
  weekdays: 'Weekdays',
  timeZone: 'Time zone',
  reason: 'Reason',
  dates: 'Days',
  rrule: 'Repeat rule',
  startDate: 'First day',
  departmentId: 'Office',
  roomId: 'Room',
  areaId: 'Area',
  deskIds: 'Desks',
  teamIds: 'Teams',
  teamId: 'Team',
};

export function fieldLabel(field: string): string {
  const last = field.split('.').pop() ?? field;
  return FIELD_LABELS[last] ?? last;
}

/** Turns Ajv-style messages into plain words. */
function plainValidation(message: string): string {
  const fewer = /must NOT have fewer than (\d+) characters/.exec(message);
  if (fewer) return fewer[1] === '1' ? 'must not be empty' : `needs at least ${fewer[1]} characters`;
  const more = /must NOT have more than (\d+) characters/.exec(message);
  if (more) return `may have at most ${more[1]} characters`;
  if (/must match format "email"/.test(message)) return 'is not a valid e-mail address';
  if (/must match pattern/.test(message)) return 'must not be blank';
  if (/must match format "date-time"/.test(message)) return 'is not a valid date and time';
  const atMost = /^must be <= (\d+)$/.exec(message);
  if (atMost) return `may be at most ${atMost[1]}`;
  const atLeast = /^must be >= (\d+)$/.exec(message);
  if (atLeast) return `must be at least ${atLeast[1]}`;
  if (/^must be (integer|number)$/.test(message)) return 'must be a whole number';
  return message;
}

export function fieldErrorMessages(problem: Problem): string[] {
  return (problem.errors ?? []).map((item) => `${fieldLabel(item.field)} ${plainValidation(item.message)}.`);
}

/** Ends a text with exactly one full stop. */
const sentence = (value: string) => `${value.trim().replace(/[.\s]+$/, '')}.`;

const conflictRanges = (problem: Problem) => (problem.conflicts ?? []).map((range) => formatRange(range.startTime, range.endTime)).join('; ');

type MessageOf = (problem: Problem, subject: string) => string;

const SESSION_ENDED: MessageOf = () => 'Your session has ended. Please sign in again.';
const NOT_ANSWERING: MessageOf = () => 'The service is not answering right now. Try again in a moment.';
const SERVER_FAILED: MessageOf = (problem) =>
  `Something went wrong on the server. Try again; if it keeps happening, tell your administrator${problem.requestId ? ` (reference ${problem.requestId})` : ''}.`;

/**
 * A sentence for every code the service can send (docs/errors.md; a test holds this list to the
 * server's catalogue). `subject` names the thing acted on ("This room") where the code alone would be vague.
 */
export const CODE_MESSAGES: Record<string, MessageOf> = {
  VALIDATION_FAILED: (problem) => {
    const fields = fieldErrorMessages(problem);
    return fields.length > 0 ? `Please check: ${fields.join(' ')}` : 'Please check your input: a value is not valid.';
  },
  MALFORMED_JSON: () => 'The request could not be read. Reload the page and try again.',
  INVALID_ENCODING: () => 'Some text could not be read (it is not valid UTF-8). Check for unusual characters and try again.',
  INVALID_CURRENT_PASSWORD: () => 'The current password is wrong.',
  PASSWORD_UNCHANGED: () => 'Choose a new password other than the current one.',
  IMPORT_INVALID: (problem) => importMessage(problem),
  NAME_TAKEN: () =>
    'This name is taken: the rooms of an office, and the desks of a room, need names of their own (upper and lower case count as the same). Choose another.',
  INSTALL_NOT_EMPTY: () => 'Offices exist already, so the sample office was not added.',
  RESERVATION_NOT_ALLOWED: (problem) => ruleMessage(problem),
  INVALID_RESET_TOKEN: () => 'This link is invalid, has been used or has expired. Ask for a new one.',
  UNAUTHENTICATED: SESSION_ENDED,
  INVALID_TOKEN: SESSION_ENDED,
  INVALID_CREDENTIALS: () => 'Wrong e-mail or password.',
  INVALID_REFRESH_TOKEN: SESSION_ENDED,
  REFRESH_TOKEN_REUSED: SESSION_ENDED,
  FORBIDDEN: () => 'You are not allowed to do this.',
  CSRF_HEADER_REQUIRED: () => 'The page could not sign you in safely; it may be out of date. Reload it and try again.',
  [PASSWORD_CHANGE_REQUIRED]: () => 'Choose your own password first.',
  NOT_FOUND: (_problem, subject) => `${subject} no longer exists; someone may have removed it. Reload the page.`,
  ROUTE_NOT_FOUND: () => 'The server does not know this operation; the page may be out of date. Reload it and try again.',
  EMAIL_TAKEN: () => 'Another user already has this e-mail address.',
  LAST_ADMIN: () => 'This is the last enabled administrator: it cannot be removed, disabled, demoted or made a directory user.',
  DIRECTORY_USER: () => 'This user signs in through the company directory; the password is changed there.',
  RESERVATION_CONFLICT: (problem) => {
    const ranges = conflictRanges(problem);
    // Whose reservation is in the way decides the sentence (docs/errors.md, `reason`).
    if (problem.reason === 'USER_OVERLAP')
      return `You already have a booking at that time${ranges ? ` (${ranges})` : ''}. Change or cancel it under My reservations.`;
    return `That time is already booked${ranges ? ` (${ranges})` : ''}.`;
  },
  POLICY_VIOLATION: (problem) => policyMessage(problem),
  POLICY_LIMIT_REACHED: (problem) => policyMessage(problem),
  POLICY_RULE_CONFLICT: (problem) =>
    problem.errors?.some((error) => error.field === 'limit.minutes')
      ? 'The minimum duration would be longer than the maximum set by another rule for the same place and people.'
      : 'Another rule already sets this limit for the same place and people; change that rule instead.',
  RESERVATION_LIMIT_REACHED: (problem) =>
    sentence(`You already hold as many upcoming reservations as you may${problem.limit ? ` (${problem.limit.max})` : ''}; cancel one before booking more`),
  OUTBOX_NOT_DEAD: () => 'Only a mail that was given up can be sent again; this one is sent or still being tried.',
  TEAM_NAME_TAKEN: () => 'Another team has this name (upper and lower case count as the same). Choose another.',
  TEAM_GROUP_TAKEN: () => 'Another team already uses this directory group or single sign-on group; a group fills one team.',
  TOO_MANY_TEAMS: () => 'There are as many teams as Deskbook keeps; remove one before adding another.',
  TOO_MANY_DELEGATES: () => 'You already have as many delegates as one person may; remove one before adding another.',
  TOO_MANY_FAVOURITES: () => 'You have starred as many desks as one person may; unstar one before starring another.',
  TOO_MANY_PUSH_SUBSCRIPTIONS: () => 'Push is already on in as many browsers as one person may have; turn it off in one of them first.',
  TOO_MANY_STARRED: () => 'You have starred as many colleagues as one person may; unstar one first.',
  TOO_MANY_DISPLAYS: () => 'This office has as many lobby displays as it may; revoke one first.',
  AGGREGATES_ONLY: () => 'Works-council mode is on: attendance is shown as daily figures only, never per person.',
  TOO_MANY_SERIES: () => 'You already have as many recurring bookings as one person may; cancel one before starting another.',
  CLOSED_DAY: (problem) =>
    problem.closure ? `The office is closed on ${formatDay(problem.closure.date)}: ${sentence(problem.closure.reason)}` : 'The office is closed on that day.',
  DESK_NOT_BOOKABLE: () => 'This desk cannot be booked: it is a fixed desk or its room is closed.',
  HAS_DEPENDENTS: (problem, subject) => dependentsMessage(problem, subject),
  SERIES_CONFLICT: (problem) => {
    const count = problem.occurrences?.length ?? 0;
    return count > 0
      ? `${count} of these dates ${count === 1 ? 'is' : 'are'} already taken or closed; nothing was booked. Leave them out or choose another desk.`
      : 'Some of these dates are already taken; nothing was booked.';
  },
  PLAN_CHANGED: () => 'Someone changed this floor plan since you opened it. It has been reloaded; redo your change.',
  PRECONDITION_REQUIRED: () => 'The page is out of date. Reload it and try again.',
  CHECK_IN_NOT_OPEN: () => 'Check-in is not possible now: it is too early, past the deadline, or the reservation was released or has ended.',
  WALK_IN_NOT_POSSIBLE: () =>
    'This desk cannot be booked on the spot now: the working day there is over, it is reserved soon, or its bookings need approval (book it ahead).',
  APPROVAL_PENDING: () => 'This booking awaits approval; you can check in once it is approved.',
  APPROVAL_DECIDED: () => 'Someone already decided this request, or it expired. The list has been reloaded.',
  // A CONFLICT naming fields (an area's name in use, docs/errors.md) says which; else the state changed.
  CONFLICT: (problem) => {
    const fields = fieldErrorMessages(problem);
    return fields.length > 0 ? fields.join(' ') : 'This cannot be done in the current state. Reload the page and try again.';
  },
  REQUEST_TIMEOUT: () => 'The request took too long to arrive. Check your connection and try again.',
  // Image uploads say which limits (lib/images.ts); these are for anything else.
  PAYLOAD_TOO_LARGE: () => 'The file is too large.',
  UNSUPPORTED_MEDIA_TYPE: () => 'This kind of file is not accepted.',
  TOO_MANY_REQUESTS: (problem) => `Too many attempts. Try again in ${formatWait(problem.retryAfter ?? 60)}.`,
  HEADERS_TOO_LARGE: () => 'The request was too large to send. Reload the page and try again.',
  TOO_MANY_WRITES: (problem) => `You changed reservations many times in a short while. Try again in ${formatWait(problem.retryAfter ?? 60)}.`,
  TOO_MANY_CONCURRENT_REQUESTS: (problem) =>
    `Too many of your searches, statistics or uploads are running at once. Try again in ${formatWait(problem.retryAfter ?? 1)}.`,
  INTERNAL: SERVER_FAILED,
  SERVICE_UNAVAILABLE: NOT_ANSWERING,
  SERVER_BUSY: (problem) => `The server is busy. Try again in ${formatWait(problem.retryAfter ?? 5)}.`,
  WEB_APP_NOT_BUILT: () => 'The web app is not installed on the server. Tell your administrator.',
  // Single sign-on: the return page (features/oidc) words its own; these are for anything else.
  OIDC_STATE_INVALID: () => 'This sign-in attempt has expired or was started in another browser. Please start again.',
  OIDC_CODE_INVALID: () => 'This sign-in link has already been used or has expired. Please start again.',
  OIDC_PROVIDER_ERROR: () => 'The identity provider did not allow the sign-in.',
  OIDC_TOKEN_INVALID: () => "The identity provider's answer could not be verified. Tell your administrator.",
  OIDC_NO_ACCOUNT: () => 'No account here may sign in with this identity yet. Ask your administrator to link it.',
  OIDC_ACCOUNT_DISABLED: () => 'This account is disabled. Ask your administrator.',
  OIDC_DISABLED: () => 'Single sign-on is not set up on this server.',
  OIDC_ALREADY_LINKED: () => 'This identity is linked to another account already, or this account to another identity. Unlink it first.',
};

/** One readable sentence (or two) for a failed request; without a known code, one from the HTTP status. */
export function problemMessage(problem: Problem, subject = 'It'): string {
  if (problem.status === 0) return 'The server cannot be reached. Check your connection and try again.';
  const byCode = problem.code === undefined ? undefined : Object.hasOwn(CODE_MESSAGES, problem.code) ? CODE_MESSAGES[problem.code] : undefined;
  if (byCode) return byCode(problem, subject);
  if (problem.status === 503 || problem.status === 502 || problem.status === 504) return NOT_ANSWERING(problem, subject);
  if (problem.status >= 500) return SERVER_FAILED(problem, subject);
  if (problem.status === 404) return `${subject} no longer exists. Reload the page.`;
  if (problem.status === 403) return 'You are not allowed to do this.';
  if (problem.status === 401) return SESSION_ENDED(problem, subject);
  return 'The request was refused. Check your input and try again.';
}

const counted = (number: number, singular: string, plural = `${singular}s`) => `${number} ${number === 1 ? singular : plural}`;

/** "90 days", "24 hours", "15 minutes": a limit in seconds, in words. */
export function durationWords(seconds: number): string {
  if (seconds >= 2 * 86_400 && seconds % 86_400 === 0) return counted(seconds / 86_400, 'day');
  if (seconds >= 3600 && seconds % 3600 === 0) return counted(seconds / 3600, 'hour');
  return counted(Math.round(seconds / 60), 'minute');
}

/** The booking rule a refused booking broke, worded from `rule` (never the service's own text). */
function ruleMessage(problem: Problem): string {
  const rule = problem.rule;
  const limit = rule?.seconds === undefined ? undefined : durationWords(rule.seconds);
  const which = rule?.date ? ` The date ${formatDay(rule.date)} is one of them.` : '';
  switch (rule?.name) {
    case 'END_IN_PAST':
      return `This booking would end in the past.${which}`;
    case 'START_IN_PAST':
      return `This booking would start in the past; choose a later time.${which}`;
    case 'TOO_LONG':
      return `A booking may last at most ${limit ?? 'the length allowed'}.${which}`;
    case 'TOO_SHORT':
      return `A booking must last at least ${limit ?? 'the length required'}.${which}`;
    case 'TOO_FAR_AHEAD':
      return `You can book at most ${limit ?? 'a limited time'} ahead.${which}${rule?.date ? ' Choose fewer times or an earlier end.' : ''}`;
    default:
      return 'This booking is not allowed by the booking rules.';
  }
}

/** "Line 3: the desk has no name. Line 7: …": the rows an import refused (at most 10 named). */
function importMessage(problem: Problem): string {
  const rows = problem.rows ?? [];
  if (rows.length === 0) return 'The file could not be imported; nothing was added.';
  const named = rows.slice(0, 10).map((row) => `Line ${row.line}: ${row.message}.`);
  const more = rows.length > 10 ? ` And ${counted(rows.length - 10, 'more problem')}.` : '';
  return `Nothing was added. ${named.join(' ')}${more}`;
}

/** "2 rooms, 3 desks and 1 future reservation": the non-zero counts, in words. */
export function dependentsList(dependents: Dependents): string {
  const parts = [
    dependents.rooms > 0 ? counted(dependents.rooms, 'room') : undefined,
    dependents.desks > 0 ? counted(dependents.desks, 'desk') : undefined,
    dependents.equipment > 0 ? counted(dependents.equipment, 'equipment item') : undefined,
    dependents.futureReservations > 0 ? counted(dependents.futureReservations, 'future reservation') : undefined,
  ].filter((part) => part !== undefined);
  return parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}` : (parts[0] ?? '');
}

/**
 * What keeps a delete from happening: the counts the service sends in `dependents`, or, from a
 * service that does not send them, a general sentence.
 */
export function dependentsMessage(problem: Problem, subject = 'It'): string {
  const list = problem.dependents ? dependentsList(problem.dependents) : '';
  if (list) return `${subject} still has ${list}.`;
  return `${subject} still has things under it (rooms, desks, equipment) or future reservations.`;
}

/**
 * After a refused booking: the collision was with one of the caller's own reservations
 * (`reason` USER_OVERLAP) or someone else got the desk; without a `reason`, a desk still free tells the first.
 */
export function bookingConflictMessage(problem: Problem, deskStillFree: boolean): string {
  const ranges = conflictRanges(problem);
  // The service says whose reservation is in the way (`reason`); the desk's state is the fallback.
  const own = problem.reason === undefined ? deskStillFree : problem.reason === 'USER_OVERLAP';
  if (own) {
    return `You already have a booking at that time${ranges ? ` (${ranges})` : ''}. Change or cancel it under My reservations.`;
  }
  return `Sorry, someone else got this desk first${ranges ? ` (booked ${ranges})` : ''}. The list of free desks has been refreshed.`;
}

const PERIOD_WORDS: Record<string, string> = { DAY: 'today', WEEK: 'this week', MONTH: 'this month' };

/**
 * A booking policy's refusal in a sentence (docs/errors.md, docs/policies.md): the counted limits
 * from their figures ("You have booked 2 of your 2 bookings this week"), the others from the
 * server's detail, which names the rule's figure or the area.
 */
export function policyMessage(problem: Problem): string {
  const { limit, window } = problem;
  const period = window?.period ? (PERIOD_WORDS[window.period] ?? '') : '';
  const named = problem.rule?.name ? ` (${problem.rule.name})` : '';
  if (limit) {
    switch (limit.name) {
      case 'MAX_BOOKINGS':
        return sentence(`You have booked ${limit.current} of your ${limit.max} ${limit.max === 1 ? 'booking' : 'bookings'} ${period}${named}`.trimEnd());
      case 'MAX_HOURS':
        return sentence(`You have booked ${limit.current} of your ${limit.max} hours ${period}; this booking would add ${limit.requested}${named}`);
      case 'MAX_CONCURRENT':
        return sentence(`You already hold ${limit.current} of the ${limit.max} upcoming bookings you may hold at once; cancel one first${named}`);
      case 'CAPACITY':
        return sentence(`This place is full that day: ${limit.current} of the ${limit.max} desks that may be booked are taken${named}`);
      default:
        break;
    }
  }
  return sentence(problem.detail ?? 'A booking rule does not allow this booking');
}
