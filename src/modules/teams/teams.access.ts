import { and, eq, isNotNull, sql, type SQL } from 'drizzle-orm';
import { queryRows, type Database } from '../../db/client.js';
import { teamMembers, teams } from '../../db/schema.js';

/**
 * What other modules read and ask of teams (docs/policies.md#teams): they go through these
 * functions, never the tables. `team_members` is written only here and in teams.repository.ts.
 */

/** Whether `managerId` manages a team `userId` is a member of (themselves included). */
export async function isManagerOf(db: Database, managerId: string, userId: string): Promise<boolean> {
  const rows = await queryRows<{ found: number }>(
    db,
    sql`select 1 as found from team_members manager join team_members member on member.team_id = manager.team_id
        where manager.user_id = ${managerId} and manager.role = 'MANAGER' and member.user_id = ${userId} limit 1`,
  );
  return rows.length > 0;
}

/** The ids of the teams `userId` is a member of (any role, any source). */
export async function teamIdsOf(db: Database, userId: string): Promise<string[]> {
  const rows = await db.select({ teamId: teamMembers.teamId }).from(teamMembers).where(eq(teamMembers.userId, userId));
  return rows.map((row) => row.teamId);
}

/** Whether `userId` manages any team. */
export async function managesATeam(db: Database, userId: string): Promise<boolean> {
  const rows = await db
    .select({ teamId: teamMembers.teamId })
    .from(teamMembers)
    .where(and(eq(teamMembers.userId, userId), eq(teamMembers.role, 'MANAGER')))
    .limit(1);
  return rows.length > 0;
}

/** Every team's directory group (DN), for the one directory search at sign-in (docs/behaviour.md#ldap-groups). */
export async function teamDirectoryGroups(db: Database): Promise<string[]> {
  const rows = await db.select({ ldapGroup: teams.ldapGroup }).from(teams).where(isNotNull(teams.ldapGroup));
  return rows.map((row) => row.ldapGroup!);
}

/**
 * Keeps the memberships of one source in step with the groups a sign-in read (docs/policies.md#teams):
 * `groups` are directory DNs (compared ignoring case) for LDAP, groups-claim values (exact) for OIDC.
 * The person joins, as MEMBER, each team whose group is listed, and leaves the teams of that source
 * whose group is not; memberships of another source (ADMIN-made ones above all) are left alone.
 * One statement, so a concurrent sign-in of the same person sees either state, never half of one.
 * Answers the ids of the teams the person now belongs to through this source.
 */
export async function syncGroupMemberships(db: Database, userId: string, source: 'LDAP' | 'OIDC', groups: string[], now: Date): Promise<string[]> {
  // The values travel as one JSON parameter (drizzle spreads an array into a list of parameters).
  const values = sql`(select jsonb_array_elements_text(${JSON.stringify(source === 'LDAP' ? groups.map((group) => group.toLowerCase()) : groups)}::jsonb))`;
  const wanted = source === 'LDAP' ? sql`select id from teams where lower(ldap_group) in ${values}` : sql`select id from teams where oidc_group in ${values}`;
  const rows = await queryRows<{ teamId: string }>(
    db,
    sql`with wanted as (${wanted}),
        removed as (
          delete from team_members where user_id = ${userId} and source = ${source}::team_member_source
            and team_id not in (select id from wanted)
          returning team_id
        ),
        added as (
          insert into team_members (team_id, user_id, role, source, created_at)
          select id, ${userId}, 'MEMBER', ${source}::team_member_source, ${now.toISOString()}::timestamptz from wanted
          on conflict (team_id, user_id) do nothing
          returning team_id
        )
        select tm.team_id as "teamId" from team_members tm where tm.user_id = ${userId} and tm.source = ${source}::team_member_source
          and tm.team_id in (select id from wanted)
        union select team_id from added`,
  );
  return rows.map((row) => row.teamId);
}

/** A subquery of the ids of the members of every team `managerId` manages, for a caller's statement to embed (one round trip). */
export const managedMemberIdsQuery = (managerId: string): SQL =>
  sql`select member.user_id from team_members manager join team_members member on member.team_id = manager.team_id
      where manager.user_id = ${managerId} and manager.role = 'MANAGER'`;

/**
 * SQL for another module's statement to embed (docs/people.md#who-is-in): whether the person in
 * `person` (a uuid expression) shares a team with `viewerId`.
 */
export const sharesTeamWith = (viewerId: string, person: SQL): SQL =>
  // An IN over the viewer's team mates, uncorrelated: computed once per statement and hashed, not probed per row.
  sql`(${person} in (select mate.user_id from team_members mine join team_members mate on mate.team_id = mine.team_id
                     where mine.user_id = ${viewerId}::uuid))`;

/** SQL for another module's statement to embed: the teams of the person in `person` as a json array of {id, name}, by name. */
export const teamsJsonOf = (person: SQL): SQL =>
  sql`coalesce((select json_agg(json_build_object('id', t.id, 'name', t.name) order by t.name, t.id)
                from team_members m join teams t on t.id = m.team_id where m.user_id = ${person}), '[]'::json)`;

/** SQL for another module's statement to embed: the ids of the people who share a team with `viewerId` (the viewer included). */
export const teamMateIdsQuery = (viewerId: string): SQL =>
  sql`select mate.user_id from team_members mine join team_members mate on mate.team_id = mine.team_id where mine.user_id = ${viewerId}::uuid`;
