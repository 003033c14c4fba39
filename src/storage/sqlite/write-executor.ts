/**
 * Where writes run. Two mechanisms implement it: InlineWriteExecutor on the calling thread, and
 * WorkerWriteExecutor in a worker thread so that a commit's fsync does not block the event loop.
 * Requests are carried out one at a time in the order they were made.
 */
import type { WriteOp, WriteOutcome } from './write-ops.js';

export interface WriteExecutor {
  /**
   * Applies the ops in one durable transaction and resolves with one outcome per op, in order.
   * Rejects with StorageError ('unavailable' or 'corrupt') when the batch failed as a whole.
   */
  write(ops: readonly WriteOp[]): Promise<WriteOutcome[]>;
  /** Durably raises the compacted revision. */
  recordCompactedRevision(revision: number): Promise<void>;
  /** Deletes one chunk of superseded history; resolves with the revision it is done up to. */
  compactChunk(upTo: number): Promise<number>;
  /** Resolves when the writer can answer; rejects with StorageError('unavailable') otherwise. */
  ping(): Promise<void>;
  /** Waits for the request in progress, then releases the connection (and the thread). */
  close(): Promise<void>;
}
