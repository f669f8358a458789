import { usersOverConnections, type Scenario } from './kit.js';

/**
 * People's bench scenario (docs/people.md#who-is-in), added to FEATURE_SCENARIOS: who's in the
 * floor-plan department (about 200 desks) on the search window's day, asked by signed-in users in
 * turn, under the "teams" mode the bench sets (bench.ts, measuredPrivacy). Target: two statements
 * per request and p99 ≤ 50 ms at 100 requests a second.
 */
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
