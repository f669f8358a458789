import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Database } from '../../db/client.js';
import { departmentImages, departments, desks, floorPlanPositions, reservations, rooms } from '../../db/schema.js';
import { timestampOf, windowRange, type TimeWindow } from '../../db/time-ranges.js';
import { fromJson } from '../../db/paging.js';

type DeskType = (typeof desks.$inferSelect)['type'];

export interface PositionRow {
  deskId: string;
  x: number;
  y: number;
  width: number;
  height: number;
  rotation: number;
}

export interface PlanDeskRow {
  id: string;
  name: string;
  type: DeskType;
  roomId: string;
  roomName: string;
  x: number | null;
  y: number | null;
  width: number | null;
  height: number | null;
  rotation: number | null;
}

export interface PlanRead {
  etag: string;
  imageEtag: string | null;
  desks: PlanDeskRow[];
}

export interface AvailabilityRow {
  id: string;
  name: string;
  type: DeskType;
  roomId: string;
  roomName: string;
  roomAvailable: boolean;
  x: number;
  y: number;
  width: number;
  height: number;
  rotation: number;
  reserved: boolean;
  mine: boolean;
  freeStart: number | null;
  freeEnd: number | null;
}

/**
 * The plan's ETag: a digest of its positions (desk id and shape, by desk id), so that every change
 * (a PUT, or a desk deleted or moved away) gives a new one, and an identical plan the same one.
 */
const planDigest = (departmentId: string) => sql`(
  select md5(coalesce(string_agg(concat_ws(':', p.desk_id, p.x, p.y, p.width, p.height, p.rotation), ',' order by p.desk_id), ''))
  from ${floorPlanPositions} p where p.department_id = ${departmentId}::uuid)`;

const quoted = (digest: string) => `"fp-${digest.slice(0, 24)}"`;

export class FloorPlansRepository {
  constructor(private readonly db: Database) {}

  /**
   * undefined: no such department. One statement: the plan's digest and image, and the desks with
   * their positions as one json array (docs/benchmarks.md#statements-per-request).
   */
  async read(departmentId: string, db: Database = this.db): Promise<PlanRead | undefined> {
    const [head] = await queryRows<{ digest: string; imageEtag: string | null; desks: unknown }>(
      db,
      sql`select ${planDigest(departmentId)} as "digest", i.etag as "imageEtag",
                 coalesce((select json_agg(plan_desk) from (
                   select d.id, d.name, d.type, d.room_id as "roomId", r.name as "roomName",
                          p.x, p.y, p.width, p.height, p.rotation
                   from ${rooms} r join ${desks} d on d.room_id = r.id
                   left join ${floorPlanPositions} p on p.desk_id = d.id and p.department_id = r.department_id
                   where r.department_id = ${departmentId}::uuid
                   order by r.name, r.id, d.name, d.id) plan_desk), '[]'::json) as "desks"
          from ${departments} dep left join ${departmentImages} i on i.department_id = dep.id
          where dep.id = ${departmentId}::uuid`,
    );
    if (!head) return undefined;
    return { etag: quoted(head.digest), imageEtag: head.imageEtag, desks: fromJson<PlanDeskRow[]>(head.desks) };
  }

