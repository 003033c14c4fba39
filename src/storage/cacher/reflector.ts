/**
 * Feeds a cache from the store: lists the prefix, then follows one storage watch from the list's
 * revision. When the watch fails (compacted, unavailable, or ended by the store) it reports that,
 * waits, and starts over with a fresh list, until its signal aborts.
 */
import { isStorageError, unavailable, type StorageError } from '../errors.js';
import type { KeyValue, Storage, Watch, WatchBatch } from '../storage.js';
import { sleep } from '../../util/sleep.js';
import type { CacheTimers } from './cacher-options.js';

/**
 * What the reflector drives. Its methods must not throw (a throw is treated as a watch failure).
 * `P` is what one listed key becomes (for a cache: the decoded entry).
 */
export interface ReflectorSink<P> {
  /**
   * Turns one listed page into what replace() takes. Called page by page, so that a page's stored
   * bytes are garbage before the next page is read: a full list never holds the whole store twice.
   */
  prepare(kvs: readonly KeyValue[]): P[];
  /** The full state of the prefix at `revision`; replaces whatever was held. */
  replace(items: readonly P[], revision: number): void;
  /** The next batch of the storage watch. */
  apply(batch: WatchBatch): void;
  /** The list or the watch failed; the held state is stale until the next replace(). */
  broken(error: StorageError): void;
}

export interface ReflectorOptions {
  readonly pageSize: number;
  readonly retryDelayMs: number;
  readonly retryMaxDelayMs: number;
}

function asStorageError(err: unknown): StorageError {
  return isStorageError(err) ? err : unavailable('watch cache: storage failed', err);
}

export class Reflector<P> {
  private watch: Watch | undefined;

  constructor(
    private readonly storage: Storage,
    private readonly prefix: string,
    private readonly sink: ReflectorSink<P>,
    private readonly timers: CacheTimers,
    private readonly options: ReflectorOptions,
  ) {}

  /** Asks the storage watch for a progress notification; false when no watch is running. */
  requestProgress(): boolean {
    if (this.watch === undefined) return false;
    this.watch.requestProgress();
    return true;
  }

  /** Runs until `signal` aborts; never rejects. */
  async run(signal: AbortSignal): Promise<void> {
    let delay = this.options.retryDelayMs;
    while (!signal.aborted) {
      try {
        const revision = await this.fill(signal);
        if (revision === undefined) return;
        const watch = this.storage.watch(this.prefix, revision, { signal });
        this.watch = watch;
        for await (const batch of watch) {
          this.sink.apply(batch);
          delay = this.options.retryDelayMs;
        }
        if (signal.aborted) return;
        throw unavailable('watch cache: the storage watch ended');
      } catch (err) {
        this.watch = undefined;
        if (signal.aborted) return;
        this.sink.broken(asStorageError(err));
      }
      await sleep(delay, signal, this.timers);
      delay = Math.min(delay * 2, this.options.retryMaxDelayMs);
    }
  }

  /**
   * Lists the prefix into the sink; undefined when aborted meanwhile. Its own frame, so that the
   * listed values are garbage once the cache holds them: kept in run()'s frame they would stay
   * alive as long as the watch that follows (the size of the whole store).
   */
  private async fill(signal: AbortSignal): Promise<number | undefined> {
    const { items, revision } = await this.listAll();
    if (signal.aborted) return undefined;
    this.sink.replace(items, revision);
    return revision;
  }

  /** The whole prefix at one revision, read in pages so no single storage read is huge. */
  private async listAll(): Promise<{ items: P[]; revision: number }> {
    const items: P[] = [];
    let revision: number | undefined;
    let startKey: string | undefined;
    for (;;) {
      const page = await this.storage.list(this.prefix, {
        limit: this.options.pageSize,
        countRemaining: false,
        ...(revision !== undefined ? { revision } : {}),
        ...(startKey !== undefined ? { startKey } : {}),
      });
      revision = page.revision;
      for (const item of this.sink.prepare(page.kvs)) items.push(item);
      const last = page.kvs[page.kvs.length - 1];
      if (page.remaining === 0 || last === undefined) return { items, revision };
      startKey = last.key + '\0';
    }
  }
}
