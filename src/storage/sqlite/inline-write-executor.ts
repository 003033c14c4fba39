/**
 * Runs the writer on the calling thread: each request blocks the event loop for its transaction,
 * fsync included. Least overhead per batch; see WorkerWriteExecutor for the other trade-off.
 */
import type { WriterSettings } from './connection.js';
import type { WriteExecutor } from './write-executor.js';
import { WriterCore } from './writer-core.js';
import type { WriteOp, WriteOutcome } from './write-ops.js';

export class InlineWriteExecutor implements WriteExecutor {
  private readonly core: WriterCore;

  /** Opens the writer connection; throws StorageError('corrupt' | 'unavailable'). */
  constructor(stateFile: string, settings: WriterSettings) {
    this.core = new WriterCore(stateFile, settings);
  }

  write(ops: readonly WriteOp[]): Promise<WriteOutcome[]> {
    return settle(() => this.core.write(ops));
  }

  recordCompactedRevision(revision: number): Promise<void> {
    return settle(() => this.core.recordCompactedRevision(revision));
  }

  compactChunk(upTo: number): Promise<number> {
    return settle(() => this.core.compactChunk(upTo));
  }

  ping(): Promise<void> {
    return settle(() => this.core.ping());
  }

  close(): Promise<void> {
    return settle(() => this.core.close());
  }
}

function settle<T>(run: () => T): Promise<T> {
  try {
    return Promise.resolve(run());
  } catch (err) {
    return Promise.reject(err);
  }
}
