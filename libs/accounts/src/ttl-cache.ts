/**
 * A small in-process cache with per-entry expiry, a size bound (oldest entries are evicted
 * first) and single-flight loading: concurrent misses for one key share one load.
 */
export class TtlCache<V> {
  private readonly entries = new Map<string, { value: V; expiresAt: number }>();
  private readonly loading = new Map<string, Promise<V>>();

  constructor(private readonly options: { maxEntries: number; ttlMs: (value: V) => number; now?: () => number }) {}

  get size(): number {
    return this.entries.size;
  }

  async get(key: string, load: () => Promise<V>): Promise<V> {
    const now = (this.options.now ?? Date.now)();
    const hit = this.entries.get(key);
    if (hit && hit.expiresAt > now) return hit.value;
    if (hit) this.entries.delete(key);
    let pending = this.loading.get(key);
    if (!pending) {
      pending = load().then(
        (value) => {
          this.loading.delete(key);
          this.set(key, value);
          return value;
        },
        (error: unknown) => {
          this.loading.delete(key); // failures are not cached
          throw error;
        },
      );
      this.loading.set(key, pending);
    }
    return pending;
  }

  /** Drops every cached entry whose value matches (e.g. a key that was just deactivated). */
  deleteWhere(matches: (value: V) => boolean): void {
    for (const [key, entry] of this.entries) if (matches(entry.value)) this.entries.delete(key);
  }

  private set(key: string, value: V): void {
    if (this.entries.size >= this.options.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    const expiresAt = (this.options.now ?? Date.now)() + this.options.ttlMs(value);
    this.entries.set(key, { value, expiresAt });
  }
}
