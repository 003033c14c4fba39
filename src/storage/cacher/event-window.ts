/**
 * The cache's recent history: the changes after a base revision, each with the snapshot of the
 * whole state right after it, bounded by age and by count.
 *
 * Invariant: the window can reproduce the state at every revision from `baseRevision` to the
 * cache's current one. The state at `baseRevision` is `baseState`; the state at a revision R above
 * it is the snapshot of the last event at or below R (or `baseState` when there is none). Dropping
 * the oldest event E moves the base to E's revision and E's snapshot, so the invariant holds.
 */
import type { CachedEvent } from './cached-event.js';
import type { SortedMap } from './sorted-map.js';
import type { Slot } from './slot.js';

export interface WindowLimits {
  /** Events older than this (ms) are dropped. */
  readonly retentionMs: number;
  /** At most this many events are kept; the oldest go first. */
  readonly maxEvents: number;
}

export class EventWindow<T> {
  /** Events in revision order; the live ones are `events[head..]`, dropped slots are cleared. */
  private events: (CachedEvent<T> | undefined)[] = [];
  private head = 0;
  private base: { revision: number; state: SortedMap<Slot<T>> };

  constructor(
    private readonly limits: WindowLimits,
    private readonly now: () => number,
    revision: number,
    state: SortedMap<Slot<T>>,
  ) {
    this.base = { revision, state };
  }

  /** The oldest revision whose state the window can reproduce; watches can start after it. */
  get baseRevision(): number {
    return this.base.revision;
  }

  get length(): number {
    return this.events.length - this.head;
  }

  /** Appends the newest event (its revision above every held one) and drops what falls out. */
  append(event: CachedEvent<T>): void {
    this.events.push(event);
    while (this.length > this.limits.maxEvents) this.dropOldest();
    this.dropExpired();
  }

  /** Drops events older than the retention (also called on idle ticks, to free their snapshots). */
  dropExpired(): void {
    const cutoff = this.now() - this.limits.retentionMs;
    while (this.length > 0 && this.events[this.head]!.receivedAt < cutoff) this.dropOldest();
  }

  /**
   * Forgets history before `revision` (the store compacted it), so that the cache does not serve
   * what the store no longer can. `revision` must not exceed the cache's current one.
   */
  dropBefore(revision: number): void {
    if (revision <= this.base.revision) return;
    while (this.length > 0 && this.events[this.head]!.revision <= revision) this.dropOldest();
    this.base = { revision, state: this.base.state };
  }

  /** The state at `revision`, or undefined when it is older than the window. */
  stateAt(revision: number): SortedMap<Slot<T>> | undefined {
    if (revision < this.base.revision) return undefined;
    const i = this.firstAfter(revision);
    return i === this.head ? this.base.state : this.events[i - 1]!.state;
  }

  /** The events after `revision` in order, or undefined when some of them were dropped. */
  eventsAfter(revision: number): CachedEvent<T>[] | undefined {
    if (revision < this.base.revision) return undefined;
    return this.events.slice(this.firstAfter(revision)) as CachedEvent<T>[];
  }

  /** Index of the first held event whose revision is above `revision`. */
  private firstAfter(revision: number): number {
    let lo = this.head;
    let hi = this.events.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.events[mid]!.revision <= revision) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private dropOldest(): void {
    const oldest = this.events[this.head]!;
    this.base = { revision: oldest.revision, state: oldest.state };
    this.events[this.head] = undefined; // let the snapshot go now, not at the next compaction
    this.head++;
    // Compact the array now and then rather than shifting on every drop (O(n) each).
    if (this.head >= 1024 && this.head * 2 >= this.events.length) {
      this.events = this.events.slice(this.head);
      this.head = 0;
    }
  }
}
