import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows, type Database } from '../../../src/db/client.js';
import { userPreferences } from '../../../src/db/schema.js';
import { createTestApp, drainOutbox, expectProblem, TestClock, type TestApp, type UserBody } from '../../helpers/app.js';
import { insertDepartment, insertDesk, insertRoom } from '../../helpers/fixtures.js';
import { parseCalendar } from '../../helpers/ical.js';
import { startSmtp, type TestSmtp } from '../../helpers/smtp.js';

/**
 * Approvals (docs/policies.md#approvals): nothing changes without a requirement; a booking under one
 * is PENDING and holds its desk; the approvers' inbox shows only what each may decide; approve,
 * reject and expiry with the mails they send (drained from the outbox); two approvers at once; the
 * calendar feed's TENTATIVE → CONFIRMED / CANCELLED; no check-in while pending.
 */

const PASSWORD = 'approvals-password-1';
const NOW = new Date('2030-03-04T08:00:00.000Z');
const HOUR = 3_600_000;
const at = (hours: number) => new Date(NOW.getTime() + hours * HOUR).toISOString();

interface ApprovalBody {
  reservationId: string;
  status: string;
  note: string | null;
  userName: string;
  decidedBy: string | null;
}

describe('approvals', () => {
  let t: TestApp;
  let db: Database;
  let smtp: TestSmtp;
  let admin: string;
  const users: Record<'alice' | 'bob' | 'mia' | 'oscar', { user: UserBody; token: string }> = {} as never;
  let salesTeam: string;
  let opsTeam: string;
  let approvalRoom: string;
  let approvalDesks: string[];
  let freeDesk: string;
  let teamRoomDesk: string;
  let slot = 0;

  /** A fresh two-hour slot tomorrow or later, so that tests never collide. */
  const nextSlot = () => {
    slot += 3;
    return { startTime: at(24 + slot), endTime: at(26 + slot) };
  };
  const book = (token: string, deskId: string, span = nextSlot()) =>
    t.request({ method: 'POST', url: '/api/reservation', token, payload: { deskId, ...span } });
  const booked = async (token: string, deskId: string, span = nextSlot()) => {
    const response = await book(token, deskId, span);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ id: string }>().id;
  };
  const approval = (id: string, token: string) => t.request({ method: 'GET', url: `/api/reservation/${id}/approval`, token });
  const decide = (id: string, action: 'approve' | 'reject', token: string, note?: string) =>
    t.request({ method: 'POST', url: `/api/approvals/${id}/${action}`, token, payload: note === undefined ? {} : { note } });
  const inbox = async (token: string) => {
    const response = await t.request({ method: 'GET', url: '/api/approvals?status=PENDING', token });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ totalElements: number; content: ApprovalBody[] }>();
  };
  const approvalRows = async () => (await queryRows<{ n: number }>(db, sql`select count(*)::int as n from reservation_approvals`))[0]!.n;
  const team = async (name: string, members: Array<[string, 'MEMBER' | 'MANAGER']>) => {
    const [row] = await queryRows<{ id: string }>(db, sql`insert into teams (name) values (${name}) returning id`);
    for (const [userId, role] of members)
      await db.execute(sql`insert into team_members (team_id, user_id, role) values (${row!.id}, ${userId}, ${role}::team_role)`);
    return row!.id;
  };
  const feedOf = async (token: string) => {
    const created = await t.request({ method: 'POST', url: '/api/self/calendar-feed', token });
    expect(created.statusCode, created.body).toBe(200);
    const path = new URL(created.json<{ url: string }>().url).pathname;
    return async (reservationId: string) => {
      const response = await t.request({ method: 'GET', url: path });
      expect(response.statusCode).toBe(200);
      return parseCalendar(response.body).events.find((event) => event.uid.startsWith(reservationId));
    };
  };

  /**
   * The calendar event of reservation `id` is cancelled (the feed serves it as STATUS:CANCELLED while
   * it is younger than 30 days by the database's clock, which the test clock does not move).
   */
  const expectCancelled = async (id: string) => {
    const [row] = await queryRows<{ cancelled: boolean }>(
      db,
      sql`select cancelled_at is not null as cancelled from calendar_events where reservation_id = ${id}`,
    );
    expect(row).toEqual({ cancelled: true });
  };

  beforeAll(async () => {
    smtp = await startSmtp();
    t = await createTestApp({ clock: new TestClock(NOW), env: { SMTP_URL: smtp.url, PUBLIC_URL: 'https://desks.example.test' } });
    db = t.database.handle.db;
    admin = await t.adminToken();
    for (const name of ['alice', 'bob', 'mia', 'oscar'] as const) {
      const user = await t.createUser({
        email: `${name}@example.test`,
        firstName: name[0]!.toUpperCase() + name.slice(1),
        lastName: 'Test',
        password: PASSWORD,
      });
      users[name] = { user, token: (await t.login(user.email, PASSWORD)).accessToken };
    }
    salesTeam = await team('Sales', [
      [users.alice.user.id, 'MEMBER'],
      [users.mia.user.id, 'MANAGER'],
    ]);
    opsTeam = await team('Ops', [[users.oscar.user.id, 'MANAGER']]);
    const department = await insertDepartment(db, { location: 'Berlin', building: 'HQ', floor: 2 });
    const room = await insertRoom(db, department.id, { name: 'Board room', available: true });
    approvalRoom = room.id;
    approvalDesks = [(await insertDesk(db, room.id, { name: 'B-1' })).id, (await insertDesk(db, room.id, { name: 'B-2' })).id];
    const open = await insertRoom(db, department.id, { name: 'Open space', available: true });
    freeDesk = (await insertDesk(db, open.id, { name: 'O-1' })).id;
    const teamRoom = await insertRoom(db, department.id, { name: 'Team room', available: true });
    teamRoomDesk = (await insertDesk(db, teamRoom.id, { name: 'T-1' })).id;
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.stop();
  });

  it('changes nothing where no requirement exists: the booking is confirmed and has no approval', async () => {
    const id = await booked(users.alice.token, approvalDesks[0]!);
    expectProblem(await approval(id, users.alice.token), 404, 'NOT_FOUND');
    expect(await approvalRows()).toBe(0);
    expect((await inbox(admin)).totalElements).toBe(0);
    expect((await t.request({ method: 'DELETE', url: `/api/reservation/${id}`, token: users.alice.token })).statusCode).toBe(204);
  });

  it('refuses a bad requirement with a 400 naming the field, and only admins manage them', async () => {
    const field = async (payload: Record<string, unknown>, name: string) => {
      const problem = expectProblem(await t.request({ method: 'POST', url: '/api/approval-requirements', token: admin, payload }), 400, 'VALIDATION_FAILED');
      expect(problem.errors?.map((error) => error.field)).toContain(name);
    };
    await field({ scope: 'ROOM' }, 'roomId');
    await field({ scope: 'ROOM', roomId: approvalRoom, deskType: 'FLEX' }, 'deskType');
    await field({ scope: 'ROOM', roomId: '00000000-0000-4000-8000-000000000000' }, 'roomId');
    await field({ scope: 'ROOM', roomId: approvalRoom, appliesTo: 'MEMBERS' }, 'teamId');
    await field({ scope: 'ROOM', roomId: approvalRoom, teamId: salesTeam }, 'teamId');
    await field({ scope: 'ROOM', roomId: approvalRoom, approverTeamId: '00000000-0000-4000-8000-000000000000' }, 'approverTeamId');
    expectProblem(
      await t.request({ method: 'POST', url: '/api/approval-requirements', token: users.mia.token, payload: { scope: 'ROOM', roomId: approvalRoom } }),
      403,
      'FORBIDDEN',
    );
    expect((await queryRows<{ n: number }>(db, sql`select count(*)::int as n from approval_requirements`))[0]!.n).toBe(0);

    const created = await t.request({
      method: 'POST',
      url: '/api/approval-requirements',
      token: admin,
      payload: { scope: 'ROOM', roomId: approvalRoom, approverTeamId: salesTeam },
    });
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json()).toMatchObject({ scope: 'ROOM', roomId: approvalRoom, appliesTo: 'EVERYONE', teamId: null, approverTeamId: salesTeam });
    const list = await t.request({ method: 'GET', url: '/api/approval-requirements', token: admin });
    expect(list.json<{ totalElements: number }>().totalElements).toBe(1);
  });

  it('makes a booking under it PENDING; the pending one holds its desk; approvers see it in their inbox and get one mail', async () => {
    const span = nextSlot();
    const id = await booked(users.alice.token, approvalDesks[0]!, span);
    expect((await approval(id, users.alice.token)).json()).toMatchObject({ reservationId: id, status: 'PENDING', userName: 'Alice Test', decidedBy: null });
    // The slot is held: nobody else gets the desk then.
    expectProblem(await book(users.bob.token, approvalDesks[0]!, span), 409, 'RESERVATION_CONFLICT');
    // Another desk outside the requirement is confirmed at once.
    const free = await booked(users.bob.token, freeDesk, span);
    expectProblem(await approval(free, users.bob.token), 404, 'NOT_FOUND');
    // Inbox: admins all, the approving team's manager, nobody else.
    expect((await inbox(admin)).content.map((row) => row.reservationId)).toEqual([id]);
    expect((await inbox(users.mia.token)).content.map((row) => row.reservationId)).toEqual([id]);
    expect((await inbox(users.oscar.token)).totalElements).toBe(0);
    expect((await inbox(users.bob.token)).totalElements).toBe(0);
    expectProblem(await approval(id, users.bob.token), 404, 'NOT_FOUND');
    const mine = await t.request({ method: 'GET', url: '/api/self/approvals?status=PENDING', token: users.alice.token });
    expect(mine.json<{ content: ApprovalBody[] }>().content.map((row) => row.reservationId)).toEqual([id]);
    // The reservation DTO does not grow.
    expect(Object.keys((await t.request({ method: 'GET', url: `/api/reservation/${id}`, token: users.alice.token })).json())).not.toContain('status');

    const before = smtp.mails.length;
    await drainOutbox(t.app);
    const asks = smtp.mails.slice(before).filter((mail) => mail.subject.includes('awaits your approval'));
    expect(asks.map((mail) => mail.to).sort()).toEqual(['admin@example.test', 'mia@example.test']);
    expect(asks[0]!.text).toContain('Alice Test: desk B-1 (Board room)');
    expect(asks[0]!.text).toContain('https://desks.example.test/approvals');

    // An approver's own booking needs no approval (an admin, a manager of the approving team).
    const own = await booked(users.mia.token, approvalDesks[1]!);
    expectProblem(await approval(own, users.mia.token), 404, 'NOT_FOUND');
    await t.request({ method: 'DELETE', url: `/api/reservation/${own}`, token: users.mia.token });
  });

  it('folds many requests into one mail per approver', async () => {
    await drainOutbox(t.app);
    const before = smtp.mails.length;
    const ids = [
      await booked(users.alice.token, approvalDesks[0]!),
      await booked(users.alice.token, approvalDesks[0]!),
      await booked(users.bob.token, approvalDesks[1]!),
    ];
    await drainOutbox(t.app);
    const toMia = smtp.mails.slice(before).filter((mail) => mail.to === 'mia@example.test' && mail.subject.includes('approval'));
    expect(toMia).toHaveLength(1);
    expect(toMia[0]!.subject).toMatch(/^\d+ bookings await your approval$/);
    for (const id of ids) expect((await decide(id, 'reject', admin)).statusCode).toBe(200);
  });

  it('writes the approvers’ mail and the decision mail in each one’s language (docs/i18n.md#mails-and-the-calendar-feed)', async () => {
    await db.insert(userPreferences).values([
      { userId: users.mia.user.id, language: 'de' },
      { userId: users.alice.user.id, language: 'de' },
    ]);
    try {
      await drainOutbox(t.app);
      const before = smtp.mails.length;
      const id = await booked(users.alice.token, approvalDesks[0]!);
      await drainOutbox(t.app);
      const ask = smtp.mails.slice(before).find((mail) => mail.to === 'mia@example.test');
      expect(ask?.subject).toMatch(/^(Eine Reservierung wartet|\d+ Reservierungen warten) auf Ihre Genehmigung$/);
      expect(ask?.text).toMatch(/^Hallo Mia,\n\n(eine Reservierung wartet|\d+ Reservierungen warten) auf Ihre Genehmigung:\n\n- /);
      expect(ask?.text).toContain('- Alice Test: Arbeitsplatz B-1 (Board room), ');
      expect(ask?.text).toContain('Genehmigen oder ablehnen: https://desks.example.test/approvals');
      // The admin chose no language: the server's default, English.
      expect(smtp.mails.slice(before).find((mail) => mail.to === 'admin@example.test')?.subject).toMatch(/await(s)? your approval$/);

      expect((await decide(id, 'reject', users.mia.token, 'Vorstandssitzung')).statusCode).toBe(200);
      await drainOutbox(t.app);
      const outcome = smtp.mails.slice(before).find((mail) => mail.to === 'alice@example.test' && mail.subject.startsWith('Arbeitsplatz'));
      expect(outcome?.subject).toBe('Arbeitsplatz B-1: Reservierung abgelehnt');
      expect(outcome?.text).toMatch(
        /^Hallo Alice,\n\nIhre Reservierung des Arbeitsplatzes B-1 in Board room ab .+ \(.+\) wurde abgelehnt, daher wurde die Reservierung storniert\.\n\nAnmerkung: Vorstandssitzung\n\nIhre Reservierungen: https:\/\/desks\.example\.test\/reservations\n$/,
      );
    } finally {
      await db.delete(userPreferences);
    }
  });

  it('lets only an admin or a manager of the approving team decide; approving confirms the calendar event and mails the owner', async () => {
    const feed = await feedOf(users.alice.token);
    const id = await booked(users.alice.token, approvalDesks[1]!);
    const tentative = await feed(id);
    expect(tentative?.status).toBe('TENTATIVE');
    // A manager of another team may not even see it; its owner sees it but may not decide it.
    expectProblem(await decide(id, 'approve', users.oscar.token), 404, 'NOT_FOUND');
    expectProblem(await decide(id, 'approve', users.alice.token), 403, 'FORBIDDEN');
    expectProblem(await decide(id, 'approve', users.bob.token), 404, 'NOT_FOUND');
    await drainOutbox(t.app);
    const before = smtp.mails.length;
    const approved = await decide(id, 'approve', users.mia.token, 'Enjoy the view');
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json()).toMatchObject({ status: 'APPROVED', note: 'Enjoy the view', decidedBy: users.mia.user.id });
    expectProblem(await decide(id, 'reject', admin), 409, 'APPROVAL_DECIDED');
    const confirmed = await feed(id);
    expect(confirmed?.status).toBe('CONFIRMED');
    expect(confirmed!.sequence).toBeGreaterThan(tentative!.sequence);
    await drainOutbox(t.app);
    const mails = smtp.mails.slice(before).filter((mail) => mail.to === 'alice@example.test');
    const outcome = mails.find((mail) => mail.subject === 'Desk B-2: booking approved');
    expect(outcome?.text).toContain('Enjoy the view');
    // The invitation is sent again, now confirmed.
    const invitation = mails.find((mail) => mail.calendar !== undefined);
    expect(invitation?.calendar?.content).toContain('STATUS:CONFIRMED');
    expect((await inbox(users.mia.token)).content.map((row) => row.reservationId)).not.toContain(id);
  });

  it('rejecting cancels the reservation (its calendar event too) and mails the owner with the note', async () => {
    const feed = await feedOf(users.alice.token);
    const id = await booked(users.alice.token, approvalDesks[0]!);
    expect((await feed(id))?.status).toBe('TENTATIVE');
    await drainOutbox(t.app);
    const before = smtp.mails.length;
    const rejected = await decide(id, 'reject', admin, 'The board meets then');
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(rejected.json()).toMatchObject({ status: 'REJECTED', note: 'The board meets then' });
    expectProblem(await t.request({ method: 'GET', url: `/api/reservation/${id}`, token: users.alice.token }), 404, 'NOT_FOUND');
    expect((await approval(id, users.alice.token)).json()).toMatchObject({ status: 'REJECTED' });
    await drainOutbox(t.app);
    expect((await feed(id))?.status).not.toBe('TENTATIVE');
    await expectCancelled(id);
    const mail = smtp.mails.slice(before).find((m) => m.subject === 'Desk B-1: booking rejected');
    expect(mail?.to).toBe('alice@example.test');
    expect(mail?.text).toContain('The board meets then');
  });

  it('lets one of two approvers deciding at once win; the other gets 409', async () => {
    const id = await booked(users.bob.token, approvalDesks[1]!);
    const answers = await Promise.all([decide(id, 'approve', users.mia.token), decide(id, 'reject', admin)]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    const loser = answers.find((answer) => answer.statusCode === 409)!;
    expect(loser.json<{ code: string }>().code).toBe('APPROVAL_DECIDED');
    const winner = answers.find((answer) => answer.statusCode === 200)!.json<ApprovalBody>();
    expect((await approval(id, users.bob.token)).json<ApprovalBody>().status).toBe(winner.status);
  });

  it('refuses check-in and walk-in while pending, and expires a request not approved before its start', async () => {
    const start = NOW.getTime() + 10 * 60_000;
    const id = await booked(users.alice.token, approvalDesks[1]!, {
      startTime: new Date(start).toISOString(),
      endTime: new Date(start + 2 * HOUR).toISOString(),
    });
    expectProblem(await t.request({ method: 'POST', url: `/api/reservation/${id}/check-in`, token: users.alice.token }), 409, 'APPROVAL_PENDING');
    expectProblem(await t.request({ method: 'POST', url: `/api/desks/${approvalDesks[0]}/walk-in`, token: users.bob.token }), 409, 'WALK_IN_NOT_POSSIBLE');
    const feed = await feedOf(users.alice.token);
    expect((await feed(id))?.status).toBe('TENTATIVE');
    await drainOutbox(t.app);
    const before = smtp.mails.length;

    expect(await t.app.background.expireApprovals()).toBe(0);
    t.clock.set(new Date(start));
    try {
      expect(await t.app.background.expireApprovals()).toBe(1);
      expect(await t.app.background.expireApprovals()).toBe(0);
    } finally {
      t.clock.set(NOW);
    }
    expect((await approval(id, users.alice.token)).json()).toMatchObject({ status: 'EXPIRED', decidedBy: null });
    expectProblem(await t.request({ method: 'GET', url: `/api/reservation/${id}`, token: users.alice.token }), 404, 'NOT_FOUND');
    expectProblem(await decide(id, 'approve', admin), 409, 'APPROVAL_DECIDED');
    await drainOutbox(t.app);
    await expectCancelled(id);
    expect(smtp.mails.slice(before).find((mail) => mail.subject === 'Desk B-2: booking not approved in time')?.to).toBe('alice@example.test');
  });

  it('applies to the people of a team only, or only to those outside it', async () => {
    const members = await t.request({
      method: 'POST',
      url: '/api/approval-requirements',
      token: admin,
      payload: { scope: 'DESK_TYPE', deskType: 'FLEX', appliesTo: 'NON_MEMBERS', teamId: salesTeam, approverTeamId: opsTeam },
    });
    expect(members.statusCode, members.body).toBe(200);
    // Bob is outside Sales: his booking of any FLEX desk now needs Ops' approval; Alice's does not.
    const bobs = await booked(users.bob.token, teamRoomDesk);
    expect((await approval(bobs, users.bob.token)).json<ApprovalBody>().status).toBe('PENDING');
    expect((await inbox(users.oscar.token)).content.map((row) => row.reservationId)).toEqual([bobs]);
    const alices = await booked(users.alice.token, teamRoomDesk);
    expectProblem(await approval(alices, users.alice.token), 404, 'NOT_FOUND');
    // The room's requirement is more specific than the desk type's: Sales' managers decide there.
    const inRoom = await booked(users.bob.token, approvalDesks[0]!);
    expectProblem(await decide(inRoom, 'approve', users.oscar.token), 404, 'NOT_FOUND');
    expect((await decide(inRoom, 'approve', users.mia.token)).statusCode).toBe(200);
    // Removing the requirement asks nothing of new bookings; its pending request stays, for admins.
    expect((await t.request({ method: 'DELETE', url: `/api/approval-requirements/${members.json<{ id: string }>().id}`, token: admin })).statusCode).toBe(204);
    const after = await booked(users.bob.token, teamRoomDesk);
    expectProblem(await approval(after, users.bob.token), 404, 'NOT_FOUND');
    expect((await inbox(users.oscar.token)).totalElements).toBe(0);
    expect((await inbox(admin)).content.map((row) => row.reservationId)).toContain(bobs);
  });

  it('drops a pending request whose reservation its owner cancelled', async () => {
    const id = await booked(users.alice.token, approvalDesks[0]!);
    expect((await t.request({ method: 'DELETE', url: `/api/reservation/${id}`, token: users.alice.token })).statusCode).toBe(204);
    expect((await inbox(admin)).content.map((row) => row.reservationId)).not.toContain(id);
    await t.app.background.expireApprovals();
    expect((await queryRows<{ n: number }>(db, sql`select count(*)::int as n from reservation_approvals where reservation_id = ${id}`))[0]!.n).toBe(0);
  });

  it('holds in an area, before the room it lies in; bad input names areaId; deleting the area deletes its requirements', async () => {
    // docs/policies.md#approvals: an area's requirement is the most specific.
    const created = await t.request({
      method: 'POST',
      url: '/api/admin/policies/areas',
      token: admin,
      payload: { name: 'Window seats', kind: 'DESKS', deskIds: [approvalDesks[1]!], teamIds: [salesTeam], exclusive: false },
    });
    expect(created.statusCode, created.body).toBe(200);
    const areaId = created.json<{ id: string }>().id;
    const field = async (payload: Record<string, unknown>, name: string) => {
      const problem = expectProblem(await t.request({ method: 'POST', url: '/api/approval-requirements', token: admin, payload }), 400, 'VALIDATION_FAILED');
      expect(problem.errors?.map((error) => error.field)).toContain(name);
    };
    await field({ scope: 'AREA' }, 'areaId');
    await field({ scope: 'AREA', areaId: '00000000-0000-4000-8000-000000000000' }, 'areaId');
    await field({ scope: 'ROOM', roomId: approvalRoom, areaId }, 'areaId');
    await field({ scope: 'AREA', areaId, roomId: approvalRoom }, 'roomId');

    const requirement = await t.request({
      method: 'POST',
      url: '/api/approval-requirements',
      token: admin,
      payload: { scope: 'AREA', areaId, approverTeamId: opsTeam },
    });
    expect(requirement.statusCode, requirement.body).toBe(200);
    expect(requirement.json()).toMatchObject({ scope: 'AREA', areaId, roomId: null, departmentId: null, deskType: null, approverTeamId: opsTeam });

    // The area's desk: Ops decides (the area before the room, whose approvers are Sales' managers).
    const inArea = await booked(users.bob.token, approvalDesks[1]!);
    expect((await approval(inArea, users.bob.token)).json<ApprovalBody>().status).toBe('PENDING');
    expect((await inbox(users.oscar.token)).content.map((row) => row.reservationId)).toEqual([inArea]);
    expectProblem(await decide(inArea, 'approve', users.mia.token), 404, 'NOT_FOUND');
    // The room's other desk is not in the area: the room's requirement holds there, Ops sees nothing.
    const inRoom = await booked(users.bob.token, approvalDesks[0]!);
    expect((await inbox(users.oscar.token)).content.map((row) => row.reservationId)).not.toContain(inRoom);
    expect((await decide(inRoom, 'approve', users.mia.token)).statusCode).toBe(200);
    // Moving into the area asks anew, of the area's approvers.
    const span = nextSlot();
    const moved = await t.request({
      method: 'PUT',
      url: `/api/reservation/${inRoom}`,
      token: users.bob.token,
      payload: { deskId: approvalDesks[1]!, ...span },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect((await approval(inRoom, users.bob.token)).json<ApprovalBody>().status).toBe('PENDING');
    expect((await inbox(users.oscar.token)).content.map((row) => row.reservationId).sort()).toEqual([inArea, inRoom].sort());
    expect((await decide(inArea, 'approve', users.oscar.token)).statusCode).toBe(200);
    expect((await decide(inRoom, 'reject', users.oscar.token)).statusCode).toBe(200);

    // An area's requirement alone (no room, office or desk-type requirement on the desk) asks too.
    const alone = await t.request({
      method: 'POST',
      url: '/api/admin/policies/areas',
      token: admin,
      payload: { name: 'Team corner', kind: 'DESKS', deskIds: [teamRoomDesk], teamIds: [salesTeam], exclusive: false },
    });
    expect(alone.statusCode, alone.body).toBe(200);
    const aloneId = alone.json<{ id: string }>().id;
    const before = await booked(users.bob.token, teamRoomDesk);
    expectProblem(await approval(before, users.bob.token), 404, 'NOT_FOUND');
    const aloneRequirement = await t.request({ method: 'POST', url: '/api/approval-requirements', token: admin, payload: { scope: 'AREA', areaId: aloneId } });
    expect(aloneRequirement.statusCode, aloneRequirement.body).toBe(200);
    const inCorner = await booked(users.bob.token, teamRoomDesk);
    expect((await approval(inCorner, users.bob.token)).json<ApprovalBody>().status).toBe('PENDING');
    expect((await decide(inCorner, 'approve', admin)).statusCode).toBe(200);
    expect((await t.request({ method: 'DELETE', url: `/api/admin/policies/areas/${aloneId}`, token: admin })).statusCode).toBe(204);

    // Deleting the area deletes its requirement (as deleting a room does).
    expect((await t.request({ method: 'DELETE', url: `/api/admin/policies/areas/${areaId}`, token: admin })).statusCode).toBe(204);
    expect((await queryRows<{ n: number }>(db, sql`select count(*)::int as n from approval_requirements where area_id = ${areaId}`))[0]!.n).toBe(0);
    expect((await queryRows<{ n: number }>(db, sql`select count(*)::int as n from approval_requirements`))[0]!.n).toBeGreaterThan(0);
  });
});