  /**
   * Replaces the department's plan in one transaction, if `check` accepts the current ETag.
   * The department row is locked first (FOR NO KEY UPDATE), so two replacements of one plan run
   * one after the other and each compares the ETag the other left; the named desks and their rooms
   * are locked FOR SHARE, so a desk or room cannot move away between the check and the insert (a
   * move waits, then its trigger removes the position).
   */
  async replace(
    departmentId: string,
    positions: PositionRow[],
    check: (currentEtag: string, deskDepartments: Map<string, string>) => void,
  ): Promise<PlanRead | undefined> {
    return this.db.transaction(async (tx) => {
      const locked = await queryRows<{ id: string }>(tx, sql`select id from ${departments} where id = ${departmentId}::uuid for no key update`);
      if (locked.length === 0) return undefined;
      const [current] = await queryRows<{ digest: string }>(tx, sql`select ${planDigest(departmentId)} as "digest"`);
      const ids = positions.map((position) => position.deskId);
      const found =
        ids.length === 0
          ? []
          : await queryRows<{ id: string; departmentId: string }>(
              tx,
              sql`select d.id, r.department_id as "departmentId" from ${desks} d join ${rooms} r on r.id = d.room_id
                  where d.id = any(${`{${ids.join(',')}}`}::uuid[]) for share of d, r`,
            );
      check(quoted(current!.digest), new Map(found.map((row) => [row.id, row.departmentId])));
      await tx.execute(sql`delete from ${floorPlanPositions} where department_id = ${departmentId}::uuid`);
      if (positions.length > 0) {
        await tx.insert(floorPlanPositions).values(positions.map((position) => ({ ...position, departmentId })));
      }
      return this.read(departmentId, tx);
    });
  }

  /**
   * Every placed desk of the department with its state for the window, in ONE statement
   * (docs/query-plans.md#floor-plan-availability). The department's positions through their index,
   * each desk by its key, the rooms. The two `offset 0` keep the planner from hashing all desks, and
   * keep its generic plan (estimated from the average department) as cheap as a custom one, so
   * that the prepared statement is not planned again on every request (planning took longer than
   * running it).
   * Per desk, the reservations overlapping [start, end) are those starting inside it and at most
   * one more: the last one starting before it, if it ends after `start` (no two reservations of a
   * desk overlap, so no earlier one can reach into the window). Both are B-tree probes of
   * reservations_desk_start_idx, a fraction of a probe of the exclusion constraint's GiST index;
   * merged with range_agg, the free stretches are the window minus them. A department without
   * placed desks answers one row with null desk columns; an unknown department none.
   */
  async availability(departmentId: string, window: TimeWindow, callerId: string): Promise<AvailabilityRow[] | undefined> {
    const range = windowRange(window);
    const start = timestampOf(window.start);
    const end = timestampOf(window.end);
    const epochMs = (value: SQL) => sql`(extract(epoch from ${value}) * 1000)::float8`;
    const rows = await queryRows<AvailabilityRow>(
      this.db,
      sql`select placed.*
          from ${departments} dep
          left join lateral (
            select d.id, d.name, d.type, d.room_id as "roomId", r.name as "roomName", r.available as "roomAvailable",
                   p.x, p.y, p.width, p.height, p.rotation,
                   booked.ranges is not null as "reserved", coalesce(booked.mine, false) as "mine",
                   ${epochMs(sql`lower(longest.stretch)`)} as "freeStart", ${epochMs(sql`upper(longest.stretch)`)} as "freeEnd"
            from (select * from ${floorPlanPositions} where department_id = ${departmentId}::uuid offset 0) p
            cross join lateral (select id, name, type, room_id from ${desks} where id = p.desk_id offset 0) d
            join ${rooms} r on r.id = d.room_id
            cross join lateral (
              select range_agg(tstzrange(res.start_time, res.end_time, '[)')) as ranges, bool_or(res.user_id = ${callerId}::uuid) as mine
              from (
                (select start_time, end_time, user_id from ${reservations}
                 where desk_id = d.id and start_time < ${start} order by start_time desc limit 1)
                union all
                (select start_time, end_time, user_id from ${reservations}
                 where desk_id = d.id and start_time >= ${start} and start_time < ${end})
              ) res
              where res.end_time > ${start}
            ) booked
            left join lateral (
              select stretch from unnest(tstzmultirange(${range}) - coalesce(booked.ranges, '{}'::tstzmultirange)) as stretch
              order by upper(stretch) - lower(stretch) desc, lower(stretch) limit 1
            ) longest on true
            where r.department_id = ${departmentId}::uuid
          ) placed on true
          where dep.id = ${departmentId}::uuid
          order by placed."roomName", placed."roomId", placed.name, placed.id`,
    );
    if (rows.length === 0) return undefined;
    return rows.filter((row) => row.id !== null);
  }
}
