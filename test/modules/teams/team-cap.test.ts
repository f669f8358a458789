import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows, type Database } from '../../../src/db/client.js';
import { TEAMS_MAX } from '../../../src/modules/teams/teams.schemas.js';
import { createTestApp, expectProblem, type TestApp } from '../../helpers/app.js';

/**
 * The cap on teams holds under concurrent creations (docs/policies.md#managing-teams-srcmodulesteams):
 * each creation counts and inserts under one advisory lock, so requests in flight together never
 * pass it. Without the lock several of them read the same count and all insert.
 */

const ATTEMPTS = 12;
const FREE = 4;

describe('the team cap under concurrent creations', () => {
  let t: TestApp;
  let db: Database;

  beforeAll(async () => {
    t = await createTestApp();
    db = t.database.handle.db;
  });
  afterAll(async () => {
    await t?.close();
  });

  it(`${ATTEMPTS} creations at once with room for ${FREE}: exactly ${FREE} succeed, the others get 409 TOO_MANY_TEAMS`, async () => {
    const admin = await t.adminToken();
    await db.execute(sql`insert into teams (name) select 'Filler ' || n from generate_series(1, ${TEAMS_MAX - FREE}) as n`);
    const answers = await Promise.all(
      Array.from({ length: ATTEMPTS }, (_, i) => t.request({ method: 'POST', url: '/api/teams', token: admin, payload: { name: `Racer ${i}` } })),
    );
    const created = answers.filter((answer) => answer.statusCode === 200);
    expect(created).toHaveLength(FREE);
    for (const answer of answers.filter((candidate) => candidate.statusCode !== 200)) expectProblem(answer, 409, 'TOO_MANY_TEAMS');
    expect((await queryRows<{ n: number }>(db, sql`select count(*)::int as n from teams`))[0]!.n).toBe(TEAMS_MAX);
  });
});
