import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { displayTokens } from '../../../src/db/schema.js';
import { createTestApp, expectProblem, TestClock, type TestApp, type UserBody } from '../../helpers/app.js';
import { insertDepartment, insertDesk, insertReservation, insertRoom } from '../../helpers/fixtures.js';

/**
 * People and privacy (docs/people.md): the organisation's settings, a person's switches and stars,
 * and every people endpoint (who's in, the week view, whose desk is whose, the lobby display) in
 * each name-visibility mode, as a USER and as an ADMIN (docs/people.md#what-is-shown-to-whom), with
 * works-council mode (docs/people.md#works-council-mode).
 *
 * The office: ann (the viewing USER), ben and eve share team Alpha with ann, cat is in team Beta,
 * dan is in no team. Everyone booked a desk 09:00–17:00 on Monday 2030-05-06 (UTC office); dan
 * hides his bookings, eve books anonymously, ann starred cat; ben checked in.
 */

const PASSWORD = 'people-password-1';
const DAY = '2030-05-06';
const at = (time: string) => new Date(`${DAY}T${time}:00.000Z`);
const NAMES = ['ann', 'ben', 'cat', 'dan', 'eve'] as const;
type Name = (typeof NAMES)[number];
type Mode = 'everyone' | 'teams' | 'nobody';

interface PersonIn {
  userId: string;
  firstName: string;
  deskId: string | null;
  checkedIn: boolean | null;
}
interface PeopleIn {
  booked: number;
  checkedIn: number;
  anonymous: number;
  teams: Array<{ team: { name: string }; people: PersonIn[] }>;
  withoutTeam: PersonIn[];
  truncated: boolean;
}

