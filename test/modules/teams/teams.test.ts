import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, drainOutbox, expectProblem, TestClock, type TestApp, type UserBody } from '../../helpers/app.js';
import { insertDesk, insertDeskInNewRoom } from '../../helpers/fixtures.js';
import { startSmtp, type TestSmtp } from '../../helpers/smtp.js';

/**
 * Teams (docs/policies.md#teams) and booking for someone else (docs/policies.md#booking-for-someone-else):
 * admin CRUD with its bounds and codes, what a manager may do to their team, delegates, and the
 * authorization matrix of booking for a person (USER, manager, delegate, admin), with the person's
 * notice mail and the rules checked against the person.
 */

const PASSWORD = 'teams-password-1';
const NOW = new Date('2030-03-04T08:00:00.000Z');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const at = (offsetMs: number) => new Date(NOW.getTime() + offsetMs).toISOString();

interface TeamBody {
  id: string;
  name: string;
  memberCount: number;
  managerCount: number;
}

describe('teams and booking for someone else', () => {
  let t: TestApp;
  let smtp: TestSmtp;
  let admin: string;
  const users: Record<string, UserBody> = {};
  const tokens: Record<string, string> = {};
  let roomId: string;
  let deskCounter = 0;
  let sales: TeamBody;

  const call = (token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
    t.request({ method, url, token, ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });
  const freshDesk = async () => (await insertDesk(t.database.handle.db, roomId, { name: `Team desk ${++deskCounter}` })).id;
  const book = async (token: string, userId: string, offset = DAY) =>
    call(token, 'POST', '/api/reservation', { deskId: await freshDesk(), startTime: at(offset), endTime: at(offset + 2 * HOUR), userId });

  beforeAll(async () => {
    smtp = await startSmtp();
    t = await createTestApp({ clock: new TestClock(NOW), env: { SMTP_URL: smtp.url, PUBLIC_URL: 'https://desks.example.test' } });
    admin = await t.adminToken();
    for (const name of ['manny', 'mia', 'otto', 'dana', 'pat']) {
      users[name] = await t.createUser({
        email: `${name}@example.test`,
        firstName: name[0]!.toUpperCase() + name.slice(1),
        lastName: 'Team',
        password: PASSWORD,
      });
      tokens[name] = (await t.login(users[name].email, PASSWORD)).accessToken;
    }
    roomId = (await insertDeskInNewRoom(t.database.handle.db)).room.id;
    // Sales: manny manages, mia is a member. otto is in no team. pat named dana her delegate.
    sales = (await call(admin, 'POST', '/api/teams', { name: 'Sales', description: 'The sales floor' })).json<TeamBody>();
    expect((await call(admin, 'POST', `/api/teams/${sales.id}/members`, { userIds: [users.mia!.id] })).statusCode).toBe(204);
    expect((await call(admin, 'POST', `/api/teams/${sales.id}/members`, { userIds: [users.manny!.id], role: 'MANAGER' })).statusCode).toBe(204);
    expect((await call(tokens.pat!, 'POST', '/api/self/delegates', { userId: users.dana!.id })).statusCode).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.stop();
  });

  describe('teams', () => {
    it('creates, lists by name with search, and refuses a duplicate name ignoring case with TEAM_NAME_TAKEN', async () => {
      const created = await call(admin, 'POST', '/api/teams', { name: 'Engineering', oidcGroup: 'eng' });
      expect(created.statusCode, created.body).toBe(200);
      expect(created.json()).toMatchObject({ name: 'Engineering', description: '', ldapGroup: null, oidcGroup: 'eng', memberCount: 0 });
      const duplicate = expectProblem(await call(admin, 'POST', '/api/teams', { name: 'engineering' }), 409, 'TEAM_NAME_TAKEN');
      expect(duplicate.errors).toEqual([{ field: 'name', message: 'is taken' }]);
      expectProblem(await call(admin, 'POST', '/api/teams', { name: 'Other', oidcGroup: 'eng' }), 409, 'TEAM_GROUP_TAKEN');
      const page = (await call(admin, 'GET', '/api/teams?search=ENG')).json<{ content: TeamBody[]; totalElements: number }>();
      expect(page.content.map((team) => team.name)).toEqual(['Engineering']);
      const all = (await call(admin, 'GET', '/api/teams?sort=name,desc')).json<{ content: TeamBody[] }>();
      expect(all.content.map((team) => team.name)).toEqual(['Sales', 'Engineering']);
      expect(all.content.find((team) => team.name === 'Sales')).toMatchObject({ memberCount: 2, managerCount: 1 });
    });

    it('bounds names and descriptions (400 naming the field) and refuses unknown members', async () => {
      const long = expectProblem(await call(admin, 'POST', '/api/teams', { name: 'x'.repeat(101) }), 400, 'VALIDATION_FAILED');
      expect(long.errors?.[0]?.field).toBe('name');
      expectProblem(await call(admin, 'POST', '/api/teams', { name: 'Y', description: 'd'.repeat(1001) }), 400, 'VALIDATION_FAILED');
      expectProblem(await call(admin, 'POST', '/api/teams', { name: '   ' }), 400, 'VALIDATION_FAILED');
      const tooMany = Array.from({ length: 101 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);
      expectProblem(await call(admin, 'POST', `/api/teams/${sales.id}/members`, { userIds: tooMany }), 400, 'VALIDATION_FAILED');
      const unknown = expectProblem(
        await call(admin, 'POST', `/api/teams/${sales.id}/members`, { userIds: [users.otto!.id, '00000000-0000-4000-8000-000000000001'] }),
        400,
        'VALIDATION_FAILED',
      );
      expect(unknown.errors).toEqual([{ field: 'userIds/1', message: 'no such user' }]);
    });

    it('lets only admins manage teams; a USER gets 403', async () => {
      expectProblem(await call(tokens.otto!, 'GET', '/api/teams'), 403, 'FORBIDDEN');
      expectProblem(await call(tokens.manny!, 'POST', '/api/teams', { name: 'Mine' }), 403, 'FORBIDDEN');
      expectProblem(await call(tokens.manny!, 'PUT', `/api/teams/${sales.id}`, { name: 'Renamed' }), 403, 'FORBIDDEN');
      expectProblem(await call(tokens.manny!, 'DELETE', `/api/teams/${sales.id}`), 403, 'FORBIDDEN');
    });

    it('lets a manager see and add plain members, but neither make managers nor remove one; a plain member sees no member list', async () => {
      expect((await call(tokens.manny!, 'GET', `/api/teams/${sales.id}/members`)).json<{ totalElements: number }>().totalElements).toBe(2);
      expectProblem(await call(tokens.mia!, 'GET', `/api/teams/${sales.id}/members`), 403, 'FORBIDDEN');
      expectProblem(await call(tokens.otto!, 'GET', `/api/teams/${sales.id}/members`), 404, 'NOT_FOUND');
      expectProblem(await call(tokens.manny!, 'POST', `/api/teams/${sales.id}/members`, { userIds: [users.otto!.id], role: 'MANAGER' }), 403, 'FORBIDDEN');
      expectProblem(await call(tokens.manny!, 'PUT', `/api/teams/${sales.id}/members/${users.mia!.id}`, { role: 'MANAGER' }), 403, 'FORBIDDEN');
      expect((await call(tokens.manny!, 'POST', `/api/teams/${sales.id}/members`, { userIds: [users.otto!.id] })).statusCode).toBe(204);
      expect((await call(tokens.manny!, 'DELETE', `/api/teams/${sales.id}/members/${users.otto!.id}`)).statusCode).toBe(204);
      expectProblem(await call(tokens.manny!, 'DELETE', `/api/teams/${sales.id}/members/${users.manny!.id}`), 403, 'FORBIDDEN');
      expectProblem(await call(tokens.mia!, 'DELETE', `/api/teams/${sales.id}/members/${users.manny!.id}`), 403, 'FORBIDDEN');
    });

    it('answers my teams with role and source', async () => {
      const mine = (await call(tokens.manny!, 'GET', '/api/self/teams')).json();
      expect(mine).toEqual([{ id: sales.id, name: 'Sales', description: 'The sales floor', role: 'MANAGER', source: 'ADMIN' }]);
      expect((await call(tokens.otto!, 'GET', '/api/self/teams')).json()).toEqual([]);
    });

    it('sets a role (admins) and removes a team with its memberships', async () => {
      const team = (await call(admin, 'POST', '/api/teams', { name: 'Short-lived' })).json<TeamBody>();
      await call(admin, 'POST', `/api/teams/${team.id}/members`, { userIds: [users.otto!.id] });
      const set = await call(admin, 'PUT', `/api/teams/${team.id}/members/${users.otto!.id}`, { role: 'MANAGER' });
      expect(set.json()).toMatchObject({ userId: users.otto!.id, role: 'MANAGER', source: 'ADMIN' });
      expect((await call(admin, 'DELETE', `/api/teams/${team.id}`)).statusCode).toBe(204);
      expect((await call(tokens.otto!, 'GET', '/api/self/teams')).json()).toEqual([]);
      expectProblem(await call(admin, 'GET', `/api/teams/${team.id}`), 404, 'NOT_FOUND');
    });
  });

  describe('delegates', () => {
    it('lists, refuses oneself and unknown people, and removes', async () => {
      expect((await call(tokens.pat!, 'GET', '/api/self/delegates')).json()).toMatchObject([{ userId: users.dana!.id, firstName: 'Dana' }]);
      expectProblem(await call(tokens.pat!, 'POST', '/api/self/delegates', { userId: users.pat!.id }), 400, 'VALIDATION_FAILED');
      expectProblem(await call(tokens.pat!, 'POST', '/api/self/delegates', { userId: '00000000-0000-4000-8000-000000000001' }), 400, 'VALIDATION_FAILED');
      expect((await call(tokens.otto!, 'POST', '/api/self/delegates', { userId: users.pat!.id })).statusCode).toBe(200);
      expect((await call(tokens.otto!, 'DELETE', `/api/self/delegates/${users.pat!.id}`)).statusCode).toBe(204);
      expectProblem(await call(tokens.otto!, 'DELETE', `/api/self/delegates/${users.pat!.id}`), 404, 'NOT_FOUND');
    });
  });

  describe('booking for someone else', () => {
    it('lets an admin, a manager of the person and their delegate book; a USER, a manager for a non-member and a plain member may not', async () => {
      // Allowed: admin for anyone, manny for mia (his team), dana for pat (her delegate).
      for (const [booker, person] of [
        ['admin', 'otto'],
        ['manny', 'mia'],
        ['dana', 'pat'],
      ] as const) {
        const response = await book(booker === 'admin' ? admin : tokens[booker]!, users[person]!.id);
        expect(response.statusCode, `${booker} for ${person}: ${response.body}`).toBe(200);
        expect(response.json()).toMatchObject({ userId: users[person]!.id, type: 'shared' });
      }
      // Refused: otto (no rights) for mia, manny for otto (not in his team), mia (plain member) for manny, dana for otto.
      for (const [booker, person] of [
        ['otto', 'mia'],
        ['manny', 'otto'],
        ['mia', 'manny'],
        ['dana', 'otto'],
        ['pat', 'dana'],
      ] as const) {
        expectProblem(await book(tokens[booker]!, users[person]!.id, 3 * DAY), 403, 'FORBIDDEN');
      }
    });

    it('books a recurring series for the person too: a manager for a member, never for someone outside the team; the person owns it, it says who booked it', async () => {
      const series = (token: string, userId: string, deskId: string) =>
        call(token, 'POST', '/api/reservation/series', {
          deskId,
          userId,
          startTime: at(10 * DAY),
          endTime: at(10 * DAY + 2 * HOUR),
          timeZone: 'UTC',
          rule: { frequency: 'DAILY', count: 3 },
        });
      expectProblem(await series(tokens.manny!, users.otto!.id, await freshDesk()), 403, 'FORBIDDEN');
      const made = await series(tokens.manny!, users.mia!.id, await freshDesk());
      expect(made.statusCode, made.body).toBe(200);
      const created = made.json<{ id: string; userId: string; occurrences: { reservationId: string }[] }>();
      expect(created.userId).toBe(users.mia!.id);
      expect(created.occurrences).toHaveLength(3);
      // Mia's to see and cancel; the manager may read it and cancel it for her; otto may not even see it.
      const byOthers = (await call(tokens.mia!, 'GET', '/api/self/booked-by-others')).json<{ reservationId: string; bookedBy: { id: string } }[]>();
      for (const occurrence of created.occurrences) {
        expect(byOthers.find((entry) => entry.reservationId === occurrence.reservationId)?.bookedBy.id).toBe(users.manny!.id);
      }
      expect((await call(tokens.manny!, 'GET', `/api/reservation/series/${created.id}`)).statusCode).toBe(200);
      expectProblem(await call(tokens.otto!, 'GET', `/api/reservation/series/${created.id}`), 404, 'NOT_FOUND');
      expect((await call(tokens.manny!, 'GET', `/api/reservation/series?userId=${users.mia!.id}`)).json<{ totalElements: number }>().totalElements).toBe(1);
      expectProblem(await call(tokens.manny!, 'GET', `/api/reservation/series?userId=${users.otto!.id}`), 403, 'FORBIDDEN');
      expect((await call(tokens.manny!, 'DELETE', `/api/reservation/series/${created.id}`)).statusCode).toBe(200);
    });

    it('tells the person by mail who booked, changed and cancelled for them, and shows who booked it', async () => {
      const booked = (await book(tokens.manny!, users.mia!.id, 2 * DAY)).json<{ id: string }>();
      await drainOutbox(t.app);
      const mail = await smtp.waitForMail((m) => m.to.includes('mia@example.test') && m.subject.startsWith('Booked for you'));
      expect(mail.text).toContain('Manny Team booked a desk for you');
      const byOthers = (await call(tokens.mia!, 'GET', '/api/self/booked-by-others')).json<{ reservationId: string; bookedBy: { firstName: string } }[]>();
      expect(byOthers.find((row) => row.reservationId === booked.id)?.bookedBy.firstName).toBe('Manny');
      // The manager sees, changes and cancels it; each is told.
      expect((await call(tokens.manny!, 'GET', `/api/reservation/${booked.id}`)).statusCode).toBe(200);
      const moved = await call(tokens.manny!, 'PUT', `/api/reservation/${booked.id}`, { endTime: at(2 * DAY + 3 * HOUR) });
      expect(moved.statusCode, moved.body).toBe(200);
      expect((await call(tokens.manny!, 'DELETE', `/api/reservation/${booked.id}`)).statusCode).toBe(204);
      await drainOutbox(t.app);
      await smtp.waitForMail((m) => m.to.includes('mia@example.test') && m.subject.startsWith('Changed for you'));
      await smtp.waitForMail((m) => m.to.includes('mia@example.test') && m.subject.startsWith('Cancelled for you'));
      // Someone outside sees nothing of it: 404 as for an unknown id.
      const other = (await book(tokens.manny!, users.mia!.id, 4 * DAY)).json<{ id: string }>();
      expectProblem(await call(tokens.otto!, 'GET', `/api/reservation/${other.id}`), 404, 'NOT_FOUND');
      // The person booking for themselves is not told.
      const notices = () => smtp.mails.filter((m) => m.to.includes('mia@example.test') && m.subject.includes('for you:')).length;
      await drainOutbox(t.app);
      const before = notices();
      expect((await book(tokens.mia!, users.mia!.id, 5 * DAY)).statusCode).toBe(200);
      await drainOutbox(t.app);
      expect(notices()).toBe(before);
    });

    it("checks the rules against the person: a delegate may not book beyond the horizon, and the overlap is the person's", async () => {
      const far = expectProblem(await book(tokens.dana!, users.pat!.id, 400 * DAY), 400, 'RESERVATION_NOT_ALLOWED');
      expect(far.rule).toMatchObject({ name: 'TOO_FAR_AHEAD' });
      // pat already holds a reservation at DAY (booked by dana above): a second one then is pat's overlap.
      const overlap = expectProblem(await book(tokens.dana!, users.pat!.id, DAY), 409, 'RESERVATION_CONFLICT');
      expect(overlap.reason).toBe('USER_OVERLAP');
    });

    it("lets a delegate list the person's reservations and offers the right people in the picker", async () => {
      expect((await call(tokens.dana!, 'GET', `/api/reservation?userId=${users.pat!.id}`)).json<{ totalElements: number }>().totalElements).toBeGreaterThan(0);
      expectProblem(await call(tokens.dana!, 'GET', `/api/reservation?userId=${users.otto!.id}`), 403, 'FORBIDDEN');
      const names = async (token: string, search?: string) =>
        (await call(token, 'GET', `/api/self/book-for${search ? `?search=${search}` : ''}`)).json<{ firstName: string }[]>().map((person) => person.firstName);
      expect(await names(tokens.manny!)).toEqual(['Mia']);
      expect(await names(tokens.dana!)).toEqual(['Pat']);
      expect(await names(tokens.otto!)).toEqual([]);
      expect(await names(admin, 'ott')).toEqual(['Otto']);
    });

    it('stops a delegate once the person removes them', async () => {
      expect((await call(tokens.pat!, 'DELETE', `/api/self/delegates/${users.dana!.id}`)).statusCode).toBe(204);
      expectProblem(await book(tokens.dana!, users.pat!.id, 6 * DAY), 403, 'FORBIDDEN');
    });
  });
});
