/**
 * The watch cache of one key prefix: the prefix's objects and recent history in memory, fed by one
 * storage watch, serving get, list and watch at every kind of read revision.
 *
 * Invariant: whenever code outside `apply` runs, every change up to `state.revision` has been
 * offered to every registered watcher. So a watcher registered synchronously after reading the
 * state (or the window) misses nothing and sees nothing twice; every path below that registers a
 * watcher or reads a snapshot does so without an `await` in between.
 */
import { StorageError, compacted, futureRevision, unavailable } from '../errors.js';
import type { Storage, WatchBatch } from '../storage.js';
import type {
  CacheGetResult,
  CacheListRequest,
  CacheListResult,
  CacheWatch,
  CacheWatchRequest,
  Decoder,
  ReadRevision,
  WatchCache,
} from './cache-types.js';
import { defaultCacherOptions, systemTimers, type CacheTimers, type CacherOptions } from './cacher-options.js';
import { CacheState, type PreparedEntry } from './cache-state.js';
import { CacheWatcher, type WatcherHost } from './cache-watcher.js';
import { KeyRange } from './key-range.js';
import { ReadyGate } from './ready-gate.js';
import { Reflector, type ReflectorSink } from './reflector.js';
import { RevisionWaiters } from './revision-waiters.js';
import { getFromSnapshot, listFromSnapshot, type ListQuery, type Snapshot } from './snapshot-reads.js';
import { getFromStorage, listFromStorage } from './storage-reads.js';
import { chain, initialEvents, replay, type BacklogItem } from './watch-backlog.js';
import { WatcherSet } from './watcher-set.js';

export interface CacherConfig<T> {
  readonly storage: Storage;
  /** The key prefix this cache holds, e.g. `/registry/configmaps/`. */
  readonly prefix: string;
  readonly decoder: Decoder<T>;
  readonly options?: Partial<CacherOptions>;
  readonly timers?: CacheTimers;
}

export class Cacher<T> implements WatchCache<T> {
  readonly prefix: string;
  private readonly storage: Storage;
  private readonly decoder: Decoder<T>;
  private readonly options: CacherOptions;
  private readonly timers: CacheTimers;
  private readonly state: CacheState<T>;
  private readonly watchers = new WatcherSet<T>();
  private readonly waiters: RevisionWaiters;
  private readonly gate = new ReadyGate();
  private readonly reflector: Reflector<PreparedEntry<T>>;
  private readonly host: WatcherHost<T>;
  private readonly lifetime = new AbortController();
  private running: Promise<void> | undefined;
  private tickTimer: unknown;
  private lastCompactionCheck = 0;
  /** A progress request is out and no batch has arrived since. */
  private progressAsked = false;

  constructor(config: CacherConfig<T>) {
    this.prefix = config.prefix;
    this.storage = config.storage;
    this.decoder = config.decoder;
    this.options = { ...defaultCacherOptions, ...config.options };
    this.timers = config.timers ?? systemTimers;
    const limits = { retentionMs: this.options.windowRetentionMs, maxEvents: this.options.maxWindowEvents };
    this.state = new CacheState(config.decoder, limits, () => this.timers.now());
    this.waiters = new RevisionWaiters(this.timers);
    const sink: ReflectorSink<PreparedEntry<T>> = {
      prepare: (kvs) => this.state.prepare(kvs),
      replace: (entries, revision) => this.replace(entries, revision),
      apply: (batch) => this.apply(batch),
      broken: (error) => this.broken(error),
    };
    this.host = { detach: (watcher) => this.watchers.remove(watcher), progress: (watcher) => this.progress(watcher) };
    this.reflector = new Reflector(this.storage, this.prefix, sink, this.timers, {
      pageSize: this.options.relistPageSize,
      retryDelayMs: this.options.relistDelayMs,
      retryMaxDelayMs: this.options.relistMaxDelayMs,
    });
  }

  get revision(): number {
    return this.state.revision;
  }

  /** Watchers currently registered (for metrics and tests). */
  get watcherCount(): number {
    return this.watchers.size;
  }

  /**
   * Starts following the store (once). Resolves when the first list is in; a failing store is
   * retried in the background until it answers. Rejects with 'unavailable' if stopped first.
   */
  start(): Promise<void> {
    if (this.running === undefined && !this.lifetime.signal.aborted) {
      this.running = this.reflector.run(this.lifetime.signal);
      this.scheduleTick();
    }
    return this.gate.wait();
  }

  /** Ends the storage watch and every watcher (their iterations finish); pending reads reject. */
  async stop(): Promise<void> {
    if (this.lifetime.signal.aborted) return;
    this.lifetime.abort();
    if (this.tickTimer !== undefined) this.timers.clearTimeout(this.tickTimer);
    const stopped = unavailable(`watch cache for ${this.prefix} stopped`);
    this.gate.shut(stopped);
    this.waiters.rejectAll(stopped);
    this.watchers.closeAll();
    await this.running;
  }

