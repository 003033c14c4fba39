/**
 * get and list answered by the store itself, for what the cache cannot serve: a revision older
 * than its window, a cache that is (re-)listing, a consistent read the cache did not catch up with.
 * Values are decoded afresh (these entries are not shared with the cache's).
 */
import type { Storage } from '../storage.js';
import type { CacheEntry, CacheGetResult, CacheListResult, Decoder } from './cache-types.js';
import type { ListQuery } from './snapshot-reads.js';
import { corruptList, decodeSlot, isCorrupt, type CorruptValue } from './slot.js';

/** Store page size when a filter may drop items (so one read does not fetch the whole prefix). */
const FILTERED_PAGE = 500;

export async function getFromStorage<T>(storage: Storage, decoder: Decoder<T>, key: string, revision?: number): Promise<CacheGetResult<T>> {
  const result = await storage.get(key, revision);
  if (result.kv === undefined) return { entry: undefined, revision: result.revision };
  const slot = decodeSlot(decoder, result.kv);
  if (isCorrupt(slot)) throw slot.error;
  return { entry: slot, revision: result.revision };
}

/**
 * One page of a list read from the store at `revision` (undefined: the current one). Reads one
 * key beyond the limit so that the continue key is a real key, as the cache's own lists give.
 */
export async function listFromStorage<T>(
  storage: Storage,
  decoder: Decoder<T>,
  query: ListQuery<T>,
  revision?: number,
): Promise<CacheListResult<T>> {
  const { prefix, limit, filter } = query;
  const wanted = limit !== undefined && limit > 0 ? limit : undefined;
  const items: CacheEntry<T>[] = [];
  const corrupt: CorruptValue[] = [];
  let startKey = query.startKey !== undefined && query.startKey !== prefix ? query.startKey : undefined;
  let atRevision = revision;
  for (;;) {
    const pageSize = wanted === undefined ? 0 : filter === undefined ? wanted + 1 : Math.max(FILTERED_PAGE, wanted + 1);
    const page = await storage.list(prefix, {
      ...(atRevision !== undefined ? { revision: atRevision } : {}),
      ...(pageSize > 0 ? { limit: pageSize } : {}),
      ...(startKey !== undefined ? { startKey } : {}),
    });
    atRevision = page.revision;
    for (let i = 0; i < page.kvs.length; i++) {
      const kv = page.kvs[i]!;
      if (wanted !== undefined && items.length === wanted) {
        if (corrupt.length > 0) throw corruptList(corrupt);
        const remaining = filter === undefined ? page.kvs.length - i + page.remaining : undefined;
        return { items, revision: page.revision, continueKey: kv.key, remaining };
      }
      const slot = decodeSlot(decoder, kv);
      if (isCorrupt(slot)) corrupt.push(slot);
      else if (filter === undefined || filter(slot.object)) items.push(slot);
    }
    const last = page.kvs[page.kvs.length - 1];
    if (page.remaining === 0 || last === undefined) {
      if (corrupt.length > 0) throw corruptList(corrupt);
      return { items, revision: page.revision, continueKey: undefined, remaining: undefined };
    }
    startKey = last.key + '\0';
  }
}
