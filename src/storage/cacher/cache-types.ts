/**
 * The contract of the watch cache: what the registry asks of it. One cache serves one key prefix
 * (one resource type, e.g. `/registry/configmaps/`) from memory, fed by one storage watch.
 */
import type { KeyValue } from '../storage.js';

/**
 * Turns stored bytes into the object the cache holds. Called once per stored revision of a key;
 * throws a StorageError('corrupt') for bytes it cannot read. For a delete the cache passes the
 * deleted value with `modRevision` set to the delete's revision (what a DELETED event carries).
 */
export type Decoder<T> = (kv: KeyValue) => T;

/** One key's state at one revision, shared by every reader and watcher that sees it. */
export interface CacheEntry<T> {
  readonly key: string;
  readonly object: T;
  readonly modRevision: number;
  readonly createRevision: number;
}

/** Which revision a read is served at (the semantics of the resourceVersion tables). */
export type ReadRevision =
  /** Most Recent: wait until the cache has seen the store's current revision, then answer. */
  | { readonly kind: 'consistent' }
  /** Any: whatever the cache holds now. */
  | { readonly kind: 'any' }
  /** At least this revision: wait briefly for the cache to reach it, else 'future-revision'. */
  | { readonly kind: 'not-older-than'; readonly revision: number }
  /** Exactly this revision: from a snapshot, or from storage; 'compacted' if it is gone. */
  | { readonly kind: 'exact'; readonly revision: number };

export interface CacheGetResult<T> {
  readonly entry: CacheEntry<T> | undefined;
  /** The revision the read was served at. */
  readonly revision: number;
}

export interface CacheListRequest<T> {
  /** Key prefix within the cache's prefix (a namespace's keys, or all of them). */
  readonly prefix: string;
  readonly at: ReadRevision;
  /** First key to consider (inclusive), for continuation. */
  readonly startKey?: string;
  /** At most this many items (0 or omitted: all). */
  readonly limit?: number;
  /** Only entries whose object passes are returned; the limit counts returned items. */
  readonly filter?: (object: T) => boolean;
  readonly signal?: AbortSignal;
}

export interface CacheListResult<T> {
  readonly items: readonly CacheEntry<T>[];
  /** The revision the list was served at (a paged list keeps it for every page). */
  readonly revision: number;
  /** Present when the limit cut the list: the key to continue from (inclusive). */
  readonly continueKey: string | undefined;
  /**
   * When the limit cut the list and no filter was given: the number of keys after this page.
   * Undefined otherwise.
   */
  readonly remaining: number | undefined;
}

/** Where a watch starts. */
export type WatchStart =
  /**
   * Synthetic ADDED events for the state at `at`, then every later change. For consistent, any and
   * not-older-than that state is the cache's current one (at least the asked revision); for exact
   * it is the snapshot at that revision, followed by the window's changes since.
   */
  | { readonly kind: 'initial-state'; readonly at: ReadRevision }
  /** Every change after this revision (it must still be in the event window, else 'compacted'). */
  | { readonly kind: 'after'; readonly revision: number };

export interface CacheWatchRequest<T> {
  /** Watch the keys under this prefix ... */
  readonly prefix: string;
  /** ... or exactly this one key. */
  readonly key?: string;
  readonly start: WatchStart;
  /** Send BOOKMARK events while idle (at least every few seconds). */
  readonly bookmarks: boolean;
  /**
   * With an 'initial-state' start: after the synthetic events, send one BOOKMARK with
   * `initialEventsEnd: true` at the revision the initial state was read at.
   */
  readonly initialEventsEndBookmark: boolean;
  /**
   * Only objects that pass are visible: an update that makes an object pass is delivered as
   * ADDED, one that makes it stop passing as DELETED (with the new object), as upstream does.
   */
  readonly filter?: (object: T) => boolean;
  readonly signal: AbortSignal;
}