  /**
   * The store compacted history before `revision`: stop serving exact reads and watch starts
   * below it from the window, as the store no longer can.
   */
  forgetBefore(revision: number): void {
    this.state.forget(revision);
  }

  async get(key: string, at: ReadRevision, signal?: AbortSignal): Promise<CacheGetResult<T>> {
    this.checkKey(key);
    if (await this.catchUp(at, signal)) {
      const snapshot = this.snapshotFor(at);
      if (snapshot !== undefined) return getFromSnapshot(snapshot, key);
    }
    const result = await getFromStorage(this.storage, this.decoder, key, at.kind === 'exact' ? at.revision : undefined);
    return this.checkStoreRevision(at, result);
  }

  getNow(key: string, at: ReadRevision): CacheGetResult<T> | undefined {
    if (!this.gate.isOpen) return undefined;
    const needed = this.revisionNeededNow(at);
    if (needed === undefined || needed > this.state.revision) return undefined;
    this.checkKey(key);
    return getFromSnapshot(this.state.snapshot, key);
  }

  async list(request: CacheListRequest<T>): Promise<CacheListResult<T>> {
    this.checkKey(request.prefix);
    const query: ListQuery<T> = {
      prefix: request.prefix,
      startKey: request.startKey,
      limit: request.limit,
      filter: request.filter,
    };
    if (await this.catchUp(request.at, request.signal)) {
      const snapshot = this.snapshotFor(request.at);
      if (snapshot !== undefined) return listFromSnapshot(snapshot, query);
    }
    const revision = request.at.kind === 'exact' ? request.at.revision : undefined;
    return this.checkStoreRevision(request.at, await listFromStorage(this.storage, this.decoder, query, revision));
  }

  async watch(request: CacheWatchRequest<T>): Promise<CacheWatch<T>> {
    const range = this.rangeOf(request.prefix, request.key);
    const { start, filter } = request;
    await this.gate.wait(request.signal);
    if (start.kind === 'after') {
      const changes = this.state.changesAfter(start.revision);
      if (changes === undefined) throw compacted(start.revision, this.state.oldestRevision);
      // A revision ahead of the cache needs no wait: the watcher just ignores changes up to it.
      if (start.revision >= this.state.revision) return this.register(request, range, start.revision, undefined);
      const backlog = changes.length > 0 ? replay(changes, range, filter) : undefined;
      return this.register(request, range, this.state.revision, backlog);
    }
    if (!(await this.catchUp(start.at, request.signal))) {
      throw unavailable(`watch cache for ${this.prefix} did not catch up with the store in time`);
    }
    const snapshot = this.snapshotFor(start.at);
    const changes = snapshot && this.state.changesAfter(snapshot.revision);
    if (snapshot === undefined || changes === undefined) {
      throw compacted(start.at.kind === 'exact' ? start.at.revision : this.state.revision, this.state.oldestRevision);
    }
    const backlog = chain<BacklogItem<T>>(
      initialEvents(snapshot, range, filter, request.initialEventsEndBookmark),
      replay(changes, range, filter),
    );
    return this.register(request, range, this.state.revision, backlog);
  }

  // --- fed by the reflector -------------------------------------------------------------------

  private replace(entries: readonly PreparedEntry<T>[], revision: number): void {
    this.state.replace(entries, revision);
    this.progressAsked = false;
    this.gate.openGate();
    this.waiters.advance(revision);
  }

  private apply(batch: WatchBatch): void {
    const changes = [];
    for (const event of batch.events) {
      const change = this.state.apply(event);
      if (change !== undefined) changes.push(change);
    }
    this.state.advance(batch.revision);
    this.progressAsked = false;
    this.watchers.dispatch(changes);
    const removed = changes.find((change) => change.removesCorruptValue);
    if (removed !== undefined) this.watchers.closeAll(corruptValueRemoved(this.prefix, removed.key, this.state.revision));
    this.watchers.flush();
    this.waiters.advance(this.state.revision);
  }

  private broken(error: StorageError): void {
    this.gate.closeGate();
    this.progressAsked = false;
    // Upstream closes every watcher when its cache re-lists; they re-list too.
    this.watchers.closeAll(
      new StorageError(
        'compacted',
        `storage: watch cache for ${this.prefix} lost its storage watch (${error.message}); list again`,
        undefined,
        this.state.revision,
        { cause: error },
      ),
    );
  }

  /** A watcher's requestProgress(): a bookmark once the cache has reached the store's revision. */
  private progress(watcher: CacheWatcher<T>): void {
    void this.storage
      .currentRevision()
      .then((target) => this.waitRevision(target, this.options.consistentReadWaitMs))
      .then((outcome) => {
        if (outcome === 'reached' && watcher.bookmark(this.state.revision, true)) watcher.wake();
      })
      .catch(() => undefined); // best effort, as documented on CacheWatch.requestProgress
  }

  // --- internals ------------------------------------------------------------------------------

