/**
 * A storage Watch served by a watch cache: the Watch that CacheBackedStorage returns. It opens a
 * cache watch (or, for history the cache no longer holds but the store does, a store watch) when
 * iteration starts, and turns cache events back into storage batches with their prevKv.
 */
import { deletedKeyValue, type KeyValue, type Watch, type WatchBatch } from '../storage.js';
import type { CacheWatch, CacheWatchEvent } from './cache-types.js';

/** Where the events come from once the watch is open. */
export type WatchSource = { readonly cache: CacheWatch<KeyValue> } | { readonly store: Watch };

export function batchOf(event: CacheWatchEvent<KeyValue>): WatchBatch {
  if (event.type === 'BOOKMARK') return { events: [], revision: event.revision };
  const prevKv = event.prevEntry?.object;
  if (event.type !== 'DELETED') return { events: [{ type: 'put', kv: event.entry.object, prevKv }], revision: event.revision };
  const kv = deletedKeyValue(event.entry.key, event.revision);
  return { events: [{ type: 'delete', kv, prevKv: prevKv ?? event.entry.object }], revision: event.revision };
}

export class CachedStorageWatch implements Watch {
  private source: WatchSource | undefined;
  private progressWanted = false;

  constructor(
    /** Opens the source; rejects as the watch should fail (e.g. 'compacted'). */
    private readonly open: () => Promise<WatchSource>,
    private readonly signal: AbortSignal | undefined,
  ) {}

  requestProgress(): void {
    if (this.source === undefined) this.progressWanted = true;
    else if ('cache' in this.source) this.source.cache.requestProgress();
    else this.source.store.requestProgress();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<WatchBatch> {
    let source: WatchSource;
    try {
      source = await this.open();
    } catch (err) {
      if (this.signal?.aborted) return;
      throw err;
    }
    this.source = source;
    if (this.progressWanted) this.requestProgress();
    if ('store' in source) {
      yield* source.store;
      return;
    }
    for await (const event of source.cache) yield batchOf(event);
  }
}
