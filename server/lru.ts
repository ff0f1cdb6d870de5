/** Bounded least-recently-used map (Map keeps insertion order). */
export class Lru<V, K = string> {
  private readonly map = new Map<K, V>();
  get(key: K): V | undefined {
    const value = this.map.get(key);
    if (value !== undefined) {
      this.map.delete(key);
      this.map.set(key, value);
    }
    return value;
  }
  set(key: K, value: V) {
    this.map.delete(key);
    this.map.set(key, value);
  }
  delete(key: K) {
    this.map.delete(key);
  }
  get size() {
    return this.map.size;
  }
  values() {
    return this.map.values();
  }
  /** Drops the least recently used entries while `over()` says so. */
  evict(over: () => boolean) {
    for (const key of this.map.keys()) {
      if (!over()) return;
      this.map.delete(key);
    }
  }
}
