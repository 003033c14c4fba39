/** Tuning of a watch cache, and the clock and timers it runs on (injected so tests run fast). */
import { nodeTimers, type Timers } from '../../util/sleep.js';

/** The clock and timers a cache uses; tests pass a manual implementation. */
export interface CacheTimers extends Timers {
  /** Milliseconds on a monotonic-enough clock (only differences matter). */
  now(): number;
}

export const systemTimers: CacheTimers = { now: () => performance.now(), ...nodeTimers };

export interface CacherOptions {
  /** Events are kept at least this long (ms) unless `maxWindowEvents` forces them out. */
  readonly windowRetentionMs: number;
  /** At most this many events are kept (each holds a snapshot path: ~1-2 KB besides its object). */
  readonly maxWindowEvents: number;
  /** Live events a watcher may have queued before it is closed as too slow. */
  readonly watcherBufferSize: number;
  /** An idle watcher that asked for bookmarks gets one at least every 1-2 of these intervals (ms). */
  readonly bookmarkIntervalMs: number;
  /** How long a 'not-older-than' or 'exact' read waits for the cache to reach its revision (ms). */
  readonly futureRevisionWaitMs: number;
  /** How long a 'consistent' read waits for the cache to catch up before it reads the store (ms). */
  readonly consistentReadWaitMs: number;
  /**
   * How often (ms) the cache asks the store for its compacted revision, to stop serving history
   * the store no longer has (0: never; CacheBackedStorage also reports its own compactions).
   */
  readonly compactionCheckMs: number;
  /**
   * Page size of the list that (re)fills the cache. Small enough that one page's stored values
   * (native buffers, freed once decoded) do not fragment the C heap. A page's buffers live until
   * the whole page is decoded; when the collector runs twice meanwhile they are promoted, freed
   * only by a full collection, and malloc's heap grows past them and stays resident. Pages of
   * 10,000 1 KiB values left ~90 MiB of it resident for good. Pages of 1,000 left ~20 MiB, and in
   * about one restart of 12 on 100,000 objects ~85 MiB (malloc_trim gave 56 MiB of it back, so it
   * was free but held). Pages of 100 leave 14-18 MiB, and never more in 44 restarts.
   */
  readonly relistPageSize: number;
  /** Delay before re-listing after the storage watch failed; doubles up to `relistMaxDelayMs`. */
  readonly relistDelayMs: number;
  readonly relistMaxDelayMs: number;
}

export const defaultCacherOptions: CacherOptions = {
  windowRetentionMs: 5 * 60_000,
  maxWindowEvents: 10_000,
  watcherBufferSize: 1000,
  bookmarkIntervalMs: 2000,
  futureRevisionWaitMs: 3000,
  consistentReadWaitMs: 3000,
  compactionCheckMs: 60_000,
  relistPageSize: 100,
  relistDelayMs: 100,
  relistMaxDelayMs: 5000,
};
