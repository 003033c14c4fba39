/**
 * A small in-memory Storage for the watch cache's tests: full history, compaction, watches with
 * progress notifications, and two test hooks: pause() holds back watch deliveries (a lagging
 * watch), breakWatches() fails every open watch (a lost connection).
 */
import { compacted, conflict, futureRevision, keyExists, keyNotFound, StorageError } from '../../../src/storage/errors.js';
import { deletedKeyValue, type GetResult, type KeyValue, type ListOptions, type ListResult, type Storage, type Watch, type WatchBatch, type WatchEvent, type WriteResult } from '../../../src/storage/storage.js';

function byBytes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}

class MemoryWatch implements Watch {
  private readonly queue: (WatchBatch | Error)[] = [];
  private wake: (() => void) | undefined;
  ended = false;

  constructor(
    readonly prefix: string,
    private readonly store: MemoryStorage,
    private readonly signal: AbortSignal | undefined,
  ) {
    signal?.addEventListener('abort', () => this.end());
  }

  push(item: WatchBatch | Error): void {
    this.queue.push(item);
    this.wake?.();
  }

  end(): void {
    this.ended = true;
    this.wake?.();
  }

  requestProgress(): void {
    this.store.progress(this);
  }

  async *[Symbol.asyncIterator](): AsyncIterator<WatchBatch> {
    try {
      for (;;) {
        const item = this.queue.shift();
        if (item instanceof Error) throw item;
        if (item !== undefined) yield item;
        else if (this.ended || this.signal?.aborted) return;
        else await new Promise<void>((resolve) => (this.wake = resolve));
      }
    } finally {
      this.store.forget(this);
    }
  }
}

export class MemoryStorage implements Storage {
  /** history[i] has revision i + 2: like etcd, an empty store is at revision 1, so 0 never names one. */
  private readonly history: WatchEvent[] = [];
  private readonly live = new Map<string, KeyValue>();
  private readonly watches = new Set<MemoryWatch>();
  private compactedAt = 0;
  private paused: { watch: MemoryWatch; item: WatchBatch }[] | undefined;
  /** Number of watch() calls, to see re-watching. */
  watchCalls = 0;

  get revision(): number {
    return this.history.length + 1;
  }

  async get(key: string, revision?: number): Promise<GetResult> {
    const at = this.checkRevision(revision);
    return { kv: this.stateAt(at).get(key), revision: at };
  }

  async list(prefix: string, options: ListOptions = {}): Promise<ListResult> {
    const at = this.checkRevision(options.revision);
    const start = options.startKey ?? prefix;
    const keys = [...this.stateAt(at).values()]
      .filter((kv) => kv.key.startsWith(prefix) && byBytes(kv.key, start) >= 0)
      .sort((a, b) => byBytes(a.key, b.key));
    const limit = options.limit ? options.limit : keys.length;
    return { kvs: keys.slice(0, limit), revision: at, remaining: Math.max(0, keys.length - limit) };
  }

  async create(key: string, value: Uint8Array): Promise<WriteResult> {
    if (this.live.has(key)) throw keyExists(key);
    const revision = this.revision + 1;
    return this.write({ type: 'put', kv: { key, value, createRevision: revision, modRevision: revision }, prevKv: undefined });
  }

  async update(key: string, value: Uint8Array, expectedModRevision: number): Promise<WriteResult> {
    const prev = this.live.get(key);
    if (prev === undefined) throw keyNotFound(key);
    if (prev.modRevision !== expectedModRevision) throw conflict(key, expectedModRevision, prev.modRevision);
    const kv = { key, value, createRevision: prev.createRevision, modRevision: this.revision + 1 };
    return this.write({ type: 'put', kv, prevKv: prev });
  }

  async delete(key: string, expectedModRevision?: number): Promise<WriteResult> {
    const prev = this.live.get(key);
    if (prev === undefined) throw keyNotFound(key);
    if (expectedModRevision !== undefined && prev.modRevision !== expectedModRevision) {
      throw conflict(key, expectedModRevision, prev.modRevision);
    }
    const kv = deletedKeyValue(key, this.revision + 1);
    const result = this.write({ type: 'delete', kv, prevKv: prev });
    return { revision: result.revision, kv: prev };
  }

  watch(prefix: string, fromRevision: number, options: { signal?: AbortSignal } = {}): Watch {
    this.watchCalls++;
    const watch = new MemoryWatch(prefix, this, options.signal);
    if (fromRevision !== 0 && fromRevision < this.compactedAt) {
      watch.push(compacted(fromRevision, this.compactedAt));
      return watch;
    }
    for (const event of this.history.slice(Math.max(0, (fromRevision === 0 ? this.revision : fromRevision) - 1))) {
      if (event.kv.key.startsWith(prefix)) watch.push({ events: [event], revision: event.kv.modRevision });
    }
    this.watches.add(watch);
    return watch;
  }

  async currentRevision(): Promise<number> {
    return this.revision;
  }

  /** Embedded: every write passes through here. */
  knownCurrentRevision(): number {
    return this.revision;
  }

  async compactedRevision(): Promise<number> {
    return this.compactedAt;
  }

  async compact(revision: number): Promise<void> {
    if (revision > this.revision) throw futureRevision(revision, this.revision);
    this.compactedAt = Math.max(this.compactedAt, revision);
  }

  async checkHealth(): Promise<void> {}

  async close(): Promise<void> {
    for (const watch of this.watches) watch.end();
  }

  /** Holds back watch deliveries (events and progress) until resume(). */
  pause(): void {
    this.paused ??= [];
  }

  resume(): void {
    const held = this.paused ?? [];
    this.paused = undefined;
    for (const { watch, item } of held) watch.push(item);
  }

  /** Fails every open watch with `error`, as a lost connection would. */
  breakWatches(error = new StorageError('unavailable', 'storage: connection lost')): void {
    for (const watch of this.watches) watch.push(error);
    this.watches.clear();
  }

  /** @internal for MemoryWatch */
  progress(watch: MemoryWatch): void {
    this.deliver(watch, { events: [], revision: this.revision });
  }

  /** @internal for MemoryWatch */
  forget(watch: MemoryWatch): void {
    this.watches.delete(watch);
  }

  private write(event: WatchEvent): WriteResult {
    this.history.push(event);
    if (event.type === 'put') this.live.set(event.kv.key, event.kv);
    else this.live.delete(event.kv.key);
    for (const watch of this.watches) {
      if (event.kv.key.startsWith(watch.prefix)) this.deliver(watch, { events: [event], revision: event.kv.modRevision });
    }
    return { revision: event.kv.modRevision, kv: event.kv };
  }

  private deliver(watch: MemoryWatch, item: WatchBatch): void {
    if (this.paused !== undefined) this.paused.push({ watch, item });
    else watch.push(item);
  }

  private checkRevision(revision: number | undefined): number {
    if (revision === undefined) return this.revision;
    if (revision > this.revision) throw futureRevision(revision, this.revision);
    if (revision < this.compactedAt) throw compacted(revision, this.compactedAt);
    return revision;
  }

  private stateAt(revision: number): Map<string, KeyValue> {
    if (revision === this.revision) return this.live;
    const state = new Map<string, KeyValue>();
    for (const event of this.history.slice(0, revision - 1)) {
      if (event.type === 'put') state.set(event.kv.key, event.kv);
      else state.delete(event.kv.key);
    }
    return state;
  }
}
