/**
 * What every etcd operation shares: the etcd3 client, the resolved options, the highest revision
 * seen so far, the compaction tracker, and the one way calls fail (a StorageError).
 */
import type { Etcd3, IRangeRequest, IRangeResponse, IResponseHeader, KVClient, MaintenanceClient, WatchClient } from 'etcd3';
import { type StorageError, unavailable } from '../errors.js';
import { CompactionTracker } from './compaction-tracker.js';
import { classifyEtcdError, toStorageError } from './error-mapping.js';
import { headerRevision } from './key-value.js';
import type { ResolvedEtcdOptions } from './options.js';

/**
 * A key no resource uses, for reads that only want a response header (the current revision, a
 * compaction probe). Any key works; the NUL byte sorts before every resource key.
 */
const PROBE_KEY = Buffer.from([0]);

export interface CallOptions {
  /** The revision the call reads at, for the bound of 'compacted' and 'future-revision'. */
  readonly revision?: number;
  /** 'read' (idempotent) or 'write', for retries on another member; omitted: no retry. */
  readonly kind?: 'read' | 'write';
}

/** Whether a failed call may go to another member (see EtcdConnection.call). */
function mayRetry(err: unknown, kind: CallOptions['kind']): boolean {
  if (kind === undefined || classifyEtcdError(err) !== 'unreachable') return false;
  if (kind === 'read') return true;
  const message = err instanceof Error ? err.message : '';
  // grpc-js fails a call this way before sending it; cockatiel's open breaker never calls at all.
  return message.includes('No connection established') || (err instanceof Error && err.name === 'BrokenCircuitError');
}

export class EtcdConnection {
  readonly kv: KVClient;
  readonly watchClient: WatchClient;
  readonly maintenance: MaintenanceClient;
  readonly compaction: CompactionTracker;
  private observed = 0;
  private closed = false;
  /**
   * Each call goes to a member at random, so with several a retry may meet the same dead one;
   * twice the members is enough for etcd3's per-member breaker (open after 3 failures) to steer
   * the last attempts elsewhere.
   */
  private readonly maxAttempts: number;
  /** Reads of the current revision that writes issued meanwhile wait for (see below). */
  private readonly holdingReads = new Set<Promise<void>>();

  constructor(
    private readonly client: Etcd3,
    readonly options: ResolvedEtcdOptions,
  ) {
    this.maxAttempts = options.servers.length === 1 ? 1 : 2 * options.servers.length;
    this.kv = client.kv;
    this.watchClient = client.watchClient;
    this.maintenance = client.maintenance;
    this.compaction = new CompactionTracker(
      (revision) => this.probeRevision(revision),
      () => this.currentRevision(),
    );
  }

  /**
   * The highest revision any response has shown. Every write issued after a response arrived gets
   * a higher revision, which is what a watch "from now" needs (see EtcdWatch).
   */
  get observedRevision(): number {
    return this.observed;
  }

  /**
   * Reads the current revision so that it is at least that of every write acknowledged before the
   * call and below that of every write this client issues after it.
   *
   * A linearizable read alone gives only the first half: etcd may apply a write sent after the
   * read before it serves the read. Callers rely on the second half too: a watch "from now" (and
   * the watch cache's, which asks for this revision first) must see a write its caller issues
   * right after it. So writes issued while such a read is pending wait until it has returned
   * (about one round trip, and only then). SQLite gives the same order for free.
   *
   * @throws StorageError('unavailable') when etcd cannot answer (the held writes then proceed).
   */
  currentRevisionHoldingWrites(): Promise<number> {
    const read = this.currentRevision();
    const settled = read.then(
      () => undefined,
      () => undefined,
    );
    this.holdingReads.add(settled);
    void settled.then(() => this.holdingReads.delete(settled));
    return read;
  }

  /**
   * Resolves when the reads pending now (see currentRevisionHoldingWrites) have returned; at once
   * when there are none. Reads started later do not delay the caller, so writes cannot starve.
   */
  async writesMayProceed(): Promise<void> {
    if (this.holdingReads.size > 0) await Promise.all([...this.holdingReads]);
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Records the revision of a response. */
  noteHeader(header: IResponseHeader | undefined): number {
    const revision = headerRevision(header);
    if (revision > this.observed) this.observed = revision;
    return revision;
  }

  /**
   * Runs a call and turns any failure into a StorageError. For 'compacted' and 'future-revision'
   * it looks up the bound the error reports (etcd's message does not carry it). With several
   * servers, a call that could not reach its member is tried on another one: reads always, writes
   * only when they provably never left (no connection), since a retried transaction that had been
   * applied would fail its own compare and report a false 'key-exists' or 'conflict'.
   *
   * @param operation  for messages, e.g. `get /registry/pods/a`.
   */
  async call<T>(operation: string, run: () => Promise<T>, options: CallOptions = {}): Promise<T> {
    if (this.closed) throw unavailable(`etcd storage is closed (${operation})`);
    for (let attempt = 1; ; attempt++) {
      try {
        return await run();
      } catch (err) {
        if (attempt < this.maxAttempts && !this.closed && mayRetry(err, options.kind)) continue;
        throw await this.translate(err, operation, options.revision);
      }
    }
  }

  /**
   * The store's current revision, by a linearizable read of one key's header (no ordering with
   * writes issued meanwhile: see currentRevisionHoldingWrites).
   */
  async currentRevision(): Promise<number> {
    const response = await this.call('read the current revision', () => this.kv.range({ key: PROBE_KEY, count_only: true }), {
      kind: 'read',
    });
    return this.noteHeader(response.header);
  }

  /** A range read whose response header is all that matters, with a deadline of its own. */
  rangeProbe(request: IRangeRequest, deadline?: number): Promise<IRangeResponse> {
    return this.kv.range({ key: PROBE_KEY, count_only: true, ...request }, deadline === undefined ? undefined : { deadline });
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.client.close();
  }

  private async probeRevision(revision: number): Promise<'readable' | 'compacted'> {
    if (this.closed) throw unavailable('etcd storage is closed (read the compacted revision)');
    try {
      this.noteHeader((await this.rangeProbe({ revision })).header);
      return 'readable';
    } catch (err) {
      if (classifyEtcdError(err) === 'compacted') return 'compacted';
      throw toStorageError(err, { servers: this.options.serversText, operation: 'read the compacted revision' });
    }
  }

  private async translate(err: unknown, operation: string, requestedRevision: number | undefined): Promise<StorageError> {
    const context = { servers: this.options.serversText, operation, requestedRevision };
    const kind = classifyEtcdError(err);
    if (kind === 'compacted' && requestedRevision !== undefined) {
      this.compaction.noteCompactedRead(requestedRevision);
      return toStorageError(err, { ...context, boundRevision: await this.lookUp(() => this.compaction.compactedRevision()) });
    }
    if (kind === 'future-revision') {
      return toStorageError(err, { ...context, boundRevision: await this.lookUp(() => this.currentRevision()) });
    }
    return toStorageError(err, context);
  }

  /** A best-effort lookup for an error message: undefined when it fails too. */
  private async lookUp(read: () => Promise<number>): Promise<number | undefined> {
    try {
      return await read();
    } catch {
      return undefined;
    }
  }
}
