import type { Sql } from 'postgres';
import { layoutPlan } from '../seed/floor-plan.js';

/**
 * The floor-plan scenario's department: the one whose desk count is nearest 200 (the large profile
 * has 200 desks per department on average).
 * A database seeded before floor plans existed has no positions: they are then placed here, as the
 * seed would have placed them, and removed again when the bench ends (`placedByBench`).
 */
export async function benchFloorPlan(sql: Sql): Promise<{ departmentId: string; desks: number; placedByBench: boolean }> {
  const [department] = await sql<{ id: string; desks: number; placed: number }[]>`
    select r.department_id as id, count(d.id)::int as desks, count(p.desk_id)::int as placed
    from rooms r join desks d on d.room_id = r.id left join floor_plan_positions p on p.desk_id = d.id
    group by r.department_id order by abs(count(d.id) - 200), r.department_id limit 1`;
  if (!department) throw new Error('no department with desks');
  if (department.placed > 0) return { departmentId: department.id, desks: department.placed, placedByBench: false };
  const rooms = await sql<{ id: string; name: string; desks: string[] }[]>`
    select r.id, r.name, array_agg(d.id order by d.name, d.id) as desks
    from rooms r join desks d on d.room_id = r.id where r.department_id = ${department.id} group by r.id, r.name order by r.name, r.id`;
  const { positions } = layoutPlan(rooms.map((room) => ({ name: room.name, desks: room.desks.length })));
  const rows = positions.map((p) => ({
    desk_id: rooms[p.room]!.desks[p.desk]!,
    department_id: department.id,
    x: p.x,
    y: p.y,
    width: p.width,
    height: p.height,
    rotation: p.rotation,
  }));
  await sql`insert into floor_plan_positions ${sql(rows)} on conflict do nothing`;
  return { departmentId: department.id, desks: rows.length, placedByBench: true };
}

export async function removeBenchFloorPlan(sql: Sql, departmentId: string): Promise<void> {
  await sql`delete from floor_plan_positions where department_id = ${departmentId}`;
}
