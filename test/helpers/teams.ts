import { teamMembers, teams } from '../../src/db/schema.js';
import type { Database } from '../../src/db/client.js';

/**
 * Teams written straight into the database, for the policy tests: the teams module (its own
 * branch of work) is the one writer of these tables in the service (docs/policies.md#teams).
 */
let made = 0;

export async function insertTeam(db: Database, name = `Team ${++made}`): Promise<{ id: string; name: string }> {
  const [row] = await db.insert(teams).values({ name }).returning({ id: teams.id, name: teams.name });
  return row!;
}

export async function addMember(db: Database, teamId: string, userId: string, role: 'MEMBER' | 'MANAGER' = 'MEMBER'): Promise<void> {
  await db.insert(teamMembers).values({ teamId, userId, role });
}
