import type { Sql } from 'postgres';
import type { BenchContext, Load, Scenario } from './scenarios.js';

/**
 * The attendance scenarios (docs/behaviour.md#attendance), kept apart from the others: check-in
 * and the admin's attendance list of one office for one week. Check-in needs reservations running
 * now: `prepareAttendance` books one per free bookable desk (up to `count`) from a minute ago for
 * two hours, and `removeAttendanceRows` deletes them at the end.
 */

export interface AttendanceBench {
  /** Reservations running now, checked in in turn (a repeat is the idempotent answer). */
  reservationIds: string[];
  departmentIds: string[];
  /** The seeded week the list looks at (UTC Monday to Monday). */
  week: { from: string; to: string };
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export async function prepareAttendance(sql: Sql, userIds: readonly string[], deskIds: readonly string[], count: number): Promise<AttendanceBench> {
  const now = Date.now();
  const desks = deskIds.slice(0, count);
  const users = desks.map((_, i) => userIds[i % userIds.length]!);
  // user_exclusive false: the seeded users may hold reservations now; a desk taken now is skipped.
  const rows = await sql<{ id: string }[]>`
    insert into reservations (user_id, desk_id, start_time, end_time, user_exclusive, created_at, modified_at)
    select u, d, ${new Date(now - 60_000)}, ${new Date(now + 2 * HOUR)}, false, now(), now()
      from unnest(${users}::uuid[], ${desks}::uuid[]) as t(u, d)
    on conflict do nothing
    returning id`;
  const departments = await sql<{ id: string }[]>`select id from departments order by location, building, floor, id`;
  const monday = new Date(Math.floor(now / DAY) * DAY - (((new Date(now).getUTCDay() + 6) % 7) + 7) * DAY);
  return {
    reservationIds: rows.map((row) => row.id),
    departmentIds: departments.map((row) => row.id),
    week: { from: monday.toISOString(), to: new Date(monday.getTime() + 7 * DAY).toISOString() },
  };
}

export async function removeAttendanceRows(sql: Sql, bench: AttendanceBench | undefined): Promise<void> {
  if (bench && bench.reservationIds.length > 0) await sql`delete from reservations where id = any(${bench.reservationIds}::uuid[])`;
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

export function attendanceScenarios(): Scenario[] {
  return [
    {
      id: 'check-in',
      title: 'POST /api/reservation/{id}/check-in',
      server: 'app',
      expected: [200],
      load: (context: BenchContext): Load => {
        const ids = context.attendance?.reservationIds ?? [];
        let next = 0;
        return {
          method: 'POST',
          headers: bearer(context.adminToken),
          requests: [{ setupRequest: (request) => ({ ...request, path: `/api/reservation/${ids[next++ % ids.length]}/check-in` }) }],
        };
      },
    },
    {
      id: 'attendance',
      title: 'GET /api/attendance (an office, a week)',
      server: 'app',
      expected: [200],
      load: (context: BenchContext): Load => {
        const prepared = context.attendance;
        const departments = prepared?.departmentIds ?? [];
        let next = 0;
        const week = prepared ? `from=${encodeURIComponent(prepared.week.from)}&to=${encodeURIComponent(prepared.week.to)}` : '';
        return {
          method: 'GET',
          headers: bearer(context.adminToken),
          requests: [
            { setupRequest: (request) => ({ ...request, path: `/api/attendance?departmentId=${departments[next++ % departments.length]}&${week}&size=50` }) },
          ],
        };
      },
    },
  ];
}
