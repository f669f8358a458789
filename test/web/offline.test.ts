import { describe, expect, it } from 'vitest';
import {
  clearOfflineSnapshot,
  loadOfflineSnapshot,
  saveOfflineSnapshot,
  SNAPSHOT_KEY,
  SNAPSHOT_LIMIT,
  type OfflineEntry,
  type SnapshotStorage,
} from '../../web/src/lib/offline.js';
import { OFFLINE_FALLBACK_DENYLIST } from '../../web/src/pwa/worker-rules.js';

/**
 * The list kept for offline use (docs/pwa.md#offline) and what the worker never answers with the
 * app shell (docs/pwa.md#what-is-never-cached).
 */

function memoryStorage(): SnapshotStorage & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return { data, getItem: (key) => data.get(key) ?? null, setItem: (key, value) => void data.set(key, value), removeItem: (key) => void data.delete(key) };
}

const entry = (id: string, start: string, end: string): OfflineEntry => ({ id, startTime: start, endTime: end, desk: `Desk ${id}`, room: 'Harbour' });
const NOW = new Date('2030-05-15T12:00:00Z');

describe('the offline list', () => {
  it('keeps the list in start order with when it was read, and drops what has ended by the time it is shown', () => {
    const storage = memoryStorage();
    saveOfflineSnapshot(
      storage,
      'user-1',
      [entry('b', '2030-05-16T09:00:00Z', '2030-05-16T17:00:00Z'), entry('a', '2030-05-15T09:00:00Z', '2030-05-15T13:00:00Z')],
      NOW,
    );
    expect(loadOfflineSnapshot(storage, NOW)).toEqual({
      userId: 'user-1',
      savedAt: NOW.toISOString(),
      entries: [entry('a', '2030-05-15T09:00:00Z', '2030-05-15T13:00:00Z'), entry('b', '2030-05-16T09:00:00Z', '2030-05-16T17:00:00Z')],
    });
    // At 13:00 the first one has ended.
    expect(loadOfflineSnapshot(storage, new Date('2030-05-15T13:00:00Z'))?.entries.map((kept) => kept.id)).toEqual(['b']);
  });

  it(`keeps at most ${SNAPSHOT_LIMIT}, the earliest`, () => {
    const storage = memoryStorage();
    const many = Array.from({ length: SNAPSHOT_LIMIT + 5 }, (_, i) =>
      entry(`r${i}`, new Date(NOW.getTime() + (SNAPSHOT_LIMIT + 5 - i) * 3_600_000).toISOString(), '2031-01-01T00:00:00Z'),
    );
    saveOfflineSnapshot(storage, 'user-1', many, NOW);
    const kept = loadOfflineSnapshot(storage, NOW)!.entries;
    expect(kept).toHaveLength(SNAPSHOT_LIMIT);
    expect(kept[0]!.id).toBe(`r${SNAPSHOT_LIMIT + 4}`);
  });

  it('is gone after clearing, and nothing is what unreadable or foreign storage holds', () => {
    const storage = memoryStorage();
    saveOfflineSnapshot(storage, 'user-1', [entry('a', '2030-05-16T09:00:00Z', '2030-05-16T17:00:00Z')], NOW);
    clearOfflineSnapshot(storage);
    expect(storage.data.has(SNAPSHOT_KEY)).toBe(false);
    expect(loadOfflineSnapshot(storage, NOW)).toBeUndefined();
    for (const text of ['not json', '[]', '{"userId":"u"}', '{"userId":"u","savedAt":"yesterday","entries":[]}']) {
      storage.data.set(SNAPSHOT_KEY, text);
      expect(loadOfflineSnapshot(storage, NOW), text).toBeUndefined();
    }
    // Entries of the wrong shape are left out, the rest shown.
    storage.data.set(
      SNAPSHOT_KEY,
      JSON.stringify({ userId: 'u', savedAt: NOW.toISOString(), entries: [{ id: 'x' }, entry('a', '2030-05-16T09:00:00Z', '2030-05-16T17:00:00Z')] }),
    );
    expect(loadOfflineSnapshot(storage, NOW)?.entries.map((kept) => kept.id)).toEqual(['a']);
  });

  it('keeps nothing, and throws nothing, when the storage refuses', () => {
    const full: SnapshotStorage = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('quota');
      },
      removeItem: () => {
        throw new Error('denied');
      },
    };
    expect(() => saveOfflineSnapshot(full, 'u', [], NOW)).not.toThrow();
    expect(loadOfflineSnapshot(full, NOW)).toBeUndefined();
    expect(() => clearOfflineSnapshot(full)).not.toThrow();
  });
});

describe('the offline fallback to the app shell', () => {
  const fallsBack = (pathname: string) => !OFFLINE_FALLBACK_DENYLIST.some((pattern) => pattern.test(pathname));
  it('answers the app’s pages, never the API, the worker or the manifest', () => {
    for (const page of ['/', '/reservations', '/admin/users', '/apiary', '/d/123']) expect(fallsBack(page), page).toBe(true);
    for (const other of ['/api', '/api/', '/api/reservation', '/api/self/push-subscriptions', '/sw.js', '/push-sw.js', '/manifest.webmanifest'])
      expect(fallsBack(other), other).toBe(false);
  });
});
