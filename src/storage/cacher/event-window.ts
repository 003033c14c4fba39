/**
 * The cache's recent history: the changes after a base revision, bounded by age and by count, and
 * enough of the past states to rebuild the whole state at any revision in the window.
 *
 * Invariant: the window can reproduce the state at every revision from `baseRevision` to the
 * cache's current one. The state at `baseRevision` is `baseState`; the state right after the event
 * at index i is the nearest checkpoint at or before i with the events after it up to i applied
 * (or `baseState` with the events from the head applied). Dropping the oldest event E moves the
 * base to E's revision and the state right after E, so the invariant holds.
 *
 * Why checkpoints and not a snapshot per event: a snapshot is a path copy of the persistent map,
 * ~2 KiB with 100,000 keys, so 10,000 events held ~20 MiB. One snapshot every CHECKPOINT_EVERY
 * events costs 1/64 of that, and a read at a past revision applies at most 63 events (~0.1 ms).
 */
import type { CachedEvent } from './cached-event.js';
import type { SortedMap } from './sorted-map.js';
import type { Slot } from './slot.js';

/** Every how many events the state right after one is kept whole. */
export const CHECKPOINT_EVERY = 64;

export interface WindowLimits {
  /** Events older than this (ms) are dropped. */
  readonly retentionMs: number;
  /** At most this many events are kept; the oldest go first. */
  readonly maxEvents: number;
}

export class EventWindow<T> {
  /** Events in revision order; the live ones are `events[head..]`, dropped slots are cleared. */
  private events: (CachedEvent<T> | undefined)[] = [];
  /** Parallel to `events`: the state right after the event, kept for every CHECKPOINT_EVERY-th. */
  private checkpoints: (SortedMap<Slot<T>> | undefined)[] = [];
  private sinceCheckpoint = 0;
  private head = 0;
  private base: { revision: number; state: SortedMap<Slot<T>> };
  /** The last state rebuilt by stateAt, for the pages of one list read at one revision. */
  private rebuilt: { revision: number; state: SortedMap<Slot<T>> } | undefined;

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

  /**
   * Appends the newest event (its revision above every held one), with the whole state right
   * after it, and drops what falls out.
   */
  append(event: CachedEvent<T>, state: SortedMap<Slot<T>>): void {
    this.events.push(event);
    const checkpoint = ++this.sinceCheckpoint >= CHECKPOINT_EVERY;
    if (checkpoint) this.sinceCheckpoint = 0;
    this.checkpoints.push(checkpoint ? state : undefined);
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
    if (i === this.head) return this.base.state;
    const last = this.events[i - 1]!;
    if (this.rebuilt?.revision === last.revision) return this.rebuilt.state;
    let from = i - 1;
    while (from >= this.head && this.checkpoints[from] === undefined) from--;
    let state = from >= this.head ? this.checkpoints[from]! : this.base.state;
    for (let j = from + 1; j < i; j++) state = this.events[j]!.applyTo(state);
    this.rebuilt = { revision: last.revision, state };
    return state;
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
    const state = this.checkpoints[this.head] ?? oldest.applyTo(this.base.state);
    this.base = { revision: oldest.revision, state };
    if (this.rebuilt !== undefined && this.rebuilt.revision <= oldest.revision) this.rebuilt = undefined;
    // Let the event and its checkpoint go now, not at the next compaction of the arrays.
    this.events[this.head] = undefined;
    this.checkpoints[this.head] = undefined;
    this.head++;
    // Compact the arrays now and then rather than shifting on every drop (O(n) each).
    if (this.head >= 1024 && this.head * 2 >= this.events.length) {
      this.events = this.events.slice(this.head);
      this.checkpoints = this.checkpoints.slice(this.head);
      this.head = 0;
    }
  }
}
