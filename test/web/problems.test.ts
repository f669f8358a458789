process.env.TZ = 'Europe/Berlin';

import { beforeAll, describe, expect, it } from 'vitest';
import { startTestI18n } from '../helpers/i18n.js';
import { catalogue } from '../../src/shared/errors.js';
import {
  ApiError,
  CODE_MESSAGES,
  bookingConflictMessage,
  dependentsList,
  dependentsMessage,
  fieldErrorMessages,
  problemMessage,
  policyMessage,
  problemOf,
  toProblem,
  type Problem,
} from '../../web/src/lib/problems.js';

// The problem sentences and waits are English keys' values (docs/i18n.md).
beforeAll(() => startTestI18n('en'));

const problem = (status: number, code?: string, extra: Partial<Problem> = {}): Problem => ({ status, code, ...extra });

describe('reading a failed response', () => {
  it('keeps the problem+json members the UI uses', () => {
    const body = {
      type: 'urn:deskbook:problem:reservation-conflict',
      title: 'The time range collides with another reservation',
      status: 409,
      detail: 'Desk is taken',
      code: 'RESERVATION_CONFLICT',
      requestId: 'req-1',
      conflicts: [{ startTime: '2030-05-15T07:00:00Z', endTime: '2030-05-15T10:00:00Z' }],
    };
    expect(toProblem(409, body)).toEqual({
      status: 409,
      code: 'RESERVATION_CONFLICT',
      title: body.title,
      detail: 'Desk is taken',
      requestId: 'req-1',
      conflicts: body.conflicts,
    });
  });

  it('survives bodies that are not problems (a proxy page, text, nothing)', () => {
    expect(toProblem(502, '<html>Bad gateway</html>')).toEqual({ status: 502 });
    expect(toProblem(500, null)).toEqual({ status: 500 });
    expect(toProblem(500, [1, 2])).toEqual({ status: 500 });
    expect(toProblem(400, { code: 7, errors: 'no', conflicts: [{ startTime: 1 }] })).toEqual({
      status: 400,
      code: undefined,
      title: undefined,
      detail: undefined,
      requestId: undefined,
      conflicts: [],
    });
  });

  it('takes the wait from Retry-After when it is a positive number of seconds', () => {
    expect(toProblem(429, { code: 'TOO_MANY_REQUESTS' }, '120').retryAfter).toBe(120);
    expect(toProblem(429, { code: 'TOO_MANY_REQUESTS' }, 'soon').retryAfter).toBeUndefined();
    expect(toProblem(429, { code: 'TOO_MANY_REQUESTS' }, null).retryAfter).toBeUndefined();
  });

  it('treats anything thrown that is not an ApiError as the server being out of reach', () => {
    expect(problemOf(new TypeError('Failed to fetch'))).toEqual({ status: 0 });
    expect(problemOf(new ApiError(problem(404, 'NOT_FOUND')))).toEqual({ status: 404, code: 'NOT_FOUND' });
  });
});

