/**
 * What a new watcher is sent before live changes, produced lazily so a watch over 10,000 objects
 * holds a cursor, not 10,000 events: the synthetic ADDED events of an initial state (read from an
 * immutable snapshot) and the replay of window events it missed.
 */
import type { StorageError } from '../errors.js';
import type { CacheWatchEvent } from './cache-types.js';
import type { CachedEvent } from './cached-event.js';
import { sortKey, type KeyRange } from './key-range.js';
import type { Snapshot } from './snapshot-reads.js';
import { isCorrupt } from './slot.js';

export type BacklogItem<T> = CacheWatchEvent<T> | StorageError;

/** ADDED for each object of `snapshot` in `range` that passes, then the initial-events-end bookmark if asked. */
export function* initialEvents<T>(
  snapshot: Snapshot<T>,
  range: KeyRange,
  filter: ((object: T) => boolean) | undefined,
  endBookmark: boolean,
): Generator<BacklogItem<T>, void> {
  const cursor = snapshot.state.cursor(sortKey(range.first));
  for (let slot = cursor.value; slot !== undefined && range.covers(slot.key); cursor.advance(), slot = cursor.value) {
    if (isCorrupt(slot)) {
      yield slot.error;
      return;
    }
    if (filter === undefined || filter(slot.object)) yield { type: 'ADDED', entry: slot, revision: slot.modRevision };
  }
  if (endBookmark) yield { type: 'BOOKMARK', revision: snapshot.revision, initialEventsEnd: true };
}

/** The window's changes in `range`, as a watcher with `filter` sees them. */
export function* replay<T>(
  changes: readonly CachedEvent<T>[],
  range: KeyRange,
  filter: ((object: T) => boolean) | undefined,
): Generator<BacklogItem<T>, void> {
  for (const change of changes) {
    if (!range.covers(change.key)) continue;
    const delivery = change.deliveryFor(filter);
    if (delivery !== undefined) yield delivery;
  }
}

/** One generator after the other. */
export function* chain<E>(...parts: Iterable<E>[]): Generator<E, void> {
  for (const part of parts) yield* part;
}
