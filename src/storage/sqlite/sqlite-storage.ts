/**
 * The embedded storage backend: etcd v3 semantics on one SQLite file in a data directory.
 *
 * Threads and connections: every write goes through the group-commit queue to one writer
 * connection (in a worker thread by default); reads use a second connection on the main thread.
 * The main thread keeps `revision`, the revision of the last commit it was told about, and every
 * read names the revision it reads at, so reads are snapshots that newer commits cannot disturb.
 *
 * Order after a commit (all synchronous, on the main thread): advance `revision`, publish the
 * batch's events to the watch hub, then resolve the writers' promises. So a writer that sees its
 * write acknowledged, and then reads or watches from revision 0, finds the write already there.
 */
import { compacted, futureRevision, invalid, StorageError, unavailable } from '../errors.js';
import type { GetResult, ListOptions, ListResult, Storage, Watch, WatchEvent, WatchOptions, WriteResult } from '../storage.js';
import { CompactionScheduler } from './compaction-scheduler.js';
import { openMaintenanceConnection, openReaderConnection } from './connection.js';
import { claimDataDirectory, syncDirectory, type ClaimedDirectory } from './data-directory.js';
import { GroupCommitQueue } from './group-commit.js';
import { InlineWriteExecutor } from './inline-write-executor.js';
import { prefixRange } from './key-range.js';
import { resolveSqliteOptions, type ResolvedSqliteOptions, type SqliteStorageOptions } from './sqlite-options.js';
import { toStorageError } from './sqlite-errors.js';
import { SqliteReader } from './sqlite-reader.js';
import { SqliteWatch, type WatchSource } from './sqlite-watch.js';
import { readStoredState } from './stored-state.js';
import { WalSizeGuard } from './wal-size-guard.js';
import { WatchHub } from './watch-hub.js';
import { WorkerWriteExecutor } from './worker-write-executor.js';
import { discardPrestartedWriterThread } from './writer-thread.js';
import type { WriteExecutor } from './write-executor.js';
import type { WriteOp, WriteOutcome } from './write-ops.js';
import { describeCommitted, rejectionError } from './write-results.js';
import type { Database as Connection } from 'better-sqlite3';

/** What the group-commit queue hands back per write: its result, or why it was rejected. */
type Settled = WriteResult | StorageError;

export class SqliteStorage implements Storage {
  private revision: number;
  private closed = false;
  private readonly hub = new WatchHub();
  private readonly watches = new Set<SqliteWatch>();
  private readonly reader: SqliteReader;
  private readonly queue: GroupCommitQueue<WriteOp, Settled>;
  private readonly compaction: CompactionScheduler;
  private readonly watchSource: WatchSource;

  private constructor(
    private readonly options: ResolvedSqliteOptions,
    private readonly directory: ClaimedDirectory,
    private readonly readConnection: Connection,
    private readonly walGuard: WalSizeGuard,
    private readonly executor: WriteExecutor,
  ) {
    this.reader = new SqliteReader(readConnection);
    const stored = readStoredState(readConnection);
    this.revision = stored.revision;
    this.queue = new GroupCommitQueue((ops) => this.commit(ops), {
      maxItems: options.maxBatchWrites,
      maxBytes: options.maxBatchBytes,
    });
    this.compaction = new CompactionScheduler({
      executor: {
        recordCompactedRevision: (revision) => executor.recordCompactedRevision(revision),
        compactChunk: async (upTo) => {
          const done = await executor.compactChunk(upTo);
          walGuard.afterCommit();
          return done;
        },
      },
      compactedRevision: stored.compactedRevision,
      compactionDone: stored.compactionDone,
      chunkRevisions: options.compactionChunkRevisions,
      retryMs: options.compactionRetryMs,
      logger: options.logger,
    });
    this.watchSource = {
      hub: this.hub,
      currentRevision: () => this.revision,
      compactedRevision: () => this.compaction.compactedRevision,
      history: (range, after, upTo, limit) => {
        try {
          return this.reader.history(range, after, upTo, limit);
        } catch (err) {
          throw toStorageError(err, 'replaying history for a watch');
        }
      },
    };
    this.compaction.resume();
  }

  /**
   * Opens (creating if needed) the store in `options.dataDir`. Throws StorageError('corrupt') when
   * state.db is not a Capstan database (nothing is written to it then), and
   * StorageError('unavailable') when another process or store holds the directory.
   */
  static async open(options: SqliteStorageOptions): Promise<SqliteStorage> {
    const resolved = resolveSqliteOptions(options);
    const directory = claimDataDirectory(resolved.dataDir);
    let readConnection: Connection | undefined;
    let walGuard: WalSizeGuard | undefined;
    let executor: WriteExecutor | undefined;
    try {
      readConnection = openReaderConnection(directory.stateFile, resolved.busyTimeoutMs);
      syncDirectory(directory.path);
      const walFile = `${directory.stateFile}-wal`;
      walGuard = new WalSizeGuard(openMaintenanceConnection(directory.stateFile), walFile, resolved.walSizeLimitBytes);
      if (resolved.writer === 'worker') {
        executor = await WorkerWriteExecutor.start(directory.stateFile, resolved.writerSettings);
      } else {
        discardPrestartedWriterThread();
        executor = new InlineWriteExecutor(directory.stateFile, resolved.writerSettings);
      }
      return new SqliteStorage(resolved, directory, readConnection, walGuard, executor);
    } catch (err) {
      await executor?.close().catch(() => {});
      walGuard?.close();
      readConnection?.close();
      directory.release();
      throw toStorageError(err, `opening ${directory.stateFile}`);
    }
  }