describe('messages for people', () => {
  it('maps the codes a person can meet to plain sentences', () => {
    expect(problemMessage(problem(401, 'INVALID_CREDENTIALS'))).toBe('Wrong e-mail or password.');
    expect(problemMessage(problem(401, 'INVALID_TOKEN'))).toBe('Your session has ended. Please sign in again.');
    expect(problemMessage(problem(403, 'FORBIDDEN'))).toBe('You are not allowed to do this.');
    expect(problemMessage(problem(404, 'NOT_FOUND'), 'This room')).toBe('This room no longer exists; someone may have removed it. Reload the page.');
    expect(problemMessage(problem(409, 'EMAIL_TAKEN'))).toBe('Another user already has this e-mail address.');
    expect(problemMessage(problem(409, 'DESK_NOT_BOOKABLE'))).toBe('This desk cannot be booked: it is a fixed desk or its room is closed.');
    expect(problemMessage(problem(400, 'INVALID_CURRENT_PASSWORD'))).toBe('The current password is wrong.');
    expect(problemMessage(problem(400, 'INVALID_RESET_TOKEN'))).toBe('This link is invalid, has been used or has expired. Ask for a new one.');
    expect(problemMessage(problem(413, 'PAYLOAD_TOO_LARGE'))).toBe('The file is too large.');
    expect(problemMessage(problem(415, 'UNSUPPORTED_MEDIA_TYPE'))).toBe('This kind of file is not accepted.');
    expect(problemMessage(problem(403, 'PASSWORD_CHANGE_REQUIRED'))).toBe('Choose your own password first.');
  });

  it('has a sentence for every code the service can send, and no code the service does not know', () => {
    expect(Object.keys(CODE_MESSAGES).sort()).toEqual(Object.keys(catalogue).sort());
    const refused = 'The request was refused. Check your input and try again.';
    for (const [code, { status }] of Object.entries(catalogue)) {
      const message = problemMessage(problem(status, code, { retryAfter: 3 }), 'This room');
      expect(message, code).toMatch(/^[A-Z].*[.!]$/);
      expect(message, code).not.toBe(refused);
    }
    expect(problemMessage(problem(429, 'TOO_MANY_CONCURRENT_REQUESTS', { retryAfter: 2 }))).toMatch(/running at once\. Try again in 2 seconds/);
    expect(problemMessage(problem(503, 'SERVER_BUSY', { retryAfter: 1 }))).toMatch(/busy\. Try again in 1 second/);
  });

  it('words the rule a refused booking broke itself; without `rule`, a general sentence, never the detail', () => {
    expect(problemMessage(problem(400, 'RESERVATION_NOT_ALLOWED', { detail: 'endTime makes the reservation longer than the 24 hours allowed' }))).toBe(
      'This booking is not allowed by the booking rules.',
    );
    expect(problemMessage(problem(400, 'RESERVATION_NOT_ALLOWED', { rule: { name: 'START_IN_PAST' } }))).toBe(
      'This booking would start in the past; choose a later time.',
    );
  });

  it('names the colliding range of a conflict in local time', () => {
    const conflict = problem(409, 'RESERVATION_CONFLICT', { conflicts: [{ startTime: '2030-05-15T07:00:00Z', endTime: '2030-05-15T10:00:00Z' }] });
    expect(problemMessage(conflict)).toBe('That time is already booked (Wed, 15 May 2030, 09:00–12:00).');
    expect(problemMessage(problem(409, 'RESERVATION_CONFLICT'))).toBe('That time is already booked.');
  });

  it('says how long to wait after too many attempts', () => {
    expect(problemMessage(problem(429, 'TOO_MANY_REQUESTS', { retryAfter: 600 }))).toBe('Too many attempts. Try again in 10 minutes.');
  });

  it('lists field errors with readable names and wording', () => {
    const invalid = problem(400, 'VALIDATION_FAILED', {
      errors: [
        { field: 'email', message: 'must match format "email"' },
        { field: 'newPassword', message: 'must NOT have fewer than 8 characters' },
        { field: 'department.location', message: 'must NOT have more than 200 characters' },
      ],
    });
    expect(fieldErrorMessages(invalid)).toEqual([
      'E-mail is not a valid e-mail address.',
      'New password needs at least 8 characters.',
      'Location may have at most 200 characters.',
    ]);
    expect(problemMessage(invalid)).toBe(
      'Please check: E-mail is not a valid e-mail address. New password needs at least 8 characters. Location may have at most 200 characters.',
    );
  });

  it('covers an unreachable server, an unavailable one and an unexpected failure', () => {
    expect(problemMessage({ status: 0 })).toBe('The server cannot be reached. Check your connection and try again.');
    expect(problemMessage(problem(503, 'SERVICE_UNAVAILABLE'))).toBe('The service is not answering right now. Try again in a moment.');
    expect(problemMessage(problem(502))).toBe('The service is not answering right now. Try again in a moment.');
    expect(problemMessage(problem(500, 'INTERNAL', { requestId: 'abc' }))).toBe(
      'Something went wrong on the server. Try again; if it keeps happening, tell your administrator (reference abc).',
    );
  });

  it('never shows a raw body: unknown codes get a general sentence by status', () => {
    const odd = problem(418, 'TEAPOT', { detail: '{"stack":"at x (y.js:1:2)"}' });
    expect(problemMessage(odd)).toBe('The request was refused. Check your input and try again.');
    expect(problemMessage(problem(404))).toBe('It no longer exists. Reload the page.');
  });
});

