import { sql } from 'drizzle-orm';
import { queryRows, type Database } from '../../src/db/client.js';
import { layoutPlan } from '../seed/floor-plan.js';

/**
 * The floor-plan scenario's department: the one whose desk count is nearest 200 (the large profile
 * has 200 desks per department on average).
 * A database seeded before floor plans existed has no positions: they are then placed here, as the
 * seed would have placed them, and removed again when the bench ends (`placedByBench`).
 */
export async function benchFloorPlan(db: Database): Promise<{ departmentId: string; desks: number; placedByBench: boolean }> {
  const [department] = await queryRows<{ id: string; desks: number; placed: number }>(
    db,
    sql`select r.department_id as id, count(d.id)::int as desks, count(p.desk_id)::int as placed
        from rooms r join desks d on d.room_id = r.id left join floor_plan_positions p on p.desk_id = d.id
        group by r.department_id order by abs(count(d.id) - 200), r.department_id limit 1`,
  );
  if (!department) throw new Error('no department with desks');
  if (department.placed > 0) return { departmentId: department.id, desks: department.placed, placedByBench: false };
  const rooms = await queryRows<{ id: string; name: string; desks: string }>(
    db,
    sql`select r.id, r.name, string_agg(d.id::text, ',' order by d.name, d.id) as desks
        from rooms r join desks d on d.room_id = r.id where r.department_id = ${department.id} group by r.id, r.name order by r.name, r.id`,
  );
  const deskIds = rooms.map((room) => room.desks.split(','));
  const { positions } = layoutPlan(rooms.map((room, index) => ({ name: room.name, desks: deskIds[index]!.length })));
  await db.transaction(async (tx) => {
    for (const p of positions) {
      await tx.execute(
        sql`insert into floor_plan_positions (desk_id, department_id, x, y, width, height, rotation)
            values (${deskIds[p.room]![p.desk]!}, ${department.id}, ${p.x}, ${p.y}, ${p.width}, ${p.height}, ${p.rotation}) on conflict do nothing`,
      );
    }
  });
  return { departmentId: department.id, desks: positions.length, placedByBench: true };
}

export async function removeBenchFloorPlan(db: Database, departmentId: string): Promise<void> {
  await db.execute(sql`delete from floor_plan_positions where department_id = ${departmentId}`);
}
