import { sql } from 'drizzle-orm';
import type { Database } from '../../src/db/client.js';
import { policyAreas, policyAreaTeams, rooms, teamMembers, teams } from '../../src/db/schema.js';
import type { Dataset } from './database.js';
import { usersOverConnections, type Scenario } from './kit.js';

/**
 * Free desks near my team (docs/favourites.md#book-near-my-team): the seeded people put in teams of
 * TEAM_SIZE in the order of their e-mail (every signed-in bench user is in one), each team given a
 * room as its area, then GET /api/self/near-my-team for the search window as those users: the
 * teammates' bookings that day counted per room, area and office, the free desks ranked, 50 answered.
 */

const TEAM_SIZE = 25;
const PREFIX = 'deskbook-bench near-team';

async function removeNearTeamRows(db: Database): Promise<void> {
  // Memberships and area links go with the teams and areas (foreign key cascades).
  await db.execute(sql`delete from ${policyAreas} where name like ${`${PREFIX}%`}`);
  await db.execute(sql`delete from ${teams} where name like ${`${PREFIX}%`}`);
}

async function prepareNearTeam(db: Database, dataset: Dataset): Promise<void> {
  await removeNearTeamRows(db);
  const roomIds = (await db.select({ id: rooms.id }).from(rooms).orderBy(rooms.id)).map((room) => room.id);
  for (let first = 0, n = 0; first < dataset.users.length; first += TEAM_SIZE, n++) {
    const [team] = await db
      .insert(teams)
      .values({ name: `${PREFIX} ${n}` })
      .returning({ id: teams.id });
    await db.insert(teamMembers).values(dataset.users.slice(first, first + TEAM_SIZE).map((user) => ({ teamId: team!.id, userId: user.id })));
    if (roomIds.length === 0) continue;
    const [area] = await db
      .insert(policyAreas)
      .values({ name: `${PREFIX} ${n}`, kind: 'ROOM', roomId: roomIds[n % roomIds.length]!, exclusive: false })
      .returning({ id: policyAreas.id });
    await db.insert(policyAreaTeams).values({ areaId: area!.id, teamId: team!.id });
  }
}

export const FAVOURITES_SCENARIOS: Scenario[] = [
  {
    id: 'near-team',
    title: 'GET /api/self/near-my-team (teams of 25, 09–17)',
    server: 'app',
    expected: [200],
    maxStatements: 2,
    fixedRate: 100,
    postgresOnly: true,
    prepare: prepareNearTeam,
    cleanup: removeNearTeamRows,
    load: (context) => ({
      method: 'GET',
      requests: [
        {
          path:
            `/api/self/near-my-team?startTime=${encodeURIComponent(context.searchWindow.start)}` + `&endTime=${encodeURIComponent(context.searchWindow.end)}`,
        },
      ],
      ...usersOverConnections(context),
    }),
  },
];
