/**
 * A bounded cache whose entries expire, least recently used first out when full (upstream's
 * LRUExpireCache, which the authorization webhook keeps its answers in). A Map keeps insertion
 * order: reading an entry re-inserts it, so the first key is always the least recently used.
 */
export class ExpiringCache<V> {
  private readonly entries = new Map<string, { value: V; expiresAt: number }>();

  constructor(
    private readonly capacity: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** The live value under `key`, which becomes the most recently used; an expired one is dropped. */
  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    this.entries.delete(key);
    if (this.now() >= entry.expiresAt) return undefined;
    this.entries.set(key, entry);
    return entry.value;
  }

  /** Stores `value` for `ttlMs`, evicting the least recently used entry when full. */
  set(key: string, value: V, ttlMs: number): void {
    this.entries.delete(key);
    this.entries.set(key, { value, expiresAt: this.now() + ttlMs });
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
  }

  get size(): number {
    return this.entries.size;
  }
}
