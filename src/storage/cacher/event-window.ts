/**
 * The cache's recent history: the changes after a base revision, bounded by age and by count, and
 * enough of the past states to rebuild the whole state at any revision in the window.
 *
 * Invariant: the window can reproduce the state at every revision from `baseRevision` to the
 * cache's current one. States are rebuilt from an anchor: a revision whose whole state is kept, at
 * or below `baseRevision`. The state right after the event at index i is the nearest checkpoint at
 * or before i with the events after it up to i applied (or the anchor's state with the events from
 * the anchor's index applied).
 *
 * Dropping the oldest event only moves `baseRevision` past it; the event stays, unserved, while
 * states are still rebuilt through it, until a dropped event is a checkpoint and becomes the new
 * anchor. Moving the anchor with every drop (the dropped event applied to the anchor's state) cost
 * a path copy of the map per event once the window was full, a fifth of the watch cache's work on
 * a stream of creates. At most CHECKPOINT_EVERY - 1 dropped events are kept this way.
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
  /**
   * Events in revision order: `events[anchor.index..head)` are dropped but still rebuild states,
   * `events[head..]` are held; slots before the anchor are cleared.
   */
  private events: (CachedEvent<T> | undefined)[] = [];
  /** Parallel to `events`: the state right after the event, kept for every CHECKPOINT_EVERY-th. */
  private checkpoints: (SortedMap<Slot<T>> | undefined)[] = [];
  private sinceCheckpoint = 0;
  private head = 0;
  /** The state at `revision`, which the events from `index` on apply to. */
  private anchor: { index: number; revision: number; state: SortedMap<Slot<T>> };
  private base: number;
  /** The last state rebuilt by stateAt, for the pages of one list read at one revision. */
  private rebuilt: { revision: number; state: SortedMap<Slot<T>> } | undefined;

  constructor(
    private readonly limits: WindowLimits,
    private readonly now: () => number,
    revision: number,
    state: SortedMap<Slot<T>>,
  ) {
    this.anchor = { index: 0, revision, state };
    this.base = revision;
  }

  /** The oldest revision whose state the window can reproduce; watches can start after it. */
  get baseRevision(): number {
    return this.base;
  }

  get length(): number {
    return this.events.length - this.head;
  }

  /**
   * Appends the newest event (its revision above every held one), with the whole state right
   * after it (asked for only when it is kept as a checkpoint), and drops what falls out.
   */
  append(event: CachedEvent<T>, state: () => SortedMap<Slot<T>>): void {
    this.events.push(event);
    const checkpoint = ++this.sinceCheckpoint >= CHECKPOINT_EVERY;
    if (checkpoint) this.sinceCheckpoint = 0;
    this.checkpoints.push(checkpoint ? state() : undefined);
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
    if (revision <= this.base) return;
    while (this.length > 0 && this.events[this.head]!.revision <= revision) this.dropOldest();
    this.base = revision;
  }

  /** The state at `revision`, or undefined when it is older than the window. */
  stateAt(revision: number): SortedMap<Slot<T>> | undefined {
    if (revision < this.base) return undefined;
    const i = this.firstAfter(revision);
    const first = this.anchor.index;
    if (i === first) return this.anchor.state;
    const last = this.events[i - 1]!;
    if (this.rebuilt?.revision === last.revision) return this.rebuilt.state;
    let from = i - 1;
    while (from >= first && this.checkpoints[from] === undefined) from--;
    let state = from >= first ? this.checkpoints[from]! : this.anchor.state;
    for (let j = from + 1; j < i; j++) state = this.events[j]!.applyTo(state);
    this.rebuilt = { revision: last.revision, state };
    return state;
  }

  /** The events after `revision` in order, or undefined when some of them were dropped. */
  eventsAfter(revision: number): CachedEvent<T>[] | undefined {
    if (revision < this.base) return undefined;
    return this.events.slice(this.firstAfter(revision)) as CachedEvent<T>[];
  }

  /** Index of the first kept event (dropped ones included) whose revision is above `revision`. */
  private firstAfter(revision: number): number {
    let lo = this.anchor.index;
    let hi = this.events.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.events[mid]!.revision <= revision) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private dropOldest(): void {
    const i = this.head++;
    this.base = this.events[i]!.revision;
    const checkpoint = this.checkpoints[i];
    if (checkpoint !== undefined) this.moveAnchor(i, checkpoint);
  }

  /** Makes the checkpoint after event `i` the anchor, and lets the events up to it go. */
  private moveAnchor(i: number, state: SortedMap<Slot<T>>): void {
    for (let j = this.anchor.index; j <= i; j++) {
      this.events[j] = undefined;
      this.checkpoints[j] = undefined;
    }
    this.anchor = { index: i + 1, revision: this.base, state };
    // Compact the arrays now and then rather than shifting on every drop (O(n) each).
    const cut = this.anchor.index;
    if (cut >= 1024 && cut * 2 >= this.events.length) {
      this.events = this.events.slice(cut);
      this.checkpoints = this.checkpoints.slice(cut);
      this.head -= cut;
      this.anchor = { ...this.anchor, index: 0 };
    }
  }
}