describe('refused deletes', () => {
  const dependents = { rooms: 2, desks: 3, equipment: 0, futureReservations: 1 };

  it('reads the counts the service sends in `dependents`', () => {
    expect(toProblem(409, { code: 'HAS_DEPENDENTS', detail: 'prose', dependents }).dependents).toEqual(dependents);
    // Anything else in their place is left out, never guessed from the detail's prose.
    expect(toProblem(409, { code: 'HAS_DEPENDENTS', dependents: { ...dependents, desks: '3' } }).dependents).toBeUndefined();
    expect(toProblem(409, { code: 'HAS_DEPENDENTS', dependents: { rooms: 1 } }).dependents).toBeUndefined();
    expect(toProblem(409, { code: 'HAS_DEPENDENTS', dependents: { ...dependents, rooms: -1 } }).dependents).toBeUndefined();
    expect(toProblem(409, { code: 'HAS_DEPENDENTS', detail: 'Department 1 still has 2 rooms' }).dependents).toBeUndefined();
  });

  it('says what is in the way, in words', () => {
    const blocked = problem(409, 'HAS_DEPENDENTS', { dependents });
    expect(dependentsMessage(blocked, 'This office')).toBe('This office still has 2 rooms, 3 desks and 1 future reservation.');
    expect(problemMessage(blocked, 'This office')).toBe('This office still has 2 rooms, 3 desks and 1 future reservation.');
    expect(dependentsList({ rooms: 0, desks: 1, equipment: 4, futureReservations: 0 })).toBe('1 desk and 4 equipment items');
    expect(dependentsList({ rooms: 0, desks: 0, equipment: 1, futureReservations: 0 })).toBe('1 equipment item');
  });

  it('falls back to a general sentence without the counts', () => {
    const general = 'This room still has things under it (rooms, desks, equipment) or future reservations.';
    expect(dependentsMessage(problem(409, 'HAS_DEPENDENTS'), 'This room')).toBe(general);
    expect(dependentsMessage(problem(409, 'HAS_DEPENDENTS', { detail: 'Room 1 still has 2 desks; remove them first' }), 'This room')).toBe(general);
    expect(dependentsMessage(problem(409, 'HAS_DEPENDENTS', { dependents: { rooms: 0, desks: 0, equipment: 0, futureReservations: 0 } }), 'This room')).toBe(
      general,
    );
  });
});

describe('a booking that lost the race', () => {
  const conflict = problem(409, 'RESERVATION_CONFLICT', { conflicts: [{ startTime: '2030-05-15T07:00:00Z', endTime: '2030-05-15T10:00:00Z' }] });

  it('says someone else got the desk when it is no longer free', () => {
    expect(bookingConflictMessage(conflict, false)).toBe(
      'Sorry, someone else got this desk first (booked Wed, 15 May 2030, 09:00–12:00). The list of free desks has been refreshed.',
    );
  });

  it('points to the caller’s own booking when the desk is still free', () => {
    expect(bookingConflictMessage(conflict, true)).toBe(
      'You already have a booking at that time (Wed, 15 May 2030, 09:00–12:00). Change or cancel it under My reservations.',
    );
  });
});

