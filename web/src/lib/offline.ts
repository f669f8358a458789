/**
 * The person's upcoming reservations as they were when last seen online (docs/pwa.md#offline):
 * written by My reservations, read by the offline page, in this browser's localStorage under one
 * key. Never kept across a sign-out (docs/pwa.md#what-is-never-cached): clearOfflineSnapshot runs on
 * every sign-out and whenever the server says the browser has no session. Pure but for the storage
 * passed in, so that unit tests can run it in Node.
 */

export const SNAPSHOT_KEY = 'deskbook.offline-reservations';
/** The most reservations kept: the first page of My reservations' upcoming list. */
export const SNAPSHOT_LIMIT = 20;

export interface OfflineEntry {
  id: string;
  startTime: string;
  endTime: string;
  /** "Desk 12", as My reservations showed it. */
  desk: string;
  room?: string;
  department?: string;
}

export interface OfflineSnapshot {
  userId: string;
  /** When the list was read from the server (ISO). */
  savedAt: string;
  entries: OfflineEntry[];
}

/** The part of the Web Storage API used here (localStorage in the browser, a Map in tests). */
export interface SnapshotStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

const isText = (value: unknown): value is string => typeof value === 'string' && value.length > 0;
const optionalText = (value: unknown) => value === undefined || typeof value === 'string';

function isEntry(value: unknown): value is OfflineEntry {
  const entry = value as OfflineEntry;
  return (
    typeof value === 'object' &&
    value !== null &&
    isText(entry.id) &&
    isText(entry.startTime) &&
    isText(entry.endTime) &&
    isText(entry.desk) &&
    optionalText(entry.room) &&
    optionalText(entry.department)
  );
}

/** Keeps the list of `userId` as read at `savedAt`, in start order, at most SNAPSHOT_LIMIT. Storage that refuses (full, private mode) keeps nothing. */
export function saveOfflineSnapshot(storage: SnapshotStorage, userId: string, entries: OfflineEntry[], savedAt: Date): void {
  const kept = [...entries].sort((a, b) => Date.parse(a.startTime) - Date.parse(b.startTime)).slice(0, SNAPSHOT_LIMIT);
  const snapshot: OfflineSnapshot = { userId, savedAt: savedAt.toISOString(), entries: kept };
  try {
    storage.setItem(SNAPSHOT_KEY, JSON.stringify(snapshot));
  } catch {
    // Nothing kept: offline, the page says it has nothing to show.
  }
}

/**
 * The kept list, without the reservations that have ended by `now`; undefined when nothing (or
 * something unreadable) is kept.
 */
export function loadOfflineSnapshot(storage: SnapshotStorage, now: Date): OfflineSnapshot | undefined {
  let parsed: unknown;
  try {
    const text = storage.getItem(SNAPSHOT_KEY);
    if (!text) return undefined;
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  const snapshot = parsed as OfflineSnapshot;
  if (typeof parsed !== 'object' || parsed === null || !isText(snapshot.userId) || !isText(snapshot.savedAt) || !Array.isArray(snapshot.entries))
    return undefined;
  if (Number.isNaN(Date.parse(snapshot.savedAt))) return undefined;
  const entries = snapshot.entries.filter(isEntry).filter((entry) => Date.parse(entry.endTime) > now.getTime());
  return { userId: snapshot.userId, savedAt: snapshot.savedAt, entries };
}

export function clearOfflineSnapshot(storage: SnapshotStorage | undefined = browserStorage()): void {
  try {
    storage?.removeItem(SNAPSHOT_KEY);
  } catch {
    // Storage that cannot be read cannot hold a list either.
  }
}

/** localStorage, when the browser lets scripts use it. */
export function browserStorage(): SnapshotStorage | undefined {
  try {
    return typeof localStorage === 'undefined' ? undefined : localStorage;
  } catch {
    return undefined;
  }
}