  /**
   * Waits until the cache can answer a read at `at`. Returns false when the store must answer
   * instead (the cache is re-listing, or a consistent read did not catch up in time). Throws
   * 'future-revision' when a 'not-older-than' or 'exact' revision is not reached in time.
   */
  private async catchUp(at: ReadRevision, signal: AbortSignal | undefined): Promise<boolean> {
    if (!this.gate.isOpen) return false;
    switch (at.kind) {
      case 'any':
        return true;
      case 'consistent': {
        const target = await this.storage.currentRevision();
        const outcome = await this.waitRevision(target, this.options.consistentReadWaitMs, signal);
        return outcome === 'reached' && this.gate.isOpen;
      }
      case 'not-older-than':
      case 'exact': {
        const outcome = await this.waitRevision(at.revision, this.options.futureRevisionWaitMs, signal);
        if (outcome === 'timeout') throw futureRevision(at.revision, this.state.revision);
        return this.gate.isOpen;
      }
    }
  }

  /**
   * The revision the cache must have reached to serve a read at `at` now, or undefined when only
   * {@link catchUp} can tell (an exact revision, or a store that must be asked for its revision).
   */
  private revisionNeededNow(at: ReadRevision): number | undefined {
    switch (at.kind) {
      case 'any':
        return 0;
      case 'consistent':
        return this.storage.knownCurrentRevision?.();
      case 'not-older-than':
        return at.revision;
      case 'exact':
        return undefined;
    }
  }

  /** The snapshot a read at `at` is served from, once caught up; undefined: outside the window. */
  private snapshotFor(at: ReadRevision): Snapshot<T> | undefined {
    return at.kind === 'exact' ? this.state.snapshotAt(at.revision) : this.state.snapshot;
  }

  private waitRevision(revision: number, timeoutMs: number, signal?: AbortSignal): ReturnType<RevisionWaiters['wait']> {
    if (revision > this.state.revision && !this.progressAsked) {
      // One request serves every read waiting now; an idle prefix would otherwise never advance.
      this.progressAsked = this.reflector.requestProgress();
    }
    return this.waiters.wait(revision, this.state.revision, timeoutMs, signal);
  }

  /** A store read must honour the same bound as a cache read would. */
  private checkStoreRevision<R extends { revision: number }>(at: ReadRevision, result: R): R {
    if (at.kind === 'not-older-than' && result.revision < at.revision) throw futureRevision(at.revision, result.revision);
    return result;
  }

  private register(
    request: CacheWatchRequest<T>,
    range: KeyRange,
    startRevision: number,
    backlog: Iterator<BacklogItem<T>, void> | undefined,
  ): CacheWatcher<T> {
    const spec = {
      range,
      filter: request.filter,
      bookmarks: request.bookmarks,
      startRevision,
      capacity: this.options.watcherBufferSize,
      signal: request.signal,
    };
    const watcher = new CacheWatcher(spec, backlog, this.host);
    if (!watcher.isClosed) this.watchers.add(watcher);
    return watcher;
  }

  /** The range a watch covers; throws 'invalid' outside this cache's prefix. */
  private rangeOf(prefix: string, key?: string): KeyRange {
    this.checkKey(prefix);
    if (key !== undefined && !key.startsWith(prefix)) throw outsideCache(key, this.prefix);
    return new KeyRange(prefix, key);
  }

  /** Throws 'invalid' for a key or prefix outside the cache's prefix. */
  private checkKey(keyOrPrefix: string): void {
    if (!keyOrPrefix.startsWith(this.prefix)) throw outsideCache(keyOrPrefix, this.prefix);
  }

  /** The one periodic timer of a cache: idle bookmarks, window expiry, compaction checks. */
  private scheduleTick(): void {
    this.tickTimer = this.timers.setTimeout(() => {
      if (this.lifetime.signal.aborted) return;
      if (this.gate.isOpen) this.watchers.tick(this.state.revision);
      this.state.forget(undefined);
      this.checkCompaction();
      this.scheduleTick();
    }, this.options.bookmarkIntervalMs);
  }

  private checkCompaction(): void {
    const every = this.options.compactionCheckMs;
    const now = this.timers.now();
    if (every <= 0 || now - this.lastCompactionCheck < every) return;
    this.lastCompactionCheck = now;
    this.storage.compactedRevision().then(
      (revision) => this.forgetBefore(revision),
      () => undefined, // the next check retries; reads below the floor still fail in the store
    );
  }
}

/**
 * Why every watcher ends when a corrupt value is deleted. Upstream's cache cannot decode that
 * DELETED event either: its storage watch fails, it lists again and closes all its watchers, which
 * then list again. Here the cache's own state is right already, so only the watchers go, told as
 * those of a cache that lost its storage watch are ('compacted': list again).
 */
function corruptValueRemoved(prefix: string, key: string, revision: number): StorageError {
  return new StorageError('compacted', `storage: watch cache for ${prefix} removed the undecodable value of ${key}; list again`, undefined, revision);
}

function outsideCache(keyOrPrefix: string, cachePrefix: string): StorageError {
  return new StorageError('invalid', `storage: ${keyOrPrefix} is outside the watch cache for ${cachePrefix}`, keyOrPrefix);
}
