/**
 * A Storage whose reads are served by watch caches and whose writes go to the store underneath.
 * The storage conformance suite runs the Storage contract through it, and the storage benchmark
 * times watches through it. The server does not: its registry reads through one Cacher per
 * resource type and writes to the store itself.
 *
 * One Cacher serves each cache prefix (`cachePrefixOf`, e.g. one resource type's prefix). It is
 * created on the first read, watch or write under that prefix and started before the operation
 * proceeds, so every write made through this object is in its cache's window. Reads and watches
 * that no cache covers (a prefix above every cache prefix) go to the store.
 *
 * Deviations from the store alone, all allowed by the contract: a watch from a revision older
 * than the cache's window is opened on the store; `currentRevision`, `compactedRevision` and
 * `checkHealth` ask the store, since only it knows.
 */
import { futureRevision, isStorageError } from '../errors.js';
import type { GetResult, KeyValue, ListOptions, ListResult, Storage, Watch, WatchOptions, WriteResult } from '../storage.js';
import type { ReadRevision } from './cache-types.js';
import { Cacher } from './cacher.js';
import type { CacheTimers, CacherOptions } from './cacher-options.js';
import { CachedStorageWatch, type WatchSource } from './cached-storage-watch.js';

export interface CacheBackedStorageOptions {
  /** The cache prefix a key or list prefix falls under; undefined when it is not cached. */
  readonly cachePrefixOf: (keyOrPrefix: string) => string | undefined;
  readonly cacher?: Partial<CacherOptions>;
  readonly timers?: CacheTimers;
}

const CONSISTENT: ReadRevision = { kind: 'consistent' };

/** The decoder of a byte-level cache: the stored KeyValue is the object. */
const identity = (kv: KeyValue): KeyValue => kv;

export class CacheBackedStorage implements Storage {
  private readonly caches = new Map<string, { cacher: Cacher<KeyValue>; started: Promise<void> }>();

  constructor(
    private readonly storage: Storage,
    private readonly options: CacheBackedStorageOptions,
  ) {}

  async get(key: string, revision?: number): Promise<GetResult> {
    const cache = await this.cacheFor(key);
    if (cache === undefined) return this.storage.get(key, revision);
    const result = await cache.get(key, await this.readRevision(cache, revision));
    return { kv: result.entry?.object, revision: result.revision };
  }

  async list(prefix: string, options: ListOptions = {}): Promise<ListResult> {
    const cache = await this.cacheFor(prefix);
    if (cache === undefined) return this.storage.list(prefix, options);
    const result = await cache.list({
      prefix,
      at: await this.readRevision(cache, options.revision),
      ...(options.startKey !== undefined ? { startKey: options.startKey } : {}),
      ...(options.limit ? { limit: options.limit } : {}),
    });
    return { kvs: result.items.map((e) => e.object), revision: result.revision, remaining: result.remaining ?? 0 };
  }

  watch(prefix: string, fromRevision: number, options: WatchOptions = {}): Watch {
    const signal = options.signal ?? new AbortController().signal;
    // "From now" is fixed at the call, not when iteration begins.
    const from = fromRevision === 0 ? this.storage.currentRevision() : Promise.resolve(fromRevision);
    from.catch(() => undefined); // surfaced by the iteration; not an unhandled rejection meanwhile
    return new CachedStorageWatch(() => this.openWatch(prefix, from, signal), signal);
  }

  async create(key: string, value: Uint8Array): Promise<WriteResult> {
    await this.cacheFor(key);
    return this.storage.create(key, value);
  }

  async update(key: string, value: Uint8Array, expectedModRevision: number): Promise<WriteResult> {
    await this.cacheFor(key);
    return this.storage.update(key, value, expectedModRevision);
  }

  async delete(key: string, expectedModRevision?: number): Promise<WriteResult> {
    await this.cacheFor(key);
    return this.storage.delete(key, expectedModRevision);
  }

  currentRevision(): Promise<number> {
    return this.storage.currentRevision();
  }

  compactedRevision(): Promise<number> {
    return this.storage.compactedRevision();
  }

  async compact(revision: number): Promise<void> {
    await this.storage.compact(revision);
    for (const { cacher } of this.caches.values()) cacher.forgetBefore(revision);
  }

  checkHealth(signal?: AbortSignal): Promise<void> {
    return this.storage.checkHealth(signal);
  }

  /** Stops every cache, then closes the store. */
  async close(): Promise<void> {
    await Promise.all([...this.caches.values()].map(({ cacher }) => cacher.stop()));
    this.caches.clear();
    await this.storage.close();
  }

  /** The started cache for a key or prefix, created on first use; undefined if none covers it. */
  private async cacheFor(keyOrPrefix: string): Promise<Cacher<KeyValue> | undefined> {
    const prefix = this.options.cachePrefixOf(keyOrPrefix);
    if (prefix === undefined || !keyOrPrefix.startsWith(prefix)) return undefined;
    let cache = this.caches.get(prefix);
    if (cache === undefined) {
      const cacher = new Cacher<KeyValue>({
        storage: this.storage,
        prefix,
        decoder: identity,
        ...(this.options.cacher !== undefined ? { options: this.options.cacher } : {}),
        ...(this.options.timers !== undefined ? { timers: this.options.timers } : {}),
      });
      cache = { cacher, started: cacher.start() };
      this.caches.set(prefix, cache);
    }
    await cache.started;
    return cache.cacher;
  }

  /**
   * The cache read for a storage read: current means consistent, a revision means exact. The
   * storage contract fails a revision above the store's at once, where a cache would wait for it.
   */
  private async readRevision(cache: Cacher<KeyValue>, revision: number | undefined): Promise<ReadRevision> {
    if (revision === undefined) return CONSISTENT;
    if (revision > cache.revision) {
      const current = await this.storage.currentRevision();
      if (revision > current) throw futureRevision(revision, current);
    }
    return { kind: 'exact', revision };
  }

  private async openWatch(prefix: string, from: Promise<number>, signal: AbortSignal): Promise<WatchSource> {
    const cache = await this.cacheFor(prefix);
    const revision = await from;
    if (cache === undefined) return { store: this.storage.watch(prefix, revision, { signal }) };
    try {
      const start = { kind: 'after', revision } as const;
      return { cache: await cache.watch({ prefix, start, bookmarks: false, initialEventsEndBookmark: false, signal }) };
    } catch (err) {
      // Older than the cache's window but not compacted in the store: the store can still serve it.
      if (!isStorageError(err, 'compacted') || revision < (await this.storage.compactedRevision())) throw err;
      return { store: this.storage.watch(prefix, revision, { signal }) };
    }
  }
}
