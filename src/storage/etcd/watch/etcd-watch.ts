/**
 * The etcd backend's Watch: a consumer-facing async iterable that survives etcd restarts.
 *
 * It runs one WatchSession at a time. `lastRevision` is the revision up to which the consumer has
 * been handed everything (events or progress); when a session breaks, the next one starts at
 * lastRevision + 1, so nothing is lost and nothing repeats. If that revision was compacted while
 * etcd was away, the iterator throws 'compacted'. If no session can be established for
 * `watchReconnectTimeoutMs`, it throws 'unavailable'.
 *
 * Invariants: batch revisions never decrease, and an event at or below lastRevision is never handed
 * out. etcd sends such an event only after a progress report went past it, which the 'verified'
 * mode can do (see progress-verifier.ts). The consumer was then told of a state that skipped it,
 * so the watch ends as 'compacted': its consumer lists again instead of silently missing it.
 */
import type { IEvent } from 'etcd3';
import { compacted, isStorageError, StorageError, unavailable } from '../../errors.js';
import type { Watch, WatchBatch, WatchEvent } from '../../storage.js';
import type { EtcdConnection } from '../etcd-connection.js';
import { keyBytes, prefixEnd } from '../key-range.js';
import { toKeyValue } from '../key-value.js';
import { BoundedQueue } from './bounded-queue.js';
import type { ProgressMode } from './progress-mode.js';
import { ProgressRequests } from './progress-requests.js';
import { WatchSession, type SessionEnd } from './watch-session.js';
import { sleep } from '../../../util/sleep.js';

/** Batches held for a slow consumer before the stream is paused. */
export const QUEUE_HIGH_WATER = 64;
const FIRST_RETRY_DELAY_MS = 100;
const MAX_RETRY_DELAY_MS = 2_000;

/** How a session ended, and for a broken one whether its watcher had been created. */
type SessionOutcome =
  | Exclude<SessionEnd, { readonly kind: 'broken' }>
  | { readonly kind: 'broken'; readonly error: unknown; readonly created: boolean };

export interface EtcdWatchOptions {
  readonly prefix: string;
  /** Deliver changes after this revision; 0: after the newest revision this client has seen. */
  readonly fromRevision: number;
  readonly signal?: AbortSignal;
  /** The progress mode of the server (resolved once per storage). */
  readonly progressMode: () => Promise<ProgressMode>;
  /** Called when the watch has ended, for the storage's bookkeeping. */
  readonly onEnd?: () => void;
}

export class EtcdWatch implements Watch {
  private readonly stop = new AbortController();
  private readonly queue: BoundedQueue<WatchBatch>;
  private readonly progress: ProgressRequests;
  private readonly range: { readonly key: Buffer; readonly rangeEnd: Buffer };
  private session: WatchSession | undefined;
  private iterator: AsyncGenerator<WatchBatch, void, undefined> | undefined;
  private last: number;
  /** For a watch "from now" made before this client saw any revision: where it starts. */
  private start: Promise<number> | undefined;

  constructor(
    private readonly conn: EtcdConnection,
    private readonly options: EtcdWatchOptions,
  ) {
    const key = options.prefix === '' ? Buffer.from([0]) : keyBytes(options.prefix);
    this.range = { key, rangeEnd: prefixEnd(key) };
    // "From now" is fixed at the call: every write issued after it gets a higher revision than
    // any this client has already seen. Before it has seen one, etcd is asked, with writes held.
    this.last = options.fromRevision > 0 ? options.fromRevision : conn.observedRevision;
    if (this.last === 0) {
      this.start = conn.currentRevisionHoldingWrites();
      this.start.catch(() => undefined);
    }
    this.queue = new BoundedQueue<WatchBatch>(QUEUE_HIGH_WATER, {
      pause: () => this.session?.pause(),
      resume: () => this.session?.resume(),
    });
    this.progress = new ProgressRequests(conn, this.range, options.progressMode, this, this.stop.signal);
    const signal = options.signal;
    if (signal?.aborted) this.abort();
    else signal?.addEventListener('abort', () => this.abort(), { once: true });
  }

  /** Everything up to this revision has been handed to the consumer. */
  get lastRevision(): number {
    return this.last;
  }

  [Symbol.asyncIterator](): AsyncIterator<WatchBatch> {
    this.iterator ??= this.iterate();
    return this.iterator;
  }

  requestProgress(): void {
    if (!this.stop.signal.aborted) this.progress.request();
  }

  /** Ends the watch: the iteration finishes without error. */
  abort(): void {
    this.end();
  }

  /** Stops the sessions; the consumer gets nothing more, or what is queued and then `error`. */
  private end(error?: StorageError): void {
    if (this.stop.signal.aborted) return;
    this.stop.abort();
    if (error === undefined) this.queue.discard();
    else this.queue.end(error);
    this.session?.close();
    this.options.onEnd?.();
  }

