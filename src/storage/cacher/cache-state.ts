/**
 * The data of one cache: the current state (a persistent sorted map of decoded entries, keyed by
 * sortKey(key)), the
 * revision it is at, and the window of recent events. Applying a storage event decodes its value
 * once and produces the CachedEvent every reader and watcher shares.
 */
import type { KeyValue, WatchEvent } from '../storage.js';
import type { Decoder } from './cache-types.js';
import { CachedEvent } from './cached-event.js';
import { EventWindow, type WindowLimits } from './event-window.js';
import { sortKey } from './key-range.js';
import type { Snapshot } from './snapshot-reads.js';
import { SortedMap, type SortedMapEditor } from './sorted-map.js';
import { CorruptValue, DecodedEntry, decodeSlot, isCorrupt, type Slot } from './slot.js';

/** One listed key, decoded, with its position in the map's order. */
export interface PreparedEntry<T> {
  readonly at: string;
  readonly slot: Slot<T>;
}

export class CacheState<T> {
  /** The state as of the last seal; puts since then are in `editor`. */
  private sealed: SortedMap<Slot<T>> = SortedMap.empty();
  /**
   * Puts since the state was last needed whole (a read's snapshot, a checkpoint of the window, a
   * delete): a run of puts edits one copy of the tree's upper nodes instead of copying them for
   * every put (sorted-map.ts).
   */
  private editor: SortedMapEditor<Slot<T>> | undefined;
  /** The current state, for the window's checkpoints. */
  private readonly currentState = (): SortedMap<Slot<T>> => this.current;
  private at = 0;
  private window: EventWindow<T>;
  /** The store's compacted revision as last reported: nothing below it is served. */
  private floor = 0;

  constructor(
    private readonly decoder: Decoder<T>,
    private readonly limits: WindowLimits,
    private readonly now: () => number,
  ) {
    this.window = new EventWindow(limits, now, 0, this.current);
  }

  /** The newest revision the state reflects. */
  get revision(): number {
    return this.at;
  }

  /** The oldest revision the cache serves reads at and watches after. */
  get oldestRevision(): number {
    return Math.max(this.window.baseRevision, this.floor);
  }

  /** The whole current state (sealing the puts made since it was last needed). */
  private get current(): SortedMap<Slot<T>> {
    if (this.editor !== undefined) {
      this.sealed = this.editor.seal();
      this.editor = undefined;
    }
    return this.sealed;
  }

  get snapshot(): Snapshot<T> {
    return { state: this.current, revision: this.at };
  }

  /** Decodes listed values into entries for replace(). */
  prepare(kvs: readonly KeyValue[]): PreparedEntry<T>[] {
    return kvs.map((kv) => ({ at: sortKey(kv.key), slot: decodeSlot(this.decoder, kv) }));
  }

  /** Replaces everything with a fresh list at `revision`; the window restarts there. */
  replace(entries: readonly PreparedEntry<T>[], revision: number): void {
    // Sorted again rather than trusted: the map's order (sortKey) is its own invariant.
    const sorted = [...entries].sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
    const keys: string[] = [];
    const slots: Slot<T>[] = [];
    for (const { at, slot } of sorted) {
      if (keys.length > 0 && keys[keys.length - 1] === at) continue;
      keys.push(at);
      slots.push(slot);
    }
    this.editor = undefined;
    this.sealed = SortedMap.fromSorted(keys, slots);
    this.at = revision;
    this.window = new EventWindow(this.limits, this.now, revision, this.sealed);
  }

  /**
   * Applies one storage event. Returns the cached event, or undefined for an event the state
   * already reflects (a revision not above the current one) or a delete of a key it never had.
   */
  apply(event: WatchEvent): CachedEvent<T> | undefined {
    const revision = event.kv.modRevision;
    if (revision <= this.at) return undefined;
    const key = event.kv.key;
    const at = sortKey(key);
    let change: CachedEvent<T>;
    if (event.type === 'put') {
      const slot = decodeSlot(this.decoder, event.kv);
      this.editor ??= this.sealed.edit();
      const previous = this.editor.put(at, slot);
      change = new CachedEvent('put', key, revision, slot, previous, this.now());
    } else {
      const prev = this.current.get(at);
      this.at = revision;
      // A DELETED event shows the object as it was, at the delete's revision. Stores send the
      // deleted value; without it the cache can only repeat what it held, a corrupt value
      // included: that value must leave the cache with its key too.
      const slot = event.prevKv
        ? decodeSlot(this.decoder, { ...event.prevKv, key, modRevision: revision })
        : prev === undefined
          ? undefined
          : isCorrupt(prev)
            ? new CorruptValue(prev.key, revision, prev.error)
            : new DecodedEntry(prev.key, prev.object, revision, prev.createRevision);
      if (slot === undefined) return undefined;
      this.sealed = this.current.delete(at);
      change = new CachedEvent('delete', key, revision, slot, prev, this.now());
    }
    this.at = revision;
    this.window.append(change, this.currentState);
    return change;
  }

  /** Moves the revision forward without a change (a progress notification). */
  advance(revision: number): void {
    if (revision > this.at) this.at = revision;
  }

  /** The state at a revision from the window's oldest to the current, else undefined. */
  snapshotAt(revision: number): Snapshot<T> | undefined {
    if (revision > this.at || revision < this.floor) return undefined;
    const state = this.window.stateAt(revision);
    return state === undefined ? undefined : { state, revision };
  }

  /** The changes after `revision`, or undefined when the window no longer holds all of them. */
  changesAfter(revision: number): CachedEvent<T>[] | undefined {
    return revision < this.floor ? undefined : this.window.eventsAfter(revision);
  }

  /**
   * Drops history older than the store's compaction and events past their retention. The floor
   * applies even to revisions the cache has not reached yet (it may lag the store).
   */
  forget(compactedRevision: number | undefined): void {
    if (compactedRevision !== undefined && compactedRevision > this.floor) this.floor = compactedRevision;
    this.window.dropBefore(Math.min(this.floor, this.at));
    this.window.dropExpired();
  }
}