describe('people and privacy', () => {
  let t: TestApp;
  let admin: string;
  const clock = new TestClock(at('08:50'));
  const users = {} as Record<Name, UserBody>;
  const tokens = {} as Record<Name, string>;
  const desks = {} as Record<Name, string>;
  let departmentId: string;

  const call = (
    token: string | undefined,
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    payload?: object,
    headers?: Record<string, string>,
  ) =>
    t.request({
      method,
      url,
      ...(token ? { token } : {}),
      ...(payload ? { payload: payload as Record<string, unknown> } : {}),
      ...(headers ? { headers } : {}),
    });
  const setMode = async (nameVisibility: Mode, worksCouncilMode = true) => {
    const response = await call(admin, 'PATCH', '/api/organisation/settings', { nameVisibility, worksCouncilMode });
    expect(response.statusCode, response.body).toBe(200);
  };
  const signInAll = async () => {
    admin = (await t.login('admin@example.test', 'admin-password-1')).accessToken;
    for (const name of NAMES) tokens[name] = (await t.login(`${name}@example.test`, PASSWORD)).accessToken;
  };
  const whoIsIn = async (token: string): Promise<PeopleIn> => {
    const response = await call(token, 'GET', `/api/people/in?departmentId=${departmentId}&date=${DAY}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<PeopleIn>();
  };
  /** The first names listed (under any team or none), each once, sorted. */
  const namesIn = (body: PeopleIn) =>
    [...new Set([...body.teams.flatMap((group) => group.people), ...body.withoutTeam].map((person) => person.firstName))].sort();
  const entryOf = (body: PeopleIn, name: Name) =>
    [...body.teams.flatMap((group) => group.people), ...body.withoutTeam].find((person) => person.userId === users[name].id);

  beforeAll(async () => {
    t = await createTestApp({ clock, env: { CHECK_IN_REQUIRED: 'true', PUBLIC_URL: 'https://desks.example.test' } });
    admin = await t.adminToken();
    const db = t.database.handle.db;
    const department = await insertDepartment(db, { location: 'Hamburg', building: 'Harbour', floor: 2 });
    departmentId = department.id;
    const room = await insertRoom(db, department.id, { name: 'Open space' });
    for (const name of NAMES) {
      users[name] = await t.createUser({
        email: `${name}@example.test`,
        firstName: name[0]!.toUpperCase() + name.slice(1),
        lastName: 'People',
        password: PASSWORD,
      });
      desks[name] = (await insertDesk(db, room.id, { name: `Desk ${name}` })).id;
    }
    await signInAll();
    const alpha = (await call(admin, 'POST', '/api/teams', { name: 'Alpha' })).json<{ id: string }>();
    const beta = (await call(admin, 'POST', '/api/teams', { name: 'Beta' })).json<{ id: string }>();
    expect((await call(admin, 'POST', `/api/teams/${alpha.id}/members`, { userIds: [users.ann.id, users.ben.id, users.eve.id] })).statusCode).toBe(204);
    expect((await call(admin, 'POST', `/api/teams/${beta.id}/members`, { userIds: [users.cat.id] })).statusCode).toBe(204);
    const reservations = {} as Record<Name, string>;
    for (const name of NAMES) {
      reservations[name] = (await insertReservation(db, { userId: users[name].id, deskId: desks[name], startTime: at('09:00'), endTime: at('17:00') })).id;
    }
    expect((await call(tokens.dan, 'PUT', '/api/self/privacy', { hideBookings: true })).json()).toEqual({ hideBookings: true, bookAnonymously: false });
    expect((await call(tokens.eve, 'PUT', '/api/self/privacy', { bookAnonymously: true })).json()).toEqual({ hideBookings: false, bookAnonymously: true });
    expect((await call(tokens.ann, 'PUT', `/api/self/starred-people/${users.cat.id}`)).statusCode).toBe(200);
    const checkIn = await call(tokens.ben, 'POST', `/api/reservation/${reservations.ben}/check-in`);
    expect(checkIn.statusCode, checkIn.body).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('the organisation settings (docs/people.md#the-organisations-settings)', () => {
    it('start at the most private values, readable by any user', async () => {
      const response = await call(tokens.ann, 'GET', '/api/organisation/settings');
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ nameVisibility: 'nobody', worksCouncilMode: true });
    });

    it('are changed by admins only, member by member, and refuse unknown values naming the field', async () => {
      expectProblem(await call(tokens.ann, 'PATCH', '/api/organisation/settings', { nameVisibility: 'everyone' }), 403);
      const bad = expectProblem(await call(admin, 'PATCH', '/api/organisation/settings', { nameVisibility: 'all' }), 400, 'VALIDATION_FAILED');
      expect(JSON.stringify(bad.errors)).toContain('nameVisibility');
      expectProblem(await call(admin, 'PATCH', '/api/organisation/settings', { colour: 'red' }), 400);
      const changed = await call(admin, 'PATCH', '/api/organisation/settings', { worksCouncilMode: false });
      expect(changed.json()).toMatchObject({ nameVisibility: 'nobody', worksCouncilMode: false });
      expect((await call(tokens.ben, 'GET', '/api/organisation/settings')).json()).toMatchObject({ nameVisibility: 'nobody', worksCouncilMode: false });
      await setMode('nobody', true);
    });
  });

  describe("a person's switches and stars (docs/people.md#a-persons-switches)", () => {
    it('are off until switched on, and a PUT keeps what it leaves out', async () => {
      expect((await call(tokens.ben, 'GET', '/api/self/privacy')).json()).toEqual({ hideBookings: false, bookAnonymously: false });
      expect((await call(tokens.dan, 'GET', '/api/self/privacy')).json()).toEqual({ hideBookings: true, bookAnonymously: false });
      expectProblem(await call(tokens.ben, 'PUT', '/api/self/privacy', { hideBookings: 'yes' }), 400);
    });

    it('stars colleagues: listed by name, twice changes nothing, not oneself nor an unknown user, unstar once', async () => {
      expect((await call(tokens.ben, 'PUT', `/api/self/starred-people/${users.dan.id}`)).statusCode).toBe(200);
      const twice = await call(tokens.ben, 'PUT', `/api/self/starred-people/${users.dan.id}`);
      expect(twice.json()).toEqual([expect.objectContaining({ userId: users.dan.id, firstName: 'Dan' })]);
      expectProblem(await call(tokens.ben, 'PUT', `/api/self/starred-people/${users.ben.id}`), 400);
      expectProblem(await call(tokens.ben, 'PUT', '/api/self/starred-people/00000000-0000-4000-8000-000000000000'), 400);
      expectProblem(await call(tokens.ben, 'PUT', '/api/self/starred-people/not-a-uuid'), 400);
      expect((await call(tokens.ben, 'DELETE', `/api/self/starred-people/${users.dan.id}`)).statusCode).toBe(204);
      expectProblem(await call(tokens.ben, 'DELETE', `/api/self/starred-people/${users.dan.id}`), 404);
      expect((await call(tokens.ben, 'GET', '/api/self/starred-people')).json()).toEqual([]);
    });
  });

  describe("who's in (docs/people.md#who-is-in) in each mode", () => {
    const seenBy: Record<Mode, { names: string[]; anonymous: number }> = {
      everyone: { names: ['Ann', 'Ben', 'Cat', 'Eve'], anonymous: 1 },
      teams: { names: ['Ann', 'Ben', 'Eve'], anonymous: 2 },
      nobody: { names: ['Ann'], anonymous: 4 },
    };
    for (const mode of ['everyone', 'teams', 'nobody'] as const) {
      it(`${mode}: a USER sees ${seenBy[mode].names.join(', ')} and counts the rest; an ADMIN sees everyone`, async () => {
        await setMode(mode);
        const user = await whoIsIn(tokens.ann);
        expect(namesIn(user)).toEqual(seenBy[mode].names);
        expect(user).toMatchObject({ booked: 5, checkedIn: 1, anonymous: seenBy[mode].anonymous, truncated: false });
        // Where eve sits is hers to hide; ann's own desk is shown to her.
        if (mode !== 'nobody') expect(entryOf(user, 'eve')).toMatchObject({ deskId: null });
        expect(entryOf(user, 'ann')).toMatchObject({ deskId: desks.ann });
        const byAdmin = await whoIsIn(admin);
        expect(namesIn(byAdmin)).toEqual(['Ann', 'Ben', 'Cat', 'Dan', 'Eve']);
        expect(byAdmin.anonymous).toBe(0);
        expect(entryOf(byAdmin, 'eve')).toMatchObject({ deskId: desks.eve });
        expect(byAdmin.teams.map((group) => group.team.name)).toEqual(['Alpha', 'Beta']);
        expect(byAdmin.withoutTeam.map((person) => person.firstName)).toEqual(['Dan']);
      });
    }

    it("works-council mode shows nobody's check-in but one's own, admins included; the count stays", async () => {
      await setMode('everyone', true);
      const byAdmin = await whoIsIn(admin);
      expect(entryOf(byAdmin, 'ben')).toMatchObject({ checkedIn: null });
      expect(byAdmin.checkedIn).toBe(1);
      expect(entryOf(await whoIsIn(tokens.ben), 'ben')).toMatchObject({ checkedIn: true });
      expect(entryOf(await whoIsIn(tokens.ann), 'ann')).toMatchObject({ checkedIn: false });
      await setMode('everyone', false);
      expect(entryOf(await whoIsIn(admin), 'ben')).toMatchObject({ checkedIn: true });
      expect(entryOf(await whoIsIn(tokens.ann), 'ben')).toMatchObject({ checkedIn: true });
    });

    it('answers 404 for an unknown office and 400 for a bad date or a missing office', async () => {
      expectProblem(await call(tokens.ann, 'GET', `/api/people/in?departmentId=00000000-0000-4000-8000-000000000000`), 404);
      expectProblem(await call(tokens.ann, 'GET', `/api/people/in?departmentId=${departmentId}&date=2030-13-01`), 400);
      expectProblem(await call(tokens.ann, 'GET', '/api/people/in'), 400);
    });

    it('defaults to today in the office and finds nobody on another day', async () => {
      await setMode('nobody');
      expect((await call(tokens.ann, 'GET', `/api/people/in?departmentId=${departmentId}`)).json()).toMatchObject({ date: DAY, booked: 5 });
      expect((await call(tokens.ann, 'GET', `/api/people/in?departmentId=${departmentId}&date=2030-05-07`)).json()).toMatchObject({ booked: 0, anonymous: 0 });
    });
  });

  describe('the week view (docs/people.md#the-week-view) in each mode', () => {
    beforeAll(async () => {
      for (const name of ['cat', 'dan'] as const) expect((await call(admin, 'PUT', `/api/self/starred-people/${users[name].id}`)).statusCode).toBe(200);
    });
    const shown: Record<Mode, { names: string[]; anonymous: number }> = {
      everyone: { names: ['Ann', 'Ben', 'Cat', 'Eve'], anonymous: 0 },
      teams: { names: ['Ann', 'Ben', 'Eve'], anonymous: 1 },
      nobody: { names: ['Ann'], anonymous: 3 },
    };
    for (const mode of ['everyone', 'teams', 'nobody'] as const) {
      it(`${mode}: ann's teams and starred cat, as far as the mode lets her; an ADMIN sees those they starred by name`, async () => {
        await setMode(mode);
        const response = await call(tokens.ann, 'GET', `/api/people/week?from=${DAY}`);
        expect(response.statusCode, response.body).toBe(200);
        const week = response.json<{
          people: Array<{ firstName: string; me: boolean; starred: boolean; days: Array<{ date: string; deskId: string | null }> }>;
          anonymous: Array<{ date: string; count: number }>;
          to: string;
        }>();
        expect(week.to).toBe('2030-05-12');
        expect(week.people.map((person) => person.firstName).sort()).toEqual(shown[mode].names);
        expect(week.people[0]).toMatchObject({ firstName: 'Ann', me: true, days: [{ date: DAY, deskId: desks.ann }] });
        expect(week.anonymous[0]).toEqual({ date: DAY, count: shown[mode].anonymous });
        expect(week.anonymous).toHaveLength(7);
        if (mode !== 'nobody') expect(week.people.find((person) => person.firstName === 'Eve')?.days[0]?.deskId).toBeNull();
        if (mode === 'everyone') expect(week.people.find((person) => person.firstName === 'Cat')).toMatchObject({ starred: true });
        // The admin starred cat and dan (who hides his bookings): both by name in every mode, nothing anonymous.
        const byAdmin = (await call(admin, 'GET', `/api/people/week?from=${DAY}`)).json<{
          people: Array<{ firstName: string; me: boolean; days: Array<{ deskId: string | null }> }>;
          anonymous: Array<{ count: number }>;
        }>();
        expect(byAdmin.people[0]).toMatchObject({ me: true, days: [] });
        expect(byAdmin.people.slice(1).map((person) => [person.firstName, person.days[0]?.deskId])).toEqual([
          ['Cat', desks.cat],
          ['Dan', desks.dan],
        ]);
        expect(byAdmin.anonymous.every((day) => day.count === 0)).toBe(true);
      });
    }

    it('shows a hidden person to nobody but admins: starring dan shows nothing', async () => {
      await setMode('everyone');
      await call(tokens.ann, 'PUT', `/api/self/starred-people/${users.dan.id}`);
      const week = (await call(tokens.ann, 'GET', `/api/people/week?from=${DAY}`)).json<{ people: Array<{ firstName: string }> }>();
      expect(week.people.map((person) => person.firstName)).not.toContain('Dan');
      await call(tokens.ann, 'DELETE', `/api/self/starred-people/${users.dan.id}`);
    });
  });

  describe('whose desk is whose (docs/people.md#the-floor-plan) in each mode', () => {
    const named: Record<Mode, Name[]> = { everyone: ['ann', 'ben', 'cat'], teams: ['ann', 'ben'], nobody: ['ann'] };
    for (const mode of ['everyone', 'teams', 'nobody'] as const) {
      it(`${mode}: a USER sees the names of ${named[mode].join(', ')}; an ADMIN every name`, async () => {
        await setMode(mode);
        const url = `/api/people/desks?departmentId=${departmentId}&from=${DAY}T08:00:00Z&to=${DAY}T18:00:00Z`;
        const names = async (token: string) => {
          const response = await call(token, 'GET', url);
          expect(response.statusCode, response.body).toBe(200);
          const body = response.json<{ desks: Array<{ deskId: string; occupants: Array<{ name: string | null }> }> }>();
          expect(body.desks).toHaveLength(5);
          return NAMES.filter((name) => body.desks.find((desk) => desk.deskId === desks[name])?.occupants[0]?.name !== null);
        };
        expect(await names(tokens.ann)).toEqual(named[mode]);
        expect(await names(admin)).toEqual([...NAMES]);
      });
    }

    it('refuses a window over 24 hours or backwards, naming `to`', async () => {
      const long = expectProblem(
        await call(tokens.ann, 'GET', `/api/people/desks?departmentId=${departmentId}&from=${DAY}T00:00:00Z&to=2030-05-07T01:00:00Z`),
        400,
      );
      expect(JSON.stringify(long.errors)).toContain('to');
      expectProblem(await call(tokens.ann, 'GET', `/api/people/desks?departmentId=${departmentId}&from=${DAY}T10:00:00Z&to=${DAY}T09:00:00Z`), 400);
    });
  });

  describe('works-council mode on attendance (docs/people.md#works-council-mode)', () => {
    it("refuses admins anyone's per-person attendance with AGGREGATES_ONLY; their own and the daily rates stay", async () => {
      await setMode('nobody', true);
      expectProblem(await call(admin, 'GET', `/api/attendance?departmentId=${departmentId}`), 403, 'AGGREGATES_ONLY');
      expectProblem(await call(admin, 'GET', `/api/attendance?userId=${users.ben.id}`), 403, 'AGGREGATES_ONLY');
      const adminId = (await call(admin, 'GET', '/api/self')).json<{ id: string }>().id;
      expect((await call(admin, 'GET', `/api/attendance?userId=${adminId}`)).statusCode).toBe(200);
      expect((await call(admin, 'GET', `/api/stats/no-shows?from=${DAY}&to=${DAY}&departmentId=${departmentId}`)).statusCode).toBe(200);
      expect((await call(tokens.ben, 'GET', '/api/attendance')).json()).toMatchObject({ totalElements: 1 });
      await setMode('nobody', false);
      expect((await call(admin, 'GET', `/api/attendance?departmentId=${departmentId}`)).json()).toMatchObject({ totalElements: 5 });
      await setMode('nobody', true);
    });
  });

  describe('the lobby display (docs/people.md#the-lobby-display)', () => {
    let token: string;
    let displayId: string;

    it('is created by admins only, its token shown once and stored hashed', async () => {
      expectProblem(await call(tokens.ann, 'POST', `/api/departments/${departmentId}/displays`, { name: 'Lobby' }), 403);
      expectProblem(await call(tokens.ann, 'GET', `/api/departments/${departmentId}/displays`), 403);
      expectProblem(await call(admin, 'POST', `/api/departments/${departmentId}/displays`, { name: '' }), 400);
      expectProblem(await call(admin, 'POST', '/api/departments/00000000-0000-4000-8000-000000000000/displays', { name: 'Lobby' }), 404);
      const created = await call(admin, 'POST', `/api/departments/${departmentId}/displays`, { name: 'Lobby' });
      expect(created.statusCode, created.body).toBe(200);
      const body = created.json<{ display: { id: string }; token: string; url: string }>();
      token = body.token;
      displayId = body.display.id;
      expect(body.url).toBe(`https://desks.example.test/display/${token}`);
      const listed = await call(admin, 'GET', `/api/departments/${departmentId}/displays`);
      expect(listed.json()).toEqual([expect.objectContaining({ id: displayId, name: 'Lobby' })]);
      expect(listed.body).not.toContain(token);
      const stored = await t.database.handle.db.select({ tokenHash: displayTokens.tokenHash }).from(displayTokens);
      expect(stored).toHaveLength(1);
      expect(stored[0]!.tokenHash).not.toContain(token);
      expect(stored[0]!.tokenHash).toBe(createHash('sha256').update(token).digest('base64url'));
    });

    it('answers its board without sign-in: names only in mode everyone, never of hidden or anonymous people', async () => {
      clock.set(at('09:30'));
      await signInAll();
      await setMode('nobody');
      const board = await call(undefined, 'GET', `/api/display/${token}`);
      expect(board.statusCode, board.body).toBe(200);
      const body = board.json<{
        names: boolean;
        booked: number;
        free: number;
        desks: Array<{ id: string; state: string; bookings: Array<{ name: string | null }> }>;
      }>();
      expect(body).toMatchObject({ names: false, booked: 5, free: 0 });
      expect(body.desks.every((desk) => desk.state === 'BOOKED' && desk.bookings[0]?.name === null)).toBe(true);
      // Kept for the minute: a change of mode shows from the next minute on.
      await setMode('everyone');
      expect((await call(undefined, 'GET', `/api/display/${token}`)).json()).toMatchObject({ names: false });
      clock.set(at('09:31'));
      const named = (await call(undefined, 'GET', `/api/display/${token}`)).json<typeof body>();
      expect(named.names).toBe(true);
      const nameOf = (name: Name) => named.desks.find((desk) => desk.id === desks[name])?.bookings[0]?.name;
      expect([nameOf('ann'), nameOf('ben'), nameOf('cat'), nameOf('dan'), nameOf('eve')]).toEqual(['Ann People', 'Ben People', 'Cat People', null, null]);
    });

    it('answers 304 to its ETag, and the same ETag the next minute when nothing changed', async () => {
      const first = await call(undefined, 'GET', `/api/display/${token}`);
      const etag = String(first.headers.etag);
      expect(etag).toMatch(/^"db-/);
      expect((await call(undefined, 'GET', `/api/display/${token}`, undefined, { 'if-none-match': etag })).statusCode).toBe(304);
      clock.set(at('09:32'));
      const next = await call(undefined, 'GET', `/api/display/${token}`, undefined, { 'if-none-match': etag });
      expect(next.statusCode).toBe(304);
    });

    it('shows no names in mode teams: nobody signed in shares a team', async () => {
      await setMode('teams');
      clock.set(at('09:33'));
      const body = (await call(undefined, 'GET', `/api/display/${token}`)).json<{
        names: boolean;
        desks: Array<{ bookings: Array<{ name: string | null }> }>;
      }>();
      expect(body.names).toBe(false);
      expect(body.desks.flatMap((desk) => desk.bookings.map((booking) => booking.name))).toEqual([null, null, null, null, null]);
    });

    it('answers 404 for a wrong or malformed token, and at once after a revocation', async () => {
      expectProblem(await call(undefined, 'GET', `/api/display/${'x'.repeat(43)}`), 404);
      expectProblem(await call(undefined, 'GET', '/api/display/short'), 404);
      expectProblem(await call(tokens.ann, 'DELETE', `/api/displays/${displayId}`), 403);
      expect((await call(admin, 'DELETE', `/api/displays/${displayId}`)).statusCode).toBe(204);
      expectProblem(await call(undefined, 'GET', `/api/display/${token}`), 404);
      expectProblem(await call(admin, 'DELETE', `/api/displays/${displayId}`), 404);
    });

    it('looks up unknown tokens at most 20 times a second, then answers 429 with Retry-After', async () => {
      clock.set(at('09:40'));
      const statuses: number[] = [];
      for (let i = 0; i < 25; i += 1) statuses.push((await call(undefined, 'GET', `/api/display/${String(i).padStart(43, 'y')}`)).statusCode);
      expect(statuses.filter((status) => status === 404)).toHaveLength(20);
      const limited = await call(undefined, 'GET', `/api/display/${'z'.repeat(43)}`);
      expectProblem(limited, 429);
      expect(limited.headers['retry-after']).toBe('1');
    });
  });
});
