/**
 * Everything that writes to the state file, behind one connection: write batches and compaction. It runs either on the main thread (InlineWriteExecutor) or inside the writer
 * worker (WorkerWriteExecutor); both call the same methods, so the two modes cannot drift apart.
 */
import type { Database as Connection } from 'better-sqlite3';
import { BatchWriter } from './batch-writer.js';
import { openWriterConnection, type WriterSettings } from './connection.js';
import { HistoryCompaction } from './history-compaction.js';
import { toStorageError } from './sqlite-errors.js';
import type { WriteOp, WriteOutcome } from './write-ops.js';

export class WriterCore {
  private readonly db: Connection;
  private readonly batches: BatchWriter;
  private readonly compaction: HistoryCompaction;

  /** Opens the writer connection; throws StorageError('corrupt' | 'unavailable'). */
  constructor(stateFile: string, settings: WriterSettings) {
    this.db = openWriterConnection(stateFile, settings);
    this.batches = new BatchWriter(this.db);
    this.compaction = new HistoryCompaction(this.db);
  }

  /** Applies a batch durably; throws StorageError when nothing could be applied. */
  write(ops: readonly WriteOp[]): WriteOutcome[] {
    try {
      return this.batches.apply(ops);
    } catch (err) {
      throw toStorageError(err, 'writing a batch');
    }
  }

  /** Durably raises the compacted revision. */
  recordCompactedRevision(revision: number): void {
    try {
      this.compaction.recordCompactedRevision(revision);
    } catch (err) {
      throw toStorageError(err, 'recording the compacted revision');
    }
  }

  /** Deletes one chunk of superseded history; returns the revision compaction is done up to. */
  compactChunk(upTo: number): number {
    try {
      return this.compaction.deleteChunk(upTo);
    } catch (err) {
      throw toStorageError(err, 'deleting compacted history');
    }
  }

  /** Throws StorageError('unavailable') when the connection cannot answer. */
  ping(): void {
    try {
      this.db.prepare('SELECT 1').get();
    } catch (err) {
      throw toStorageError(err, 'health check');
    }
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
