/** "Find a desk": the filters, the search body they make, and the page's state. */

export const EQUIPMENT_TYPES = ['DOCKING_STATION', 'MONITOR', 'KEYBOARD', 'MOUSE', 'HEADSET', 'WEBCAM', 'CHAIR', 'OTHER'] as const;
export type EquipmentType = (typeof EQUIPMENT_TYPES)[number];

const EQUIPMENT_LABELS: Record<EquipmentType, string> = {
  DOCKING_STATION: 'Docking station',
  MONITOR: 'Monitor',
  KEYBOARD: 'Keyboard',
  MOUSE: 'Mouse',
  HEADSET: 'Headset',
  WEBCAM: 'Webcam',
  CHAIR: 'Chair',
  OTHER: 'Other',
};

export const equipmentLabel = (type: string) => EQUIPMENT_LABELS[type as EquipmentType] ?? type;

export interface DepartmentPlace {
  id: string;
  location: string;
  building: string;
  floor: number;
}

export const placeLabel = (department: DepartmentPlace) => `${department.location} · ${department.building} · ${floorLabel(department.floor)}`;

export const floorLabel = (floor: number) => (floor === 0 ? 'Ground floor' : floor < 0 ? `Basement ${-floor}` : `Floor ${floor}`);

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
export function filterChoices(departments: DepartmentPlace[], filters: DeskFilters) {
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
export function departmentMatches(department: DepartmentPlace, filters: DeskFilters): boolean {
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

export type Notice = { kind: 'success' | 'error'; text: string };

export interface FindDeskState {
  status: 'idle' | 'loading' | 'ready' | 'failed';
  rooms: RoomWithFreeDesks[];
  totalRooms: number;
  /** The last page loaded (0-based). */
  page: number;
  error?: string;
  /** The desk whose booking is being sent. */
  booking?: string;
  notice?: Notice;
}

export type FindDeskAction =
  | { type: 'search' }
  | { type: 'more' }
  | { type: 'results'; rooms: RoomWithFreeDesks[]; totalRooms: number; page: number }
  | { type: 'search-failed'; message: string }
  | { type: 'book'; deskId: string }
  | { type: 'booked'; notice: Notice }
  | { type: 'book-failed'; notice: Notice }
  | { type: 'dismiss' };

export const initialFindDesk: FindDeskState = { status: 'idle', rooms: [], totalRooms: 0, page: 0 };

export function findDeskReducer(state: FindDeskState, action: FindDeskAction): FindDeskState {
  switch (action.type) {
    case 'search':
      // Keeps the old rooms on screen while the new ones load (no flicker); notices stay.
      return { ...state, status: 'loading', error: undefined };
    case 'more':
      return { ...state, status: 'loading', error: undefined };
    case 'results': {
      const rooms = action.page === 0 ? action.rooms : [...state.rooms, ...action.rooms.filter((room) => !state.rooms.some((known) => known.id === room.id))];
      return { ...state, status: 'ready', rooms, totalRooms: action.totalRooms, page: action.page, error: undefined };
    }
    case 'search-failed':
      return { ...state, status: 'failed', error: action.message };
    case 'book':
      return { ...state, booking: action.deskId, notice: undefined };
    case 'booked':
    case 'book-failed':
      return { ...state, booking: undefined, notice: action.notice };
    case 'dismiss':
      return { ...state, notice: undefined };
  }
}

export const freeDeskCount = (rooms: RoomWithFreeDesks[]) => rooms.reduce((sum, room) => sum + room.desks.length, 0);
