/** Sets `key` in a map that holds at most `limit` entries: a full map first drops its older half (insertion order). */
export function setBounded<K, V>(map: Map<K, V>, limit: number, key: K, value: V): void {
  if (map.size >= limit) {
    let drop = Math.ceil(limit / 2);
    for (const old of map.keys()) {
      if (drop-- === 0) break;
      map.delete(old);
    }
  }
  map.set(key, value);
}
