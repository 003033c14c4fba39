/**
 * One change as the cache keeps it: applied to the cache's state, held in the event window, and
 * turned into the watch event each watcher sees. The watch events are built at most once per type
 * and shared by every watcher, so dispatching to many watchers allocates nothing per watcher.
 */
import type { StorageError } from '../errors.js';
import type { CacheEntry, CacheWatchEvent } from './cache-types.js';
import { sortKey } from './key-range.js';
import { isCorrupt, type Slot } from './slot.js';
import type { SortedMap } from './sorted-map.js';

type ChangeType = 'ADDED' | 'MODIFIED' | 'DELETED';

/** What a change means to one watcher: an event to send, nothing, or an error that ends it. */
export type Delivery<T> = CacheWatchEvent<T> | StorageError | undefined;

export class CachedEvent<T> {
  private readonly shared: Partial<Record<ChangeType, CacheWatchEvent<T>>> = {};

  constructor(
    readonly kind: 'put' | 'delete',
    readonly key: string,
    /** The revision of the change. */
    readonly revision: number,
    /** For a put the new state; for a delete the deleted object at the delete's revision. */
    readonly slot: Slot<T>,
    /** The key's state before the change, if the cache had it. */
    readonly prev: Slot<T> | undefined,
    /** When the cache received it (clock ms), for the window's time bound. */
    readonly receivedAt: number,
  ) {}

  /**
   * Whether this change deletes a value nobody could decode (the force delete of a corrupt
   * object). No watcher can be shown that deletion, so the cache ends them all (see Cacher).
   */
  get removesCorruptValue(): boolean {
    return this.kind === 'delete' && isCorrupt(this.slot);
  }

  /** `state` with this change applied. */
  applyTo(state: SortedMap<Slot<T>>): SortedMap<Slot<T>> {
    const at = sortKey(this.key);
    return this.kind === 'put' ? state.set(at, this.slot) : state.delete(at);
  }

  /**
   * The event a watcher with this filter sees, following upstream's rules: passing before and
   * after is MODIFIED, only after is ADDED, only before is DELETED (carrying the new object).
   * A delete of a value nobody could decode is invisible; a put of one ends the watcher.
   */
  deliveryFor(filter: ((object: T) => boolean) | undefined): Delivery<T> {
    const slot = this.slot;
    if (isCorrupt(slot)) return this.kind === 'put' ? slot.error : undefined;
    const prev = this.prev !== undefined && !isCorrupt(this.prev) ? this.prev : undefined;
    if (this.kind === 'delete') {
      const before = prev ?? slot;
      return filter === undefined || filter(before.object) ? this.event('DELETED', slot, prev) : undefined;
    }
    if (filter === undefined) return this.event(prev ? 'MODIFIED' : 'ADDED', slot, prev);
    const wasIn = prev !== undefined && filter(prev.object);
    const isIn = filter(slot.object);
    if (isIn) return this.event(wasIn ? 'MODIFIED' : 'ADDED', slot, prev);
    return wasIn ? this.event('DELETED', slot, prev) : undefined;
  }

  private event(type: ChangeType, entry: CacheEntry<T>, prevEntry: CacheEntry<T> | undefined): CacheWatchEvent<T> {
    let event = this.shared[type];
    if (event === undefined) {
      event = { type, entry, revision: this.revision, prevEntry };
      this.shared[type] = event;
    }
    return event;
  }
}
