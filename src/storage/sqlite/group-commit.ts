/**
 * Group commit: writes that arrive together share one transaction and one fsync.
 *
 * A write waits in `waiting` until the next flush. A flush runs when the event loop has handled
 * what is ready now (setImmediate), so every write issued in the same turn — by the same request
 * or by many concurrent ones — lands in the same batch. While a batch is being committed, new
 * writes gather for the next one, which starts the moment the previous one is done. So with one
 * writer each write gets its own commit, and with many the cost of a commit is shared: throughput
 * grows with concurrency. Batches are capped so that one commit never grows without bound.
 */

/** How a batch is committed: resolves with one outcome per item, in order. */
export type CommitBatch<Item, Outcome> = (items: readonly Item[]) => Promise<readonly Outcome[]>;

export interface GroupCommitLimits {
  /** Most items in one batch. */
  readonly maxItems: number;
  /** Most payload bytes in one batch (a single bigger item still goes, alone). */
  readonly maxBytes: number;
}

interface Waiting<Item, Outcome> {
  readonly item: Item;
  readonly bytes: number;
  readonly resolve: (outcome: Outcome) => void;
  readonly reject: (err: unknown) => void;
}

export class GroupCommitQueue<Item, Outcome> {
  private waiting: Waiting<Item, Outcome>[] = [];
  private committing = false;
  private flushScheduled = false;
  /** drain() callers, told when nothing is waiting or committing any more. */
  private idleWaiters: Array<() => void> = [];

  constructor(
    private readonly commit: CommitBatch<Item, Outcome>,
    private readonly limits: GroupCommitLimits,
  ) {}

  /**
   * Queues one item for the next batch. Resolves with its outcome once the batch is durable;
   * rejects with the batch's error when the batch failed as a whole.
   */
  submit(item: Item, bytes: number): Promise<Outcome> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ item, bytes, resolve, reject });
      this.scheduleFlush();
    });
  }

  /** Resolves when every item submitted so far has been committed or failed. */
  drain(): Promise<void> {
    if (!this.committing && this.waiting.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private scheduleFlush(): void {
    if (this.committing || this.flushScheduled) return;
    this.flushScheduled = true;
    setImmediate(() => {
      this.flushScheduled = false;
      void this.flush();
    });
  }

  private async flush(): Promise<void> {
    if (this.committing || this.waiting.length === 0) return;
    this.committing = true;
    const batch = this.takeBatch();
    try {
      const outcomes = await this.commit(batch.map((w) => w.item));
      batch.forEach((w, i) => w.resolve(outcomes[i]!));
    } catch (err) {
      for (const w of batch) w.reject(err);
    } finally {
      this.committing = false;
    }
    // Writes that arrived during the commit go now; later ones wait for the next turn.
    if (this.waiting.length > 0) void this.flush();
    else this.notifyIdle();
  }

  private notifyIdle(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }

  private takeBatch(): Waiting<Item, Outcome>[] {
    let count = 0;
    let bytes = 0;
    while (count < this.waiting.length && count < this.limits.maxItems) {
      const next = this.waiting[count]!;
      if (count > 0 && bytes + next.bytes > this.limits.maxBytes) break;
      bytes += next.bytes;
      count++;
    }
    return this.waiting.splice(0, count);
  }
}
