/**
 * One watch: history replay from the table, then live events from the hub.
 *
 * States: replaying -> live -> ended. `position` is the revision up to which every change under
 * the prefix has been handed to the consumer or queued for it.
 *
 * - replaying: each next() reads one page of history in (position, current] from the reader
 *   connection and returns it. Replay is driven by the consumer, so it buffers nothing. When a
 *   page comes back short, position has reached the current revision in the same synchronous step
 *   that read it, and the watch joins the hub there: the hub publishes each commit synchronously
 *   together with advancing the current revision, so no change falls between replay and live and
 *   none is seen twice.
 * - live: the hub delivers each commit's events; they wait in a queue bounded by
 *   `maxQueuedEvents`. A consumer that lets it overflow gets StorageError('watcher-too-slow') and
 *   the queue is dropped, so a stuck consumer never holds unbounded memory.
 * - ended: by the signal, by return() (a `break` in for-await), by the store closing, or after a
 *   failure was thrown. Iteration then finishes.
 */
import { compacted, invalid, StorageError } from '../errors.js';
import type { Watch, WatchBatch, WatchEvent, WatchOptions } from '../storage.js';
import { prefixRange, type KeyRange } from './key-range.js';
import type { HubSubscriber, WatchHub } from './watch-hub.js';

/** What a watch needs from the store. */
export interface WatchSource {
  readonly hub: WatchHub;
  /** The revision of the last commit published to the hub. */
  currentRevision(): number;
  compactedRevision(): number;
  /** Changes in the range with revisions in (after, upTo], oldest first, at most `limit`. */
  history(range: KeyRange, after: number, upTo: number, limit: number): WatchEvent[];
}

export interface WatchLimits {
  /** Events a live watch may hold for a slow consumer before it is ended. */
  readonly maxQueuedEvents: number;
  /** Events read per replay step. */
  readonly replayPageSize: number;
}

const DONE: IteratorReturnResult<undefined> = { done: true, value: undefined };

export class SqliteWatch implements Watch, AsyncIterator<WatchBatch>, HubSubscriber {
  readonly prefix: string;
  private readonly range: KeyRange;
  private state: 'replaying' | 'live' | 'ended' = 'replaying';
  private position: number;
  private queue: WatchBatch[] = [];
  private queuedEvents = 0;
  private waiter: { resolve: (r: IteratorResult<WatchBatch>) => void; reject: (err: unknown) => void } | undefined;
  /** Thrown by the next next(), then the watch is ended. */
  private failure: StorageError | undefined;
  /** A progress notification asked for during replay: the revision it must reach. */
  private progressWanted: number | undefined;
  private readonly signal: AbortSignal | undefined;
  private readonly onAbort = () => this.end();

  /**
   * @param fromRevision deliver changes after this revision (0: after the current one).
   * @param onEnd        called once when the watch ends, however it ends.
   */
  constructor(
    private readonly source: WatchSource,
    prefix: string,
    fromRevision: number,
    options: WatchOptions | undefined,
    private readonly limits: WatchLimits,
    private readonly onEnd: (watch: SqliteWatch) => void,
  ) {
    this.prefix = prefix;
    this.range = prefixRange(prefix);
    this.position = fromRevision > 0 ? fromRevision : source.currentRevision();
    this.signal = options?.signal;
    if (this.signal?.aborted) {
      this.state = 'ended';
      return;
    }
    this.signal?.addEventListener('abort', this.onAbort, { once: true });
    if (fromRevision > 0 && fromRevision < source.compactedRevision()) {
      this.failure = compacted(fromRevision, source.compactedRevision());
    } else if (this.position >= source.currentRevision()) {
      this.goLive();
    }
  }

  [Symbol.asyncIterator](): AsyncIterator<WatchBatch> {
    return this;
  }

  next(): Promise<IteratorResult<WatchBatch>> {
    if (this.failure !== undefined) return this.throwFailure();
    if (this.queue.length > 0) return Promise.resolve({ done: false, value: this.takeQueued() });
    if (this.state === 'ended') return Promise.resolve(DONE);
    if (this.waiter !== undefined) return Promise.reject(invalid('a watch has one consumer at a time'));
    if (this.state === 'replaying') {
      try {
        const page = this.replayStep();
        if (page !== undefined) return Promise.resolve({ done: false, value: page });
      } catch (err) {
        this.failure = err instanceof StorageError ? err : new StorageError('unavailable', `storage: unavailable: watch replay: ${String(err)}`);
        return this.throwFailure();
      }
      if (this.queue.length > 0) return Promise.resolve({ done: false, value: this.takeQueued() });
    }
    return new Promise((resolve, reject) => (this.waiter = { resolve, reject }));
  }