export type CacheWatchEvent<T> =
  | {
      readonly type: 'ADDED' | 'MODIFIED' | 'DELETED';
      /** The object to send: the new state, or for a delete the deleted object (see Decoder). */
      readonly entry: CacheEntry<T>;
      /** The revision of the change (for a synthetic initial ADDED: the object's modRevision). */
      readonly revision: number;
      /**
       * The key's state before this change, as it was stored (its own modRevision); absent for a
       * create and for synthetic initial events. Shared, like `entry`.
       */
      readonly prevEntry?: CacheEntry<T> | undefined;
    }
  | {
      readonly type: 'BOOKMARK';
      readonly revision: number;
      readonly initialEventsEnd: boolean;
    };

/** Where a consumed watch pushes its events (see {@link CacheWatch.consume}). */
export interface WatchSink<T> {
  /**
   * The next event, in order. A throw ends the watch and is passed to `end`. Returning false takes
   * the event but asks for no more until {@link CacheWatch.resume}: meanwhile live events wait in
   * the watcher's bounded queue, and the backlog is not read at all.
   */
  event(event: CacheWatchEvent<T>): boolean | void;
  /**
   * The watch ended, once: without an argument when it was closed (the signal aborted, the cache
   * stopped), otherwise with why (a StorageError as below, or what `event` threw). Must not throw:
   * it runs inside the cache's dispatch to every watcher.
   */
  end(error?: unknown): void;
}

/**
 * A running watch. Its events are read either by async iteration or, by a consumer that keeps up
 * by itself, through {@link consume}; never both (the other way fails with 'invalid'). It ends when
 * the signal aborts (or the cache stops), and fails with a StorageError when the watcher is closed:
 * 'watcher-too-slow' when it fell further behind than its buffer allows, 'compacted' when the cache
 * lost its storage watch and had to re-list (the client must list again), 'corrupt' when a change
 * it should see cannot be decoded.
 */
export interface CacheWatch<T> extends AsyncIterable<CacheWatchEvent<T>> {
  /**
   * Pushes every event to `sink` as soon as it is available, synchronously, instead of through a
   * promise and a microtask turn per event: with 1,000 watchers those were a large share of a
   * fan-out. Events already available are pushed before this returns.
   */
  consume(sink: WatchSink<T>): void;
  /**
   * Pushes to the sink again after its `event` returned false, starting with what is available
   * now. A sink that stays paused while changes go on falls behind its buffer and is ended with
   * 'watcher-too-slow': a consumer that cannot keep up costs a bounded amount of memory.
   */
  resume(): void;
  /**
   * Asks for a BOOKMARK (even when `bookmarks` is false) at a revision at least the store's
   * current revision at the time of the call, once the cache has caught up with it. Best effort:
   * nothing is sent if the cache does not catch up within its consistent-read timeout.
   */
  requestProgress(): void;
}

export interface WatchCache<T> {
  /** Resolves once the cache holds the store's state and follows its watch. */
  start(): Promise<void>;
  get(key: string, at: ReadRevision, signal?: AbortSignal): Promise<CacheGetResult<T>>;
  /**
   * What {@link get} would answer, when the cache can answer at once: it is ready and already as
   * new as the read asks (for a consistent read, the store must know its revision without a round
   * trip). Undefined otherwise: then call get. Throws what get would reject with.
   */
  getNow(key: string, at: ReadRevision): CacheGetResult<T> | undefined;
  list(request: CacheListRequest<T>): Promise<CacheListResult<T>>;
  /**
   * Starts a watch. Resolves once it is established, so that a watch that cannot start fails before
   * any byte is streamed: 'compacted' for an 'after' revision older than the event window (or an
   * 'exact' initial state that is gone), 'future-revision' for a 'not-older-than' or 'exact'
   * initial state the cache does not reach in time, 'invalid' for a prefix or key outside the
   * cache's prefix. An 'after' revision above the cache's current one is accepted and simply waits.
   */
  watch(request: CacheWatchRequest<T>): Promise<CacheWatch<T>>;
  /** The newest revision the cache has seen. */
  readonly revision: number;
  /**
   * Tells the cache the store was compacted up to `revision`: it stops serving exact reads and
   * watches from below it (they answer 'compacted', as the store would).
   */
  forgetBefore(revision: number): void;
  stop(): Promise<void>;
}
