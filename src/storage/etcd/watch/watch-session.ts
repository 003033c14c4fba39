/**
 * One gRPC Watch stream carrying one etcd watcher, from its create request to its end. A session
 * never reconnects: when its stream fails it reports how it ended, and EtcdWatch opens the next
 * session from the revision it got to. One stream per watcher keeps progress responses (which
 * etcd sends to a whole stream) unambiguous.
 */
import type { IEvent, IWatchRequest, IWatchResponse } from 'etcd3';
import type { EtcdConnection } from '../etcd-connection.js';
import { headerRevision } from '../key-value.js';

/** How a session ended. */
export type SessionEnd =
  /** close() was called. */
  | { readonly kind: 'closed' }
  /** etcd canceled the watcher because its start revision was compacted. */
  | { readonly kind: 'compacted'; readonly compactRevision: number }
  /** etcd canceled the watcher for another reason (e.g. permission); retrying will not help. */
  | { readonly kind: 'canceled'; readonly reason: string }
  /** The stream failed or ended (etcd restarted, network): a new session may succeed. */
  | { readonly kind: 'broken'; readonly error: unknown };

/** What the session reports while it runs; called synchronously from the stream's events. */
export interface SessionHandlers {
  /** etcd accepted the watcher. */
  created(): void;
  /** Changes, in revision order, every event of one revision in the same call. */
  events(events: readonly IEvent[]): void;
  /**
   * A response without events: nothing under the range changed up to `revision`. `requested` is
   * true for the answer to a progress request (watch id -1), false for etcd's periodic notice.
   */
  progress(revision: number, requested: boolean): void;
}

export interface SessionRequest {
  readonly key: Buffer;
  readonly rangeEnd: Buffer;
  /** The first revision to deliver. */
  readonly startRevision: number;
}

/** etcd's id for responses that belong to no single watcher (clientv3.InvalidWatchID). */
const STREAM_WIDE_ID = '-1';

/**
 * The parts of grpc-js's ClientDuplexStream the session uses. etcd3 types its stream more narrowly
 * (no pause/resume, no writable) than the object it returns.
 */
interface WatchStream {
  write(request: IWatchRequest): void;
  end(): void;
  cancel(): void;
  pause(): void;
  resume(): void;
  readonly writable: boolean;
  on(event: 'data', listener: (response: IWatchResponse) => void): this;
  on(event: 'error', listener: (error: Error) => void): this;
  on(event: 'end', listener: () => void): this;
}

export class WatchSession {
  /** Resolves once, with how the session ended; never rejects. */
  readonly ended: Promise<SessionEnd>;
  private stream: WatchStream | undefined;
  private isCreated = false;
  private isPaused = false;
  private finish: (end: SessionEnd) => void = () => {};
  private finished = false;

  constructor(
    conn: EtcdConnection,
    private readonly request: SessionRequest,
    private readonly handlers: SessionHandlers,
  ) {
    this.ended = new Promise<SessionEnd>((resolve) => {
      this.finish = (end) => {
        if (this.finished) return;
        this.finished = true;
        this.closeStream();
        resolve(end);
      };
    });
    conn.watchClient.watch().then(
      (stream) => this.attach(stream as unknown as WatchStream),
      (error: unknown) => this.finish({ kind: 'broken', error }),
    );
  }

  /** Whether etcd accepted the watcher (a session that never got there failed to connect). */
  get created(): boolean {
    return this.isCreated;
  }

  /** Asks etcd for a progress response on this stream; ignored before the watcher exists. */
  requestProgress(): void {
    if (this.isCreated && !this.finished) this.stream?.write({ progress_request: {} });
  }

  pause(): void {
    this.isPaused = true;
    this.stream?.pause();
  }

  resume(): void {
    this.isPaused = false;
    this.stream?.resume();
  }

  close(): void {
    this.finish({ kind: 'closed' });
  }

  private attach(stream: WatchStream): void {
    this.stream = stream;
    // Listeners stay attached for the stream's life: an 'error' without a listener would throw.
    stream.on('data', (response) => this.receive(response));
    stream.on('error', (error) => this.finish({ kind: 'broken', error }));
    stream.on('end', () => this.finish({ kind: 'broken', error: new Error('etcd ended the watch stream') }));
    if (this.finished) {
      this.closeStream();
      return;
    }
    if (this.isPaused) stream.pause();
    stream.write({
      create_request: {
        key: this.request.key,
        range_end: this.request.rangeEnd,
        start_revision: this.request.startRevision,
        prev_kv: true,
        progress_notify: true,
      },
    });
  }

  private receive(response: IWatchResponse): void {
    if (this.finished) return;
    if (response.created) {
      if (response.canceled) {
        this.finish({ kind: 'canceled', reason: response.cancel_reason || 'etcd refused the watch' });
        return;
      }
      this.isCreated = true;
      this.handlers.created();
    } else if (response.canceled) {
      const compactRevision = Number(response.compact_revision);
      this.finish(
        compactRevision > 0
          ? { kind: 'compacted', compactRevision }
          : { kind: 'canceled', reason: response.cancel_reason || 'etcd canceled the watch' },
      );
    } else if (response.events.length > 0) {
      this.handlers.events(response.events);
    } else {
      this.handlers.progress(headerRevision(response.header), response.watch_id === STREAM_WIDE_ID);
    }
  }

  /**
   * Half-closes before cancelling: etcd3 marks the member as failed when a stream that is still
   * writable errors, and a cancel of our own would otherwise count against a healthy member.
   */
  private closeStream(): void {
    const stream = this.stream;
    if (stream === undefined) return;
    if (stream.writable) stream.end();
    stream.cancel();
  }
}
