/** Options of the SQLite backend and their defaults. */
import { invalid } from '../errors.js';
import type { WriterSettings } from './connection.js';

/**
 * Receives failures of background work (compaction retries) that have no caller to reject. A
 * subset of the server's Logger, so that one can be passed as it is.
 */
export interface StorageLogger {
  error(message: string, err?: unknown): void;
}

export interface SqliteStorageOptions {
  /** The data directory; created if missing. The database is `state.db` inside it. */
  readonly dataDir: string;
  /**
   * Where writes run: 'worker' (a worker thread, so fsync never blocks the event loop) or
   * 'inline' (the calling thread). Default 'worker'.
   */
  readonly writer?: 'worker' | 'inline';
  /** Most writes in one group commit. Default 1000. */
  readonly maxBatchWrites?: number;
  /** Most value bytes in one group commit. Default 16 MiB. */
  readonly maxBatchBytes?: number;
  /** Events a watch may hold for a slow consumer before it is ended. Default 10,000. */
  readonly maxQueuedWatchEvents?: number;
  /** Events read per step when a watch replays history. Default 1000. */
  readonly replayPageSize?: number;
  /** Revisions compacted per transaction (each takes some 10-30 ms). Default 2000. */
  readonly compactionChunkRevisions?: number;
  /** First delay before compaction is retried after an error (doubling up to a minute). Default 1 s. */
  readonly compactionRetryMs?: number;
  /** How long SQLite waits for a lock. Default 5 s. */
  readonly busyTimeoutMs?: number;
  /** WAL pages after which a commit runs a passive checkpoint. Default 1000 (4 MiB). */
  readonly walAutocheckpointPages?: number;
  /** Past this size the WAL file is checkpointed and truncated (see wal-size-guard.ts). Default 64 MiB. */
  readonly walSizeLimitBytes?: number;
  readonly logger?: StorageLogger;
}

export type ResolvedSqliteOptions = Required<Omit<SqliteStorageOptions, 'logger'>> & {
  readonly logger: StorageLogger | undefined;
  readonly writerSettings: WriterSettings;
};

/** Fills in the defaults; throws RangeError for a setting that makes no sense. */
export function resolveSqliteOptions(options: SqliteStorageOptions): ResolvedSqliteOptions {
  const resolved = {
    dataDir: options.dataDir,
    writer: options.writer ?? 'worker',
    maxBatchWrites: options.maxBatchWrites ?? 1000,
    maxBatchBytes: options.maxBatchBytes ?? 16 * 1024 * 1024,
    maxQueuedWatchEvents: options.maxQueuedWatchEvents ?? 10_000,
    replayPageSize: options.replayPageSize ?? 1000,
    compactionChunkRevisions: options.compactionChunkRevisions ?? 2000,
    compactionRetryMs: options.compactionRetryMs ?? 1000,
    busyTimeoutMs: options.busyTimeoutMs ?? 5000,
    walAutocheckpointPages: options.walAutocheckpointPages ?? 1000,
    walSizeLimitBytes: options.walSizeLimitBytes ?? 64 * 1024 * 1024,
    logger: options.logger,
  };
  for (const [name, value] of Object.entries(resolved)) {
    if (typeof value === 'number' && !(Number.isInteger(value) && value > 0)) {
      throw invalid(`SqliteStorage: ${name} must be a positive integer, got ${value}`);
    }
  }
  return {
    ...resolved,
    writerSettings: {
      busyTimeoutMs: resolved.busyTimeoutMs,
      walAutocheckpointPages: resolved.walAutocheckpointPages,
      walSizeLimitBytes: resolved.walSizeLimitBytes,
    },
  };
}
