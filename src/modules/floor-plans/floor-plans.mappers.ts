import type { AvailabilityRow, PlanDeskRow, PlanRead } from './floor-plans.repository.js';
import type { DeskAvailabilityDto, DeskState, FloorPlanDto } from './floor-plans.schemas.js';

export function toFloorPlanDto(departmentId: string, plan: PlanRead): FloorPlanDto {
  return {
    departmentId,
    etag: plan.etag,
    image: plan.imageEtag === null ? null : { url: `/api/departments/${departmentId}/image`, etag: plan.imageEtag },
    desks: plan.desks.map((desk: PlanDeskRow) => ({
      id: desk.id,
      name: desk.name,
      type: desk.type,
      roomId: desk.roomId,
      roomName: desk.roomName,
      position:
        desk.x === null || desk.y === null || desk.width === null || desk.height === null || desk.rotation === null
          ? null
          : { x: desk.x, y: desk.y, width: desk.width, height: desk.height, rotation: desk.rotation },
    })),
  };
}

/** The first state that applies, in the documented order (docs/behaviour.md#floor-plans). */
export function deskState(row: AvailabilityRow): DeskState {
  if (row.mine) return 'MINE';
  if (row.type === 'FIXED' || !row.roomAvailable) return 'NOT_BOOKABLE';
  if (!row.reserved) return 'FREE';
  if (row.freeStart === null) return 'BOOKED';
  return 'PARTLY_FREE';
}

/**
 * Instants as ISO strings, each formatted once per answer: most desks share the window's bounds
 * as their free stretch, and toISOString for 400 of them showed in profiles.
 */
export function isoStrings(): (epochMs: number) => string {
  const known = new Map<number, string>();
  return (epochMs) => {
    let iso = known.get(epochMs);
    if (iso === undefined) {
      iso = new Date(epochMs).toISOString();
      known.set(epochMs, iso);
    }
    return iso;
  };
}

export function toDeskAvailabilityDto(row: AvailabilityRow, iso: (epochMs: number) => string): DeskAvailabilityDto {
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    roomId: row.roomId,
    roomName: row.roomName,
    roomAvailable: row.roomAvailable,
    position: { x: row.x, y: row.y, width: row.width, height: row.height, rotation: row.rotation },
    state: deskState(row),
    longestFree: row.freeStart === null || row.freeEnd === null ? null : { startTime: iso(Number(row.freeStart)), endTime: iso(Number(row.freeEnd)) },
  };
}
