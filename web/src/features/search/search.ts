import type { DepartmentSummary, EquipmentType } from '../../lib/labels.js';

/** "Find a desk": the filters, the search body they make, and the rooms found. */

export interface DeskFilters {
  location: string;
  building: string;
  /** '' for any floor. */
  floor: string;
  equipment: EquipmentType[];
}

export const NO_FILTERS: DeskFilters = { location: '', building: '', floor: '', equipment: [] };

const uniqueSorted = <T>(values: T[], compare: (a: T, b: T) => number) => [...new Set(values)].sort(compare);
const byText = (a: string, b: string) => a.localeCompare(b);

/** The choices of the location, building and floor lists, each narrowed by the choices before it. */
export function filterChoices(departments: DepartmentSummary[], filters: DeskFilters) {
  const inLocation = departments.filter((department) => filters.location === '' || department.location === filters.location);
  const inBuilding = inLocation.filter((department) => filters.building === '' || department.building === filters.building);
  return {
    locations: uniqueSorted(
      departments.map((department) => department.location),
      byText,
    ),
    buildings: uniqueSorted(
      inLocation.map((department) => department.building),
      byText,
    ),
    floors: uniqueSorted(
      inBuilding.map((department) => department.floor),
      (a, b) => a - b,
    ),
  };
}

/** Changing a broader filter clears the narrower ones that may no longer exist. */
export function changeFilter(filters: DeskFilters, change: Partial<DeskFilters>): DeskFilters {
  const next = { ...filters, ...change };
  if (change.location !== undefined && change.location !== filters.location) Object.assign(next, { building: '', floor: '' });
  if (change.building !== undefined && change.building !== filters.building) next.floor = '';
  return next;
}

/** Whether a department is one the filters ask for (the search matches text as substrings; this is exact). */
export function departmentMatches(department: DepartmentSummary, filters: DeskFilters): boolean {
  return (
    (filters.location === '' || department.location === filters.location) &&
    (filters.building === '' || department.building === filters.building) &&
    (filters.floor === '' || department.floor === Number(filters.floor))
  );
}

/**
 * The POST /api/search/rooms body: bookable desks (FLEX, in available rooms) with every chosen
 * kind of equipment and no reservation overlapping [start, end).
 */
export function roomSearchBody(filters: DeskFilters, window: { start: string; end: string }) {
  const department: { location?: string; building?: string; floor?: number } = {};
  if (filters.location) department.location = filters.location;
  if (filters.building) department.building = filters.building;
  if (filters.floor !== '') department.floor = Number(filters.floor);
  return {
    ...(Object.keys(department).length > 0 ? { department } : {}),
    room: { available: true },
    desk: { type: 'FLEX' as const },
    ...(filters.equipment.length > 0 ? { equipment: filters.equipment.map((type) => ({ type })) } : {}),
    reservation: { free: { start: window.start, end: window.end } },
  };
}

export interface FreeDesk {
  id: string;
  name: string;
  type: string;
  roomId: string;
  departmentId: string;
}

export interface RoomWithFreeDesks {
  id: string;
  name: string;
  departmentId: string;
  available: boolean;
  desks: FreeDesk[];
}

/**
 * The rooms of the pages read so far, each once: a booking made between two pages can move a room
 * from one page to the next.
 */
export function roomsOfPages(pages: readonly { content: readonly RoomWithFreeDesks[] }[]): RoomWithFreeDesks[] {
  const seen = new Set<string>();
  return pages.flatMap((page) => page.content).filter((room) => !seen.has(room.id) && Boolean(seen.add(room.id)));
}

export const freeDeskCount = (rooms: RoomWithFreeDesks[]) => rooms.reduce((sum, room) => sum + room.desks.length, 0);
