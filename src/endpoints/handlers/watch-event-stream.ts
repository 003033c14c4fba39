/**
 * One watch response: frames cache events in the negotiated representation and writes them in
 * batches, at most one socket write per turn of the event loop. Plain objects use the framed bytes
 * shared by every watcher of the same encoding (memoized by the cache's object and the event type,
 * encoding-memo.ts).
 *
 * Over HTTP/1.1 the stream writes its chunks to the socket itself: one event fans out to every
 * watcher as one socket write each, and going through ServerResponse.write costs four writes
 * gathered by a cork, a tick and a copy per watcher per event. The chunk framing of a plain event
 * is built once and shared like the event's bytes.
 */
import { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { ApiError } from '../../api/errors.js';
import type { CacheWatchEvent } from '../../storage/cacher/cache-types.js';
import type { KubeObject } from '../../registry/object.js';
import type { RequestContext } from '../../server/request-context.js';
import type { WatchEventType } from '../../serialization/watch-frame.js';
import { conversions, encodedObject, includeObjectOf, spellingOf, type Output } from '../respond.js';
import type { IncludeObject } from '../table/table-types.js';
import { setResponseHead } from '../../server/write-response.js';
import type { RequestScope } from '../scope.js';
import { apiVersionOf } from '../../registry/catalog/resource-definition.js';

/** The Table and metadata-only conversions, loaded once a watch asks for one. */
export type Converter = Awaited<ReturnType<typeof conversions>>;

const INITIAL_EVENTS_END = ['k8s.io/initial-events-end', 'cluster.io/initial-events-end'];
const LIST_BLUEPRINT = 'kubernetes.io/initial-events-list-blueprint';
const CRLF = Buffer.from('\r\n');
/** Framed bytes past which the stream asks for no more events until it has written them. */
const PENDING_LIMIT = 64 * 1024;

/** `parts` (`size` bytes in all) as one HTTP/1.1 chunk. */
function asChunk(parts: readonly Uint8Array[], size: number): Buffer {
  return Buffer.concat([Buffer.from(`${size.toString(16)}\r\n`, 'latin1'), ...parts, CRLF]);
}

/**
 * Frames events and writes them in batches: one write per turn of the event loop at most, in the
 * shared flush queue's order (a batch of watchers per turn, see flush-queue.ts).
 */
export class EventStream {
  /**
   * The framed events waiting for the next write: the first, and any after it. Most writes carry
   * one event, and then no array is made. An array made per write (50,000 a second with 1,000
   * watchers) was the old generation's largest source of garbage in the watch benchmark: ~90 MiB
   * of them in 20 s died there, promoted or allocated there by V8 (which of the two was not
   * established), and brought a full collection every ~20 s.
   */
  private pendingFirst: Uint8Array | undefined;
  private pendingRest: Uint8Array[] | undefined;
  private pendingSize = 0;
  /** When the one pending event is a shared event: the same bytes already framed as a chunk. */
  private pendingChunk: Uint8Array | undefined;
  private flushScheduled = false;
  private started = false;
  /** An HTTP/1.1 chunked response's socket, which the stream writes its chunks to itself. */
  private socket: Socket | undefined;
  /**
   * The transport (socket or response) that did not take a write whole, until its 'drain': while
   * set, the stream asks its source for no more events.
   */
  private drainSource: { off(event: 'drain', listener: () => void): unknown } | undefined;
  /** The source was told to stop (send returned false) and waits for `resumeSource`. */
  private sourceStopped = false;
  private resumeSource: (() => void) | undefined;

  private readonly kind: string;
  private readonly apiVersion: string;
  private readonly listKind: string;
  /** Table events carry column definitions in the first event only, as upstream. */
  private tableHeadersSent = false;

  private readonly includeObject: IncludeObject | undefined;
  /** Memo keys of this stream's framed events and chunks, by event type (built once, not per event). */
  private readonly memoKeys: Readonly<Record<'ADDED' | 'MODIFIED' | 'DELETED', { readonly frame: string; readonly chunk: string }>>;

  constructor(
    private readonly ctx: RequestContext,
    private readonly scope: RequestScope,
    private readonly out: Output,
    /** The Table and metadata-only conversions, when the representation needs them. */
    private readonly converter: Converter | undefined,
  ) {
    const d = scope.definition;
    this.kind = d.kind;
    this.apiVersion = apiVersionOf(d);
    this.listKind = d.listKind;
    this.includeObject = out.representation === 'Table' && converter ? includeObjectOf(ctx, converter.parseIncludeObject) : undefined;
    const media = out.codec.mediaTypes[0]!;
    const keysFor = (type: string) => ({ frame: `frame:${type}:${media}`, chunk: `chunk:${type}:${media}` });
    this.memoKeys = { ADDED: keysFor('ADDED'), MODIFIED: keysFor('MODIFIED'), DELETED: keysFor('DELETED') };
  }

  begin(): void {
    if (this.started) return;
    this.started = true;
    const res = this.ctx.res;
    // Upstream labels binary watch streams as streams; a JSON watch is plain application/json.
    const streamed = this.out.codec.mediaTypes[0] === 'application/json' ? '' : ';stream=watch';
    setResponseHead(this.ctx, 200, `${this.out.contentType}${streamed}`);
    // Clients wait for the headers before they read events: send them now, not with the first event.
    // (Http2ServerResponse has flushHeaders too; @types/node leaves it out.)
    (res as ServerResponse).flushHeaders();
    if (res instanceof ServerResponse && res.chunkedEncoding && res.socket) this.socket = res.socket;
  }

  /** Called when the stream takes events again after `send` returned false. */
  onReady(resume: () => void): void {
    this.resumeSource = resume;
  }

  /** Frames and queues one event. False: queued, but send no more until the `onReady` callback. */
  send(event: CacheWatchEvent<KubeObject>): boolean {
    this.add(event);
    if (this.drainSource === undefined && this.pendingSize < PENDING_LIMIT) return true;
    this.sourceStopped = true;
    return false;
  }

  private add(event: CacheWatchEvent<KubeObject>): void {
    if (event.type === 'BOOKMARK') {
      this.frame('BOOKMARK', this.out.codec.encode(this.bookmarkObject(event.revision, event.initialEventsEnd)));
      return;
    }
    if (this.out.representation === 'object') {
      // The framed event is the same for every watcher of this encoding, and for every initial
      // event of the same object (each watcher's is a new event): memoized by object and type.
      const keys = this.memoKeys[event.type];
      const object = event.entry.object;
      const memo = this.scope.env.encodings;
      const framed = memo.get(object, keys.frame, () => this.out.codec.stream!.frameEvent(event.type, encodedObject(object, this.out, memo)));
      const chunk = this.socket === undefined ? undefined : memo.get(object, keys.chunk, () => asChunk([framed], framed.length));
      this.push(framed, chunk);
      return;
    }
    this.frame(event.type, this.encode(event.entry.object));
  }

  /** The event's object as a Table row or as metadata only (plain objects never come here: see send). */
  private encode(object: KubeObject): Uint8Array {
    const codec = this.out.codec;
    const { spelling, version } = spellingOf(this.out);
    if (this.out.representation !== 'Table') return codec.encode(this.converter!.toPartialObjectMetadata(object, spelling, version));
    const table = this.converter!.toTable(this.scope.definition, object, {
      includeObject: this.includeObject!, now: Date.now(),
      groupVersionSpelling: spelling, version, noHeaders: this.tableHeadersSent,
    });
    this.tableHeadersSent = true;
    return codec.encode(table);
  }

  private frame(type: WatchEventType, object: Uint8Array): void {
    const framing = this.out.codec.stream!;
    this.push(framing.frameEvent(type, object));
  }

  private bookmarkObject(revision: number, initialEventsEnd: boolean): KubeObject {
    const metadata: Record<string, unknown> = { resourceVersion: String(revision), creationTimestamp: null };
    if (initialEventsEnd) {
      const annotations: Record<string, string> = {};
      for (const key of INITIAL_EVENTS_END) annotations[key] = 'true';
      const blueprint = JSON.stringify({ kind: this.listKind, apiVersion: this.apiVersion, metadata: {}, items: null }) + '\n';
      annotations[LIST_BLUEPRINT] = Buffer.from(blueprint).toString('base64');
      metadata['annotations'] = annotations;
    }
    return { kind: this.kind, apiVersion: this.apiVersion, metadata };
  }

  private push(part: Uint8Array, chunk?: Uint8Array): void {
    if (this.pendingFirst === undefined) {
      this.pendingFirst = part;
      this.pendingChunk = chunk;
    } else {
      (this.pendingRest ??= []).push(part);
      this.pendingChunk = undefined;
    }
    this.pendingSize += part.length;
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      this.scope.env.watchFlushes.add(this.flushNow);
    }
  }

  private readonly flushNow = (): void => this.flush();

  private flush(): void {
    this.flushScheduled = false;
    const { pendingFirst: first, pendingRest: rest, pendingSize, pendingChunk, socket } = this;
    if (first === undefined || this.ctx.res.writableEnded) return;
    this.pendingFirst = undefined;
    this.pendingRest = undefined;
    this.pendingSize = 0;
    this.pendingChunk = undefined;
    if (socket !== undefined) {
      if (socket.destroyed) return;
      if (!socket.write(pendingChunk ?? asChunk(rest === undefined ? [first] : [first, ...rest], pendingSize))) this.waitForDrain(socket);
    } else {
      const res = this.ctx.res as ServerResponse;
      if (!res.write(rest === undefined ? first : Buffer.concat([first, ...rest], pendingSize))) this.waitForDrain(res);
    }
    this.resumeIfReady();
  }

  /** Once per blocked spell: a write while already waiting adds no second listener. */
  private waitForDrain(target: Socket | ServerResponse): void {
    if (this.drainSource !== undefined) return;
    this.drainSource = target;
    target.once('drain', this.onDrain);
  }

  private readonly onDrain = (): void => {
    this.drainSource = undefined;
    this.resumeIfReady();
  };

  private resumeIfReady(): void {
    if (!this.sourceStopped || this.drainSource !== undefined || this.pendingSize >= PENDING_LIMIT) return;
    this.sourceStopped = false;
    this.resumeSource?.();
  }

  end(): void {
    this.begin();
    // The watch has let go: the last flush must not ask it for more.
    this.resumeSource = undefined;
    this.flush();
    // A keep-alive socket outlives this response: it must not call back into a finished watch.
    this.drainSource?.off('drain', this.onDrain);
    this.drainSource = undefined;
    if (!this.ctx.res.writableEnded) this.ctx.res.end();
  }

  endWithError(err: ApiError): void {
    this.begin();
    this.frame('ERROR', this.out.codec.encode(err.toStatus()));
    this.end();
  }
}
