import { usersOverConnections, type Scenario } from './kit.js';

/**
 * People's bench scenario (docs/people.md#who-is-in), added to FEATURE_SCENARIOS: who's in the
 * floor-plan department (about 200 desks) on the search window's day, asked by signed-in users in
 * turn, under the "teams" mode the bench sets (BENCH_PRIVACY). Target: two statements
 * per request and p99 ≤ 50 ms at 100 requests a second.
 */
/**
 * The organisation's settings the bench measures under, set before the statements are counted and
 * before each round (docs/people.md#works-council-mode): the attendance scenario reads the admins'
 * per-person list, which works-council mode (on by default) refuses; who's in shows names to team
 * mates.
 */
export const BENCH_PRIVACY = { worksCouncilMode: false, nameVisibility: 'teams' } as const;

export const PEOPLE_SCENARIOS: Scenario[] = [
  {
    id: 'people-in',
    title: "GET /api/people/in (an office's day, by team)",
    server: 'app',
    expected: [200],
    maxStatements: 2,
    fixedRate: 100,
    load: (context) => ({
      method: 'GET',
      requests: [{ path: `/api/people/in?departmentId=${context.floorPlanDepartmentId}&date=${context.searchWindow.start.slice(0, 10)}` }],
      ...usersOverConnections(context),
    }),
  },
];
