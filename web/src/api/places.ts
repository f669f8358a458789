import { api, call } from './client.js';
import type { Department, Room } from './types.js';

/**
 * Departments and their rooms (with desks), to turn the ids in reservations and reports into
 * names. Kept for a minute; admin pages call forgetPlaces() after changing anything.
 */

const FRESH_MS = 60_000;
const ALL = 1000;

interface Entry<T> {
  at: number;
  value: Promise<T>;
}

let departmentsEntry: Entry<Department[]> | undefined;
const roomEntries = new Map<string, Entry<Room[]>>();

function fresh<T>(entry: Entry<T> | undefined): entry is Entry<T> {
  return entry !== undefined && Date.now() - entry.at < FRESH_MS;
}

export function forgetPlaces(): void {
  departmentsEntry = undefined;
  roomEntries.clear();
}

export function departments(): Promise<Department[]> {
  if (!fresh(departmentsEntry)) {
    const value = call(api.GET('/api/departments', { params: { query: { size: ALL } } })).then((page) => page.content);
    departmentsEntry = { at: Date.now(), value };
    value.catch(() => (departmentsEntry = undefined));
  }
  return departmentsEntry.value;
}

export function roomsOf(departmentId: string): Promise<Room[]> {
  let entry = roomEntries.get(departmentId);
  if (!fresh(entry)) {
    const value = call(api.GET('/api/departments/{departmentId}/rooms', { params: { path: { departmentId }, query: { size: ALL } } })).then((page) => page.content);
    entry = { at: Date.now(), value };
    roomEntries.set(departmentId, entry);
    value.catch(() => roomEntries.delete(departmentId));
  }
  return entry.value;
}

export interface PlaceNames {
  department?: Department;
  room?: Room;
  deskName?: string;
}

/** Names of a place; missing parts (deleted since, or not given) stay undefined. */
export async function placeNames(place: { departmentId?: string | null; roomId?: string | null; deskId?: string | null }): Promise<PlaceNames> {
  if (!place.departmentId) return {};
  const department = (await departments()).find((candidate) => candidate.id === place.departmentId);
  if (!department || !place.roomId) return { department };
  const room = (await roomsOf(department.id).catch(() => [])).find((candidate) => candidate.id === place.roomId);
  const deskName = room?.desks.find((desk) => desk.id === place.deskId)?.name;
  return { department, room, deskName };
}
