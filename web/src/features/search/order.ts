import type { DepartmentSummary } from '../../lib/labels.js';
import type { LocalWindow } from '../../lib/time.js';
import { NO_FILTERS, type DeskFilters, type RoomWithFreeDesks } from './search.js';

/** How Find a desk orders the free desks (docs/favourites.md): as found (by room), favourites first, or near my team. */
export type DeskOrder = 'FOUND' | 'FAVOURITES' | 'NEAR_TEAM';

interface BookingDefaults {
  homeDepartmentId: string | null;
  window: 'NONE' | 'HOURS' | 'WHOLE_DAY';
  startTime: string | null;
  endTime: string | null;
}

/** The form's last quarter hour: it takes no 24:00. */
const LAST_QUARTER = '23:45';

/**
 * The search Find a desk opens on (docs/favourites.md#home-office-and-default-window): tomorrow, the
 * usual hours (whole day: 00:00–23:45) or `fallback`'s, and the home office's location, building
 * and floor when it is still an office; anywhere otherwise.
 */
export function initialSearch(
  fallback: LocalWindow,
  defaults: BookingDefaults | undefined,
  departments: readonly Pick<DepartmentSummary, 'id' | 'location' | 'building' | 'floor'>[],
): { window: LocalWindow; filters: DeskFilters } {
  const wallClock = (time: string) => (time === '24:00' ? LAST_QUARTER : time);
  const window =
    defaults?.window === 'HOURS' && defaults.startTime && defaults.endTime
      ? { ...fallback, start: wallClock(defaults.startTime), end: wallClock(defaults.endTime) }
      : defaults?.window === 'WHOLE_DAY'
        ? { ...fallback, start: '00:00', end: LAST_QUARTER }
        : fallback;
  const home = departments.find((department) => department.id === defaults?.homeDepartmentId);
  const filters = home ? { ...NO_FILTERS, location: home.location, building: home.building, floor: String(home.floor) } : NO_FILTERS;
  return { window, filters };
}

/**
 * The rooms and their desks in the chosen order. Favourites first: rooms holding a starred desk
 * first, starred desks first within a room. Near my team: by the service's ranking (`near`, nearest
 * first), a room at the rank of its nearest desk; desks the ranking leaves out keep their order after
 * it. Otherwise unchanged. The sorts are stable: ties keep the search's order.
 */
export function orderRooms(
  rooms: readonly RoomWithFreeDesks[],
  order: DeskOrder,
  favourites: ReadonlySet<string>,
  near: readonly { deskId: string }[],
): RoomWithFreeDesks[] {
  if (order === 'FOUND') return [...rooms];
  const rankOf =
    order === 'FAVOURITES'
      ? (deskId: string) => (favourites.has(deskId) ? 0 : 1)
      : (
          (ranks: Map<string, number>) => (deskId: string) =>
            ranks.get(deskId) ?? Number.MAX_SAFE_INTEGER
        )(new Map(near.map((desk, i) => [desk.deskId, i])));
  const sorted = rooms.map((room) => ({ ...room, desks: [...room.desks].sort((a, b) => rankOf(a.id) - rankOf(b.id)) }));
  const best = (room: RoomWithFreeDesks) => Math.min(Number.MAX_SAFE_INTEGER, ...room.desks.map((desk) => rankOf(desk.id)));
  return sorted.sort((a, b) => best(a) - best(b));
}
