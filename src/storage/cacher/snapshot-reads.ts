/** get and list answered from one immutable snapshot of the cache's state. */
import type { CacheGetResult, CacheListResult, CacheEntry } from './cache-types.js';
import { prefixEnd, sortKey } from './key-range.js';
import type { SortedMap } from './sorted-map.js';
import { corruptList, isCorrupt, type CorruptValue, type Slot } from './slot.js';

/** A state of the cache and the revision it is the state at. */
export interface Snapshot<T> {
  readonly state: SortedMap<Slot<T>>;
  readonly revision: number;
}

/** What a list asks for, once its revision is resolved to a snapshot. */
export interface ListQuery<T> {
  readonly prefix: string;
  readonly startKey: string | undefined;
  readonly limit: number | undefined;
  readonly filter: ((object: T) => boolean) | undefined;
}

/** Throws the key's 'corrupt' error if it holds an undecodable value. */
export function getFromSnapshot<T>(snapshot: Snapshot<T>, key: string): CacheGetResult<T> {
  const slot = snapshot.state.get(sortKey(key));
  if (slot !== undefined && isCorrupt(slot)) throw slot.error;
  return { entry: slot, revision: snapshot.revision };
}

/**
 * One page of a list. Costs O(log n + scanned keys); `remaining` is counted in O(log n). Throws
 * 'corrupt' naming every undecodable key the page scanned.
 */
export function listFromSnapshot<T>(snapshot: Snapshot<T>, query: ListQuery<T>): CacheListResult<T> {
  const { limit, filter } = query;
  const prefix = sortKey(query.prefix);
  const start = query.startKey === undefined ? prefix : sortKey(query.startKey);
  const cursor = snapshot.state.cursor(start > prefix ? start : prefix);
  const items: CacheEntry<T>[] = [];
  const corrupt: CorruptValue[] = [];
  let continueKey: string | undefined;
  for (let key = cursor.key; key !== undefined && key.startsWith(prefix); cursor.advance(), key = cursor.key) {
    const slot = cursor.value!;
    if (limit !== undefined && limit > 0 && items.length === limit) {
      continueKey = slot.key;
      break;
    }
    if (isCorrupt(slot)) corrupt.push(slot);
    else if (filter === undefined || filter(slot.object)) items.push(slot);
  }
  if (corrupt.length > 0) throw corruptList(corrupt);
  const remaining =
    continueKey !== undefined && filter === undefined
      ? snapshot.state.countBefore(prefixEnd(prefix)) - snapshot.state.countBefore(sortKey(continueKey))
      : undefined;
  return { items, revision: snapshot.revision, continueKey, remaining };
}
