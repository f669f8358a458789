import { bearer, type Scenario } from './kit.js';

/**
 * Attendance's bench scenario (docs/behaviour.md#attendance), added to FEATURE_SCENARIOS: the
 * admin's attendance list of one office (the bench's big room's) for the week around the search
 * window. Check-in needs reservations running now and the release loop needs reservations falling
 * due: both are measured by `npx tsx scripts/bench/release.ts` instead.
 */
const DAY = 86_400_000;

export const ATTENDANCE_SCENARIOS: Scenario[] = [
  {
    id: 'attendance',
    title: 'GET /api/attendance (an office, a week)',
    server: 'app',
    expected: [200],
    load: (context) => {
      const from = new Date(Date.parse(context.searchWindow.start) - 7 * DAY).toISOString();
      const to = context.searchWindow.end;
      return {
        method: 'GET',
        headers: bearer(context.adminToken),
        requests: [
          {
            path: `/api/attendance?departmentId=${context.bigRoom.departmentId}&from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}&size=50`,
          },
        ],
      };
    },
  },
];
