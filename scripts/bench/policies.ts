import { sql } from 'drizzle-orm';
import { queryRows, type Database } from '../../src/db/client.js';
import { policyRules, teamMembers, teams, users } from '../../src/db/schema.js';
import type { Dataset } from './database.js';
import { bearer, json, type Scenario } from './kit.js';

/**
 * Booking with ten booking-policy rules in force (docs/policies.md, docs/benchmarks.md#booking-policies),
 * to compare with `book` (POST /api/reservation with none in force) in the same run. The rules bind
 * the members of one bench team (EVERYWHERE × TEAM): ten kinds, four of them counted (weekly
 * bookings, daily bookings, monthly hours, concurrent bookings), so every booking takes the
 * advisory lock on its owner and reads what they hold. No CAPACITY rule: a daily capacity cap
 * serializes every booking of its scope and day (docs/benchmarks.md#booking-policies says by how much). They are generous: every booking passes. `book` books for
 * seeded users, in no team: for it the rules exist but none is in force.
 */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Bench people in the team (and desks): each books one desk an hour, its own, so bookings never collide. */
const PEOPLE = 300;
const TEAM_NAME = 'deskbook-bench policies';
const EMAIL_DOMAIN = 'policies.bench.invalid';

const state: { userIds: string[]; deskIds: string[]; from: number; next: number } = { userIds: [], deskIds: [], from: 0, next: 0 };

export const TEN_RULES = [
  { kind: 'BOOKING_WINDOW', params: { days: 3650 } },
  { kind: 'MIN_DURATION', params: { minutes: 15 } },
  { kind: 'MAX_DURATION', params: { minutes: 600 } },
  { kind: 'GRANULARITY', params: { unit: 'HOUR' } },
  { kind: 'WEEKDAYS_HOURS', params: { weekdays: [1, 2, 3, 4, 5, 6, 7] } },
  { kind: 'MAX_BOOKINGS', params: { count: 1000, per: 'WEEK' } },
  { kind: 'MAX_HOURS', params: { hours: 10000, per: 'MONTH' } },
  { kind: 'MAX_CONCURRENT', params: { count: 100000 } },
  { kind: 'MAX_BOOKINGS', params: { count: 1000, per: 'DAY' } },
  { kind: 'CANCEL_LEAD', params: { minutes: 60 } },
] as const;

async function removePolicyRows(db: Database): Promise<void> {
  // Their reservations go with them (foreign key cascade), the rules with the team.
  await db.execute(sql`delete from ${users} where email like ${`%@${EMAIL_DOMAIN}`}`);
  await db.execute(sql`delete from ${teams} where name = ${TEAM_NAME}`);
}

async function preparePolicies(db: Database, dataset: Dataset): Promise<void> {
  await removePolicyRows(db);
  const people = await db
    .insert(users)
    .values(Array.from({ length: PEOPLE }, (_, i) => ({ email: `bench-${i}@${EMAIL_DOMAIN}`, firstName: 'Policy', lastName: String(i) })))
    .returning({ id: users.id });
  const [team] = await db.insert(teams).values({ name: TEAM_NAME }).returning({ id: teams.id });
  await db.insert(teamMembers).values(people.map((person) => ({ teamId: team!.id, userId: person.id })));
  await db
    .insert(policyRules)
    .values(TEN_RULES.map((rule) => ({ scope: 'EVERYWHERE' as const, who: 'TEAM' as const, teamId: team!.id, kind: rule.kind, params: rule.params })));
  const [{ n } = { n: 0 }] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from policy_rules where team_id = ${team!.id}`);
  if (n !== TEN_RULES.length) throw new Error(`expected ${TEN_RULES.length} bench rules, found ${n}`);
  state.userIds = people.map((person) => person.id);
  state.deskIds = dataset.bookableDeskIds.slice(0, PEOPLE);
  // Four and a half years ahead, on the hour: clear of the other scenarios' bookings, within the bench's own rows.
  state.from = Math.floor((Date.now() + 4.5 * 365 * DAY) / DAY) * DAY + 6 * HOUR;
  state.next = 0;
}

function body(): string {
  const n = state.next++;
  const people = Math.min(state.userIds.length, state.deskIds.length);
  const start = state.from + Math.floor(n / people) * HOUR;
  return JSON.stringify({
    deskId: state.deskIds[n % people],
    userId: state.userIds[n % people],
    startTime: new Date(start).toISOString(),
    endTime: new Date(start + HOUR).toISOString(),
  });
}

export const POLICY_SCENARIOS: Scenario[] = [
  {
    id: 'book-policies',
    title: 'POST /api/reservation (ten policy rules in force)',
    server: 'app',
    expected: [200],
    postgresOnly: true,
    prepare: preparePolicies,
    cleanup: removePolicyRows,
    load: (context) => ({
      method: 'POST',
      headers: { ...json, ...bearer(context.adminToken) },
      requests: [{ path: '/api/reservation', setupRequest: (request) => ({ ...request, body: body() }) }],
    }),
  },
];