// Issue 26, item 9: what people read comes from codes and structured members, never the service's detail.
describe('messages worded from structured members', () => {
  it('a walk-in or booking refused because of one of your own reservations says so (reason USER_OVERLAP)', () => {
    const conflicts = [{ startTime: '2030-05-15T07:00:00Z', endTime: '2030-05-15T10:00:00Z' }];
    const own = problemMessage(toProblem(409, { code: 'RESERVATION_CONFLICT', reason: 'USER_OVERLAP', conflicts, detail: 'raw' }));
    expect(own).toMatch(/^You already have a booking at that time \(Wed, 15 May 2030, 09:00–12:00\)/);
    expect(problemMessage(toProblem(409, { code: 'RESERVATION_CONFLICT', reason: 'DESK_RESERVED', conflicts }))).toMatch(/^That time is already booked/);
    // The reason wins over the state of the list.
    expect(bookingConflictMessage(problem(409, 'RESERVATION_CONFLICT', { reason: 'USER_OVERLAP' }), false)).toMatch(/^You already have a booking/);
    expect(bookingConflictMessage(problem(409, 'RESERVATION_CONFLICT', { reason: 'DESK_RESERVED' }), true)).toMatch(/^Sorry, someone else got this desk/);
  });

  it('a booking rule is worded from `rule`, not from the detail', () => {
    const far = toProblem(400, {
      code: 'RESERVATION_NOT_ALLOWED',
      detail: 'startTime lies more than 90 days ahead (the occurrence on 2030-06-04)',
      rule: { name: 'TOO_FAR_AHEAD', seconds: 90 * 86_400, date: '2030-06-04' },
    });
    const text = problemMessage(far);
    expect(text).toBe('You can book at most 90 days ahead. The date Tue, 4 Jun 2030 is one of them. Choose fewer times or an earlier end.');
    expect(text).not.toContain('startTime');
    expect(problemMessage(toProblem(400, { code: 'RESERVATION_NOT_ALLOWED', rule: { name: 'TOO_LONG', seconds: 86_400 } }))).toBe(
      'A booking may last at most 24 hours.',
    );
    expect(problemMessage(toProblem(400, { code: 'RESERVATION_NOT_ALLOWED', detail: 'startTime lies in the past' }))).not.toContain('startTime');
  });

  it("Ajv's bounds read as words: a repeat of 300 times", () => {
    const tooMany = toProblem(400, { code: 'VALIDATION_FAILED', errors: [{ field: 'rule.count', message: 'must be <= 260' }] });
    expect(problemMessage(tooMany)).toBe('Please check: Number of times may be at most 260.');
  });

  it('an import names its refused lines; a taken name and the same password have sentences of their own', () => {
    const rows = [
      { line: 3, column: 'name', reason: 'MISSING', message: 'the desk has no name' },
      { line: 8, column: 'name', reason: 'NAME_TAKEN', message: 'the room already has a desk "E-9"' },
    ];
    expect(problemMessage(toProblem(400, { code: 'IMPORT_INVALID', rows }))).toBe(
      'Nothing was added. Line 3: the desk has no name. Line 8: the room already has a desk "E-9".',
    );
    expect(problemMessage(problem(409, 'NAME_TAKEN'))).toMatch(/^This name is taken/);
    expect(problemMessage(problem(400, 'PASSWORD_UNCHANGED'))).toBe('Choose a new password other than the current one.');
  });
});

describe('booking policy refusals (docs/errors.md, docs/policies.md)', () => {
  const body = {
    code: 'POLICY_LIMIT_REACHED',
    detail: 'You have booked 2 of your 2 bookings this week',
    rule: { id: 'r1', kind: 'MAX_BOOKINGS', name: '' },
    limit: { name: 'MAX_BOOKINGS', max: 2, current: 2, requested: 1 },
    used: 2,
    window: { from: '2030-03-11T00:00:00.000Z', to: '2030-03-18T00:00:00.000Z', period: 'WEEK' },
  };

  it('reads the rule, the figures and the window, and words them', () => {
    const read = toProblem(409, body);
    expect(read.rule).toEqual({ name: '', id: 'r1', kind: 'MAX_BOOKINGS' });
    expect(read.window).toEqual(body.window);
    expect(problemMessage(read)).toBe('You have booked 2 of your 2 bookings this week.');
    expect(policyMessage(toProblem(409, { ...body, rule: { ...body.rule, name: 'Office days' } }))).toBe(
      'You have booked 2 of your 2 bookings this week (Office days).',
    );
  });

  it('words the other limits, and falls back on the server’s sentence (areas, windows)', () => {
    expect(policyMessage(toProblem(409, { ...body, limit: { name: 'CAPACITY', max: 6, current: 6, requested: 1 }, window: undefined }))).toBe(
      'This place is full that day: 6 of the 6 desks that may be booked are taken.',
    );
    expect(
      policyMessage(
        toProblem(403, {
          code: 'POLICY_VIOLATION',
          detail: 'Sales floor is reserved for Sales on Tuesdays (2030-04-02)',
          rule: { id: 'a', kind: 'AREA_RESERVED', name: 'Sales floor' },
        }),
      ),
    ).toBe('Sales floor is reserved for Sales on Tuesdays (2030-04-02).');
  });
});
