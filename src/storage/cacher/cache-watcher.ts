/**
 * One watcher: what it asked for, its backlog, its bounded queue of live events, and the two ways
 * its one consumer may read them: as an async iterator, or pushed to a sink (`consume`).
 *
 * The dispatcher calls `deliver` synchronously for every change, in revision order; the consumer
 * pulls with `next()`, or has them pushed to its sink at each wake-up. Events first come from the
 * backlog (the initial state or the replay of the window, produced lazily from immutable
 * snapshots, so they cost no memory up front), then from the live queue. A live queue that is
 * full means the consumer fell too far behind: the watcher is closed with 'watcher-too-slow' and
 * its memory released at once.
 *
 * A waiting consumer is not woken per event: `deliver` reports that a wake-up is due and the
 * dispatcher wakes each such watcher once after the whole batch. A sink may pause (its `event`
 * returns false, e.g. while its socket is full): it is not woken until it resumes, and its live
 * events meanwhile count against the same capacity.
 */
import { invalid, StorageError } from '../errors.js';
import type { CacheWatch, CacheWatchEvent, WatchSink } from './cache-types.js';
import { Fifo } from '../../util/fifo.js';
import type { CachedEvent } from './cached-event.js';
import type { KeyRange } from './key-range.js';

export interface WatcherSpec<T> {
  readonly range: KeyRange;
  readonly filter: ((object: T) => boolean) | undefined;
  readonly bookmarks: boolean;
  /** Changes at or below this revision are not for this watcher (it starts after it). */
  readonly startRevision: number;
  /** Live events it may have queued before it counts as too slow. */
  readonly capacity: number;
  readonly signal: AbortSignal;
}

/** Callbacks into the cache that runs the watcher. */
export interface WatcherHost<T> {
  /** The watcher ended for any reason: stop dispatching to it. */
  detach(watcher: CacheWatcher<T>): void;
  /** The consumer asked for a progress bookmark. */
  progress(watcher: CacheWatcher<T>): void;
}

type Backlog<T> = Iterator<CacheWatchEvent<T> | StorageError, void>;

const DONE: IteratorReturnResult<undefined> = { done: true, value: undefined };

function oneReader(): StorageError {
  return invalid('a watch is read one way, by one consumer: iterated or consumed');
}

function tooSlow(capacity: number): StorageError {
  return new StorageError('watcher-too-slow', `storage: watcher fell more than ${capacity} events behind and was closed`);
}

export class CacheWatcher<T> implements CacheWatch<T>, AsyncIterator<CacheWatchEvent<T>> {
  /** Live events not yet taken by the consumer: at most `spec.capacity`. */
  private readonly live = new Fifo<CacheWatchEvent<T>>();
  private backlog: Backlog<T> | undefined;
  private closed = false;
  /** An error the consumer has not been given yet. */
  private error: StorageError | undefined;
  private waiter: { resolve(r: IteratorResult<CacheWatchEvent<T>>): void; reject(e: unknown): void } | undefined;
  /** The consumer that takes events pushed (consume()), instead of a waiter per event. */
  private sink: WatchSink<T> | undefined;
  /** The sink asked for no more events until resume(). */
  private paused = false;
  private wakeDue = false;
  /** Something was queued since the last bookmark tick, so the watcher is not idle. */
  private busy = false;
  private readonly onAbort = (): void => this.close();