  /** @internal for ProgressRequests */
  sendProgressRequest(): void {
    this.session?.requestProgress();
  }

  /** @internal for ProgressRequests */
  reportProgress(revision: number): void {
    if (this.stop.signal.aborted) return;
    this.last = Math.max(this.last, revision);
    this.queue.push({ events: [], revision: this.last });
  }

  private async *iterate(): AsyncGenerator<WatchBatch, void, undefined> {
    void this.drive();
    try {
      for (;;) {
        const next = await this.queue.take();
        if (next.done === true) return;
        yield next.value;
      }
    } finally {
      // Also after an error: the consumer is gone, so the watch is over.
      this.abort();
    }
  }

  /** Runs sessions until the watch is aborted or fails for good; never rejects. */
  private async drive(): Promise<void> {
    let outageSince: number | undefined;
    let delay = FIRST_RETRY_DELAY_MS;
    try {
      while (!this.stop.signal.aborted) {
        const end = await this.runSession();
        if (end.kind === 'closed' || this.stop.signal.aborted) return;
        if (end.kind === 'compacted') throw compacted(this.last, end.compactRevision);
        if (end.kind === 'canceled') throw unavailable(`etcd canceled the watch on ${this.options.prefix}: ${end.reason}`);
        if (end.created) {
          outageSince = undefined;
          delay = FIRST_RETRY_DELAY_MS;
        }
        outageSince ??= Date.now();
        const timeout = this.conn.options.watchReconnectTimeoutMs;
        if (Date.now() - outageSince >= timeout) {
          throw unavailable(
            `watch on ${this.options.prefix} could not reach etcd at ${this.conn.options.serversText} for ${timeout} ms: ${describe(end.error)}`,
            end.error,
          );
        }
        await sleep(delay * (0.5 + Math.random() / 2), this.stop.signal);
        delay = Math.min(delay * 2, MAX_RETRY_DELAY_MS);
      }
    } catch (err) {
      this.queue.end(isStorageError(err) ? err : unavailable(`watch on ${this.options.prefix} failed: ${describe(err)}`, err));
    }
  }

  /** One session from lastRevision + 1; 'broken' also covers failing to learn where to start. */
  private async runSession(): Promise<SessionOutcome> {
    if (this.last === 0) {
      try {
        this.last = await (this.start ?? this.conn.currentRevision());
      } catch (error) {
        return { kind: 'broken', error, created: false };
      } finally {
        this.start = undefined;
      }
    }
    const session = new WatchSession(
      this.conn,
      { ...this.range, startRevision: this.last + 1 },
      {
        created: () => this.progress.watcherCreated(),
        events: (events) => this.deliver(events),
        progress: (revision, requested) => {
          if (requested) this.progress.serverAnswered(revision);
          // etcd's periodic notice is only worth a batch when it moves the revision on.
          else if (revision > this.last) this.reportProgress(revision);
        },
      },
    );
    // A consumer still behind when the last stream broke: the new one starts paused, as that was.
    if (this.queue.isPaused) session.pause();
    this.session = session;
    const end = await session.ended;
    this.session = undefined;
    if (end.kind === 'compacted' && this.options.fromRevision === 0 && !session.created) {
      // "From now" started at a revision this client saw before a compaction: start again at
      // the current revision instead of failing a watch that asked for no history.
      this.last = 0;
      return { kind: 'broken', error: new Error('start revision compacted'), created: true };
    }
    return end.kind === 'broken' ? { ...end, created: session.created } : end;
  }

  private deliver(events: readonly IEvent[]): void {
    const first = Number(events[0]!.kv.mod_revision);
    if (first <= this.last) {
      this.endPassedOver(first);
      return;
    }
    const batch = events.map(toWatchEvent);
    this.last = batch[batch.length - 1]!.kv.modRevision;
    this.queue.push({ events: batch, revision: this.last });
    this.progress.eventsDelivered();
  }

  /** An event at `revision` came after progress up to lastRevision was reported (see the top). */
  private endPassedOver(revision: number): void {
    this.end(
      new StorageError(
        'compacted',
        `storage: the watch on ${this.options.prefix} reported progress up to revision ${this.last}, then etcd sent a change at revision ${revision}; list again`,
        undefined,
        this.last,
        { requestedRevision: revision },
      ),
    );
  }
}

function toWatchEvent(event: IEvent): WatchEvent {
  return {
    type: event.type === 'Delete' ? 'delete' : 'put',
    kv: toKeyValue(event.kv),
    prevKv: event.prev_kv ? toKeyValue(event.prev_kv) : undefined,
  };
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