  async get(key: string, revision?: number): Promise<GetResult> {
    const at = this.readRevision(revision);
    try {
      return { kv: this.reader.get(key, at), revision: at };
    } catch (err) {
      throw toStorageError(err, `reading ${key}`);
    }
  }

  async list(prefix: string, options: ListOptions = {}): Promise<ListResult> {
    const at = this.readRevision(options.revision);
    const limit = options.limit ?? 0;
    if (!Number.isInteger(limit) || limit < 0) throw invalid(`limit must be a non-negative integer, got ${limit}`);
    const range = prefixRange(prefix, options.startKey);
    try {
      const kvs = this.reader.list(range, at, limit);
      const cut = limit > 0 && kvs.length === limit;
      const remaining = !cut ? 0 : options.countRemaining === false ? 1 : this.reader.count(range, at) - kvs.length;
      return { kvs, revision: at, remaining };
    } catch (err) {
      throw toStorageError(err, `listing ${prefix}`);
    }
  }

  create(key: string, value: Uint8Array): Promise<WriteResult> {
    return this.write({ kind: 'create', key, value });
  }

  update(key: string, value: Uint8Array, expectedModRevision: number): Promise<WriteResult> {
    return this.write({ kind: 'update', key, value, expectedModRevision });
  }

  delete(key: string, expectedModRevision?: number): Promise<WriteResult> {
    return this.write({ kind: 'delete', key, expectedModRevision });
  }

  watch(prefix: string, fromRevision: number, options?: WatchOptions): Watch {
    const watch = new SqliteWatch(
      this.watchSource,
      prefix,
      this.closed || !isRevision(fromRevision) ? 0 : fromRevision,
      options,
      { maxQueuedEvents: this.options.maxQueuedWatchEvents, replayPageSize: this.options.replayPageSize },
      (ended) => this.watches.delete(ended),
    );
    if (this.closed) watch.fail(closedError());
    else if (!isRevision(fromRevision)) watch.fail(invalid(`fromRevision must be a non-negative integer, got ${fromRevision}`));
    else if (watch.active) this.watches.add(watch);
    return watch;
  }

  async currentRevision(): Promise<number> {
    this.assertOpen();
    return this.revision;
  }

  knownCurrentRevision(): number | undefined {
    return this.closed ? undefined : this.revision;
  }

  async compactedRevision(): Promise<number> {
    this.assertOpen();
    return this.compaction.compactedRevision;
  }

  async compact(revision: number): Promise<void> {
    this.assertOpen();
    if (!isRevision(revision)) throw invalid(`revision must be a non-negative integer, got ${revision}`);
    if (revision > this.revision) throw futureRevision(revision, this.revision);
    await this.compaction.compact(revision);
  }

  async checkHealth(signal?: AbortSignal): Promise<void> {
    this.assertOpen();
    try {
      this.readConnection.prepare('SELECT 1').get();
    } catch (err) {
      throw toStorageError(err, 'health check');
    }
    await abortable(this.executor.ping(), signal);
  }

  /** Ends every watch, finishes the writes already submitted, and releases the directory. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const watch of [...this.watches]) watch.end();
    await this.queue.drain();
    await this.compaction.stop();
    await this.executor.close().catch(() => {});
    this.walGuard.close();
    this.readConnection.close();
    this.directory.release();
  }

  private async write(op: WriteOp): Promise<WriteResult> {
    this.assertOpen();
    if (typeof op.key !== 'string' || op.key === '') throw invalid('a key must be a non-empty string');
    if (op.kind !== 'delete' && !(op.value instanceof Uint8Array)) throw invalid(`the value of ${op.key} must be a Uint8Array`);
    if (op.kind !== 'create' && op.expectedModRevision !== undefined && !isRevision(op.expectedModRevision)) {
      throw invalid(`expectedModRevision must be a non-negative integer, got ${op.expectedModRevision}`);
    }
    const bytes = op.kind === 'delete' ? 0 : op.value.byteLength;
    const settled = await this.queue.submit(op, bytes);
    if (settled instanceof StorageError) throw settled;
    return settled;
  }

  /** Commits one batch, then publishes it; runs once per group commit. */
  private async commit(ops: readonly WriteOp[]): Promise<Settled[]> {
    const outcomes: WriteOutcome[] = await this.executor.write(ops);
    const events: WatchEvent[] = [];
    const settled = outcomes.map((outcome, i): Settled => {
      if (!outcome.ok) return rejectionError(ops[i]!, outcome);
      const committed = describeCommitted(ops[i]!, outcome);
      events.push(committed.event);
      this.revision = outcome.revision;
      return committed.result;
    });
    if (events.length > 0) this.hub.publish(events, this.revision);
    this.walGuard.afterCommit();
    return settled;
  }

  /** The revision a read is served at; throws for compacted and future revisions. */
  private readRevision(requested: number | undefined): number {
    this.assertOpen();
    if (requested === undefined || requested === 0) return this.revision;
    if (!isRevision(requested)) throw invalid(`revision must be a non-negative integer, got ${requested}`);
    if (requested > this.revision) throw futureRevision(requested, this.revision);
    const compactedAt = this.compaction.compactedRevision;
    if (requested < compactedAt) throw compacted(requested, compactedAt);
    return requested;
  }

  private assertOpen(): void {
    if (this.closed) throw closedError();
  }
}

function isRevision(value: number): boolean {
  return Number.isSafeInteger(value) && value >= 0;
}

function closedError(): StorageError {
  return unavailable('the store is closed');
}

/** Rejects with StorageError('unavailable') if `signal` aborts first. */
function abortable<T>(operation: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return operation;
  if (signal.aborted) return Promise.reject(unavailable('health check aborted'));
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(unavailable('health check aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
    operation.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
