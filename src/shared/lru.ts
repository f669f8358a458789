/**
 * The value `entries` keeps under `key`, which becomes the most recently used; else `make()`'s,
 * kept, the least recently used entries dropped past `capacity`. A Map keeps insertion order, so
 * taking an entry out and in again moves it last, and the first key is the least recently used.
 */
export function lruGet<K, V>(entries: Map<K, V>, key: K, capacity: number, make: () => V): V {
  if (entries.has(key)) {
    const kept = entries.get(key) as V;
    entries.delete(key);
    entries.set(key, kept);
    return kept;
  }
  const made = make();
  entries.set(key, made);
  while (entries.size > capacity) entries.delete(entries.keys().next().value as K);
  return made;
}
