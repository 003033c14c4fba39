/**
 * Drives compaction from the main thread: raises the compacted revision, records it durably, then
 * deletes superseded history in bounded chunks. Each chunk is its own request to the writer, so
 * write batches interleave with a long compaction instead of waiting for all of it.
 *
 * Invariant: `compactedRevision` (in memory) ≥ `recorded` (durable) ≥ `done` (history deleted up
 * to). Reads and watches below `compactedRevision` are refused from the moment compact() is
 * called, before any row is deleted, so no reader can see a half-compacted history.
 *
 * A failed step never ends compaction for good: the error goes to the caller (or the logger, for
 * background work) and a retry is scheduled with a doubling delay, until the work is done.
 */
import type { StorageLogger } from './sqlite-options.js';
import type { WriteExecutor } from './write-executor.js';

/** The longest pause between two retries after errors. */
const MAX_RETRY_MS = 60_000;

export interface CompactionSchedulerOptions {
  readonly executor: Pick<WriteExecutor, 'recordCompactedRevision' | 'compactChunk'>;
  /** The durable state the store opened with. */
  readonly compactedRevision: number;
  readonly compactionDone: number;
  readonly chunkRevisions: number;
  readonly retryMs: number;
  readonly logger: StorageLogger | undefined;
}

export class CompactionScheduler {
  private target: number;
  private recorded: number;
  private done: number;
  private running: Promise<void> | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private retryDelayMs: number;
  private stopped = false;

  constructor(private readonly options: CompactionSchedulerOptions) {
    this.target = options.compactedRevision;
    this.recorded = options.compactedRevision;
    this.done = options.compactionDone;
    this.retryDelayMs = options.retryMs;
  }

  /** The oldest revision that can still be read. */
  get compactedRevision(): number {
    return this.target;
  }

  /**
   * Compacts to `revision` (no-op for parts already compacted). The caller checked that it is not
   * above the current revision. Resolves when the history below it is deleted; rejects with the
   * StorageError of a failed step (a retry is already scheduled then).
   */
  async compact(revision: number): Promise<void> {
    if (this.stopped) return;
    this.target = Math.max(this.target, revision);
    while (this.done < Math.min(revision, this.target) && !this.stopped) {
      await (this.running ??= this.work().finally(() => (this.running = undefined)));
    }
  }

  /** Finishes in the background what an earlier run (before a crash, say) left undone. */
  resume(): void {
    if (this.done < this.target) this.runInBackground();
  }

  /** Cancels retries and waits for the step in progress. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    await this.running?.catch(() => {});
  }

  private async work(): Promise<void> {
    try {
      while (this.done < this.target && !this.stopped) {
        if (this.recorded < this.target) {
          const target = this.target;
          await this.options.executor.recordCompactedRevision(target);
          this.recorded = Math.max(this.recorded, target);
        }
        this.done = await this.options.executor.compactChunk(Math.min(this.recorded, this.done + this.options.chunkRevisions));
      }
      this.retryDelayMs = this.options.retryMs;
    } catch (err) {
      this.scheduleRetry(err);
      throw err;
    }
  }

  private runInBackground(): void {
    if (this.stopped) return;
    this.running ??= this.work().finally(() => (this.running = undefined));
    this.running.catch(() => {
      // scheduleRetry logged it and will try again.
    });
  }

  private scheduleRetry(err: unknown): void {
    if (this.stopped || this.retryTimer !== undefined) return;
    this.options.logger?.error(
      `storage: compaction to revision ${this.target} failed (history deleted up to ${this.done}); retrying in ${this.retryDelayMs} ms`,
      err,
    );
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      this.runInBackground();
    }, this.retryDelayMs);
    this.retryTimer.unref();
    this.retryDelayMs = Math.min(this.retryDelayMs * 2, MAX_RETRY_MS);
  }
}
