import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows, type Database } from '../../../src/db/client.js';
import { PoliciesRepository } from '../../../src/modules/policies/policies.repository.js';
import { createTestApp, TestClock, type TestApp, type UserBody } from '../../helpers/app.js';
import { createTestDatabase, StatementCounter } from '../../helpers/database.js';
import { insertDeskInNewRoom, insertReservation } from '../../helpers/fixtures.js';
import { addMember, insertTeam } from '../../helpers/teams.js';

/**
 * What the booking policies add to a booking (docs/benchmarks.md#booking-policies): with counted
 * rules in force one statement (policy_held: the locks and the owner's reservations), sent with
 * the insert; no approval statement where no requirement could hold at the desk, and the request
 * still asked where one could. The read of what the owner holds leaves out what the judging
 * transaction wrote (docs/policies.md#races), so a booking sent before that read is not counted
 * against itself. Statements are counted through openDatabase's onQuery hook (BEGIN and COMMIT
 * are the driver's, not counted).
 */

const NOW = new Date('2030-03-04T08:00:00.000Z');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const PASSWORD = 'cost-password-1';
const span = (day: number) => ({
  startTime: new Date(NOW.getTime() + day * DAY + HOUR).toISOString(),
  endTime: new Date(NOW.getTime() + day * DAY + 3 * HOUR).toISOString(),
});

describe('what the booking policies cost a booking', () => {
  let t: TestApp;
  let db: Database;
  let admin: string;
  let member: UserBody;
  let memberToken: string;
  let outsiderToken: string;
  const counter = new StatementCounter();

  beforeAll(async () => {
    const database = await createTestDatabase({ onQuery: counter.onQuery });
    t = await createTestApp({ database, clock: new TestClock(NOW), timedJobs: false });
    db = t.database.handle.db;
    admin = await t.adminToken();
    member = await t.createUser({ email: 'member@example.test', password: PASSWORD });
    await t.createUser({ email: 'outsider@example.test', password: PASSWORD });
    memberToken = (await t.login('member@example.test', PASSWORD)).accessToken;
    outsiderToken = (await t.login('outsider@example.test', PASSWORD)).accessToken;
    const team = await insertTeam(db);
    await addMember(db, team.id, member.id);
    // Two counted rules and one that needs nothing booked, for the team only.
    for (const rule of [
      { kind: 'MAX_BOOKINGS', count: 2, per: 'WEEK' },
      { kind: 'MAX_CONCURRENT', count: 10 },
      { kind: 'MAX_DURATION', minutes: 600 },
    ]) {
      const response = await t.request({
        method: 'POST',
        url: '/api/admin/policies/rules',
        token: admin,
        payload: { scope: { kind: 'EVERYWHERE' }, who: { kind: 'TEAM', teamId: team.id }, limit: rule },
      });
      expect(response.statusCode, response.body).toBe(200);
    }
  });
  afterAll(async () => {
    await t?.close();
    await t?.database.dispose();
  });

  const book = (token: string, deskId: string, day: number) => t.request({ method: 'POST', url: '/api/reservation', token, payload: { deskId, ...span(day) } });

  it('counted rules add one statement, sent with the insert; no approval statement where none could hold', async () => {
    const { desk } = await insertDeskInNewRoom(db);
    const { desk: other } = await insertDeskInNewRoom(db);
    const outsider = await counter.record(() => book(outsiderToken, desk.id, 0));
    expect(outsider.result.statusCode, outsider.result.body).toBe(200);
    const bound = await counter.record(() => book(memberToken, other.id, 0));
    expect(bound.result.statusCode, bound.result.body).toBe(200);
    const held = (sent: { sql: string }[]) => sent.filter((statement) => statement.sql.includes('policy_held(')).length;
    const approvals = (sent: { sql: string }[]) => sent.filter((statement) => statement.sql.includes('reservation_approvals')).length;
    expect(held(outsider.sent)).toBe(0);
    expect(held(bound.sent)).toBe(1);
    expect(bound.sent.length).toBe(outsider.sent.length + 1);
    expect(approvals(outsider.sent) + approvals(bound.sent)).toBe(0);
  });

  it('still asks for approval where a requirement holds, and the weekly limit counts the bookings before, not the one being written', async () => {
    const { department, desk } = await insertDeskInNewRoom(db);
    const requirement = await t.request({
      method: 'POST',
      url: '/api/approval-requirements',
      token: admin,
      payload: { scope: 'DEPARTMENT', departmentId: department.id },
    });
    expect(requirement.statusCode, requirement.body).toBe(200);
    const asked = await counter.record(() => book(memberToken, desk.id, 7));
    expect(asked.result.statusCode, asked.result.body).toBe(200);
    expect(asked.sent.filter((statement) => statement.sql.includes('reservation_approvals')).length).toBeGreaterThan(0);
    const [pending] = await queryRows<{ status: string }>(
      db,
      sql`select status from reservation_approvals where reservation_id = ${asked.result.json<{ id: string }>().id}`,
    );
    expect(pending?.status).toBe('PENDING');
    // The second of two allowed this week passes (it is not counted against itself); the third is refused.
    expect((await book(memberToken, desk.id, 8)).statusCode).toBe(200);
    const third = await book(memberToken, desk.id, 9);
    expect(third.statusCode).toBe(409);
    expect(third.json<{ code: string }>().code).toBe('POLICY_LIMIT_REACHED');
  });

  it("the owner's held reservations leave out those the reading transaction wrote, and include them once committed", async () => {
    const { desk } = await insertDeskInNewRoom(db);
    const from = new Date(NOW.getTime() + 20 * DAY);
    const to = new Date(from.getTime() + DAY);
    const inside = await db.transaction(async (tx) => {
      await insertReservation(tx, {
        userId: member.id,
        deskId: desk.id,
        startTime: new Date(from.getTime() + HOUR),
        endTime: new Date(from.getTime() + 2 * HOUR),
      });
      return new PoliciesRepository(tx).held(member.id, from, to, NOW, undefined, { notEnded: false, areas: true }, [`person:${member.id}`]);
    });
    expect(inside).toEqual([]);
    const after = await new PoliciesRepository(db).held(member.id, from, to, NOW, undefined, { notEnded: false, areas: true });
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ deskType: 'FLEX', areaIds: [] });
  });
});