  return(): Promise<IteratorResult<WatchBatch>> {
    this.end();
    return Promise.resolve(DONE);
  }

  requestProgress(): void {
    if (this.state === 'ended') return;
    if (this.state === 'replaying') {
      this.progressWanted = Math.max(this.progressWanted ?? 0, this.source.currentRevision());
      return;
    }
    this.enqueue({ events: [], revision: this.position });
  }

  /** Called by the hub after each commit. */
  deliver(events: readonly WatchEvent[], revision: number): void {
    if (this.state !== 'live') return;
    // Only a watch that started above the current revision can be handed older events.
    const fresh = events.length > 0 && events[0]!.kv.modRevision <= this.position ? events.filter((e) => e.kv.modRevision > this.position) : events;
    this.position = Math.max(this.position, revision);
    if (fresh.length > 0) this.enqueue({ events: fresh, revision: this.position });
  }

  /** False once the watch has ended (it may still hold a failure for the consumer). */
  get active(): boolean {
    return this.state !== 'ended';
  }

  /** Ends the watch: the consumer's pending and later next() calls finish. Idempotent. */
  end(): void {
    if (this.state === 'ended') return;
    this.state = 'ended';
    this.source.hub.unsubscribe(this);
    this.signal?.removeEventListener('abort', this.onAbort);
    this.queue = [];
    this.queuedEvents = 0;
    const waiter = this.waiter;
    this.waiter = undefined;
    waiter?.resolve(DONE);
    this.onEnd(this);
  }

  /** Ends the watch with an error: the consumer's pending or next next() throws it. */
  fail(err: StorageError): void {
    if (this.state === 'ended') return;
    const waiter = this.waiter;
    this.waiter = undefined;
    if (waiter !== undefined) waiter.reject(err);
    else this.failure = err;
    this.end();
  }

  private replayStep(): WatchBatch | undefined {
    const upTo = this.source.currentRevision();
    const compactedAt = this.source.compactedRevision();
    // History in (position, upTo] is complete only while compaction stays at or below position.
    if (this.position < compactedAt) throw compacted(this.position, compactedAt);
    const events = this.position < upTo ? this.source.history(this.range, this.position, upTo, this.limits.replayPageSize) : [];
    if (events.length === 0) {
      this.goLive();
      return undefined;
    }
    this.position = events.length < this.limits.replayPageSize ? upTo : events[events.length - 1]!.kv.modRevision;
    if (this.progressWanted !== undefined && this.position >= this.progressWanted) this.progressWanted = undefined;
    return { events, revision: this.position };
  }

  private goLive(): void {
    this.state = 'live';
    this.position = Math.max(this.position, this.source.currentRevision());
    this.source.hub.subscribe(this);
    if (this.progressWanted !== undefined) {
      this.progressWanted = undefined;
      this.enqueue({ events: [], revision: this.position });
    }
  }

  private enqueue(batch: WatchBatch): void {
    const waiter = this.waiter;
    if (waiter !== undefined) {
      this.waiter = undefined;
      waiter.resolve({ done: false, value: batch });
      return;
    }
    this.queue.push(batch);
    this.queuedEvents += Math.max(1, batch.events.length);
    if (this.queuedEvents > this.limits.maxQueuedEvents) {
      this.fail(
        new StorageError(
          'watcher-too-slow',
          `storage: watcher of ${this.prefix} fell more than ${this.limits.maxQueuedEvents} events behind and was closed`,
        ),
      );
    }
  }

  private takeQueued(): WatchBatch {
    const batches = this.queue;
    this.queue = [];
    this.queuedEvents = 0;
    if (batches.length === 1) return batches[0]!;
    return { events: batches.flatMap((b) => b.events), revision: batches[batches.length - 1]!.revision };
  }

  private throwFailure(): Promise<never> {
    const failure = this.failure!;
    this.failure = undefined;
    this.end();
    return Promise.reject(failure);
  }
}