  constructor(
    readonly spec: WatcherSpec<T>,
    backlog: Backlog<T> | undefined,
    private readonly host: WatcherHost<T>,
  ) {
    this.backlog = backlog;
    if (spec.signal.aborted) this.closed = true;
    else spec.signal.addEventListener('abort', this.onAbort, { once: true });
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /**
   * Offers one change. Returns true when the consumer is waiting or has a sink attached and must
   * be woken (once per batch: the dispatcher then calls wake()).
   */
  deliver(change: CachedEvent<T>): boolean {
    if (this.closed || change.revision <= this.spec.startRevision) return false;
    let delivery;
    try {
      delivery = change.deliveryFor(this.spec.filter);
    } catch (err) {
      this.fail(new StorageError('invalid', `storage: watch filter failed on ${change.key}`, change.key, undefined, { cause: err }));
      return false;
    }
    if (delivery === undefined) return false;
    if (delivery instanceof StorageError) {
      this.fail(delivery);
      return false;
    }
    return this.enqueue(delivery);
  }

  /**
   * Queues a BOOKMARK at `revision`. An idle tick (force false) sends one only to a watcher that
   * asked for bookmarks, has nothing queued and received nothing since the previous tick.
   */
  bookmark(revision: number, force: boolean): boolean {
    if (this.closed || revision < this.spec.startRevision) return false;
    if (!force) {
      const idle = !this.busy && this.backlog === undefined && this.live.length === 0;
      this.busy = false;
      if (!this.spec.bookmarks || !idle) return false;
    }
    return this.enqueue({ type: 'BOOKMARK', revision, initialEventsEnd: false });
  }

  requestProgress(): void {
    if (!this.closed) this.host.progress(this);
  }

  /** Ends the watcher with an error, which its consumer gets at its next read. */
  fail(error: StorageError): void {
    if (this.closed) return;
    this.error = error;
    this.shutDown();
    this.wake();
  }

  /** Ends the watcher; its consumer's iteration finishes. */
  close(): void {
    if (this.closed) return;
    this.shutDown();
    this.wake();
  }

  private shutDown(): void {
    this.closed = true;
    this.backlog = undefined;
    this.live.clear();
    this.spec.signal.removeEventListener('abort', this.onAbort);
    this.host.detach(this);
  }

  /** Hands the consumer what is available, if it is waiting or has a sink attached. */
  wake(): void {
    this.wakeDue = false;
    if (this.sink !== undefined) {
      // A paused sink is still told at once that the watch ended (then there is nothing to push).
      if (!this.paused || this.closed) this.drain(this.sink);
      return;
    }
    const waiter = this.waiter;
    if (waiter === undefined) return;
    const result = this.poll();
    if (result === undefined) return;
    this.waiter = undefined;
    if (result instanceof StorageError) waiter.reject(result);
    else waiter.resolve(result);
  }

  consume(sink: WatchSink<T>): void {
    if (this.sink !== undefined || this.waiter !== undefined) throw oneReader();
    this.sink = sink;
    this.drain(sink);
  }

  resume(): void {
    if (!this.paused) return;
    this.paused = false;
    if (this.sink !== undefined) this.drain(this.sink);
  }

  /**
   * Pushes everything available to `sink`; ends it when the watcher has ended. Stops when the
   * sink asks for a pause, and as soon as it is detached, also when an event it handled closed
   * the watch (and so ended it) from inside `sink.event`.
   */
  private drain(sink: WatchSink<T>): void {
    while (this.sink === sink) {
      const result = this.poll();
      if (result === undefined) return;
      if (result instanceof StorageError || result.done === true) {
        this.detach(sink, result instanceof StorageError ? result : undefined);
        return;
      }
      try {
        if (sink.event(result.value) === false && this.sink === sink) {
          this.paused = true;
          return;
        }
      } catch (err) {
        // The consumer's failure is its own: it ends this watch, not the dispatch to the others.
        if (!this.closed) this.shutDown();
        this.detach(sink, err);
        return;
      }
    }
  }

  /** Ends `sink` once, if it is still the attached one. */
  private detach(sink: WatchSink<T>, reason: unknown): void {
    if (this.sink !== sink) return;
    this.sink = undefined;
    sink.end(reason);
  }

  next(): Promise<IteratorResult<CacheWatchEvent<T>>> {
    if (this.sink !== undefined) return Promise.reject(oneReader());
    const result = this.poll();
    if (result === undefined) return new Promise((resolve, reject) => (this.waiter = { resolve, reject }));
    return result instanceof StorageError ? Promise.reject(result) : Promise.resolve(result);
  }

  /** The consumer stopped iterating (e.g. `break` out of `for await`). */
  return(): Promise<IteratorResult<CacheWatchEvent<T>>> {
    this.error = undefined;
    if (!this.closed) this.shutDown();
    return Promise.resolve(DONE);
  }

  [Symbol.asyncIterator](): AsyncIterator<CacheWatchEvent<T>> {
    return this;
  }

  private enqueue(event: CacheWatchEvent<T>): boolean {
    if (this.live.length >= this.spec.capacity) {
      this.fail(tooSlow(this.spec.capacity));
      return false;
    }
    this.live.push(event);
    this.busy = true;
    if ((this.waiter === undefined && (this.sink === undefined || this.paused)) || this.wakeDue) return false;
    this.wakeDue = true;
    return true;
  }

  /** The next result for the consumer, or undefined when it has to wait. */
  private poll(): IteratorResult<CacheWatchEvent<T>> | StorageError | undefined {
    if (this.error !== undefined) {
      const error = this.error;
      this.error = undefined;
      return error;
    }
    if (this.backlog !== undefined) {
      let item: IteratorResult<CacheWatchEvent<T> | StorageError, void>;
      try {
        item = this.backlog.next();
      } catch (err) {
        item = { done: false, value: invalid('watch filter failed', err) };
      }
      if (item.done !== true) {
        if (!(item.value instanceof StorageError)) return { done: false, value: item.value };
        this.shutDown();
        return item.value;
      }
      this.backlog = undefined;
    }
    const event = this.live.shift();
    if (event !== undefined) return { done: false, value: event };
    return this.closed ? DONE : undefined;
  }
}
