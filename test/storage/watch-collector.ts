/**
 * Consumes a Watch in the background for a test, keeping what it delivered and how it ended, so
 * the test can wait for a condition with a deadline instead of hanging.
 */
import type { Storage, Watch, WatchBatch, WatchEvent } from '../../src/storage/storage.js';

const WAIT_MS = 20_000;

export class WatchCollector {
  readonly batches: WatchBatch[] = [];
  readonly events: WatchEvent[] = [];
  /** What the iteration threw, once it ended. */
  failure: unknown;
  finished = false;
  private readonly consumed: Promise<void>;
  private wake: () => void = () => {};

  /** `controller`, when given, is the watch's own: stop() aborts it. */
  constructor(
    readonly watch: Watch,
    private readonly controller?: AbortController,
  ) {
    this.consumed = this.consume();
  }

  /** Opens a watch on `store` that this collector owns (stop() ends it). */
  static open(store: Storage, prefix: string, fromRevision: number): WatchCollector {
    const controller = new AbortController();
    return new WatchCollector(store.watch(prefix, fromRevision, { signal: controller.signal }), controller);
  }

  /** Resolves when `predicate` holds; rejects if the watch ends first or the deadline passes. */
  async waitFor(what: string, predicate: () => boolean, timeoutMs = WAIT_MS): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate()) {
      if (this.finished) throw new Error(`watch ended before ${what}: ${String(this.failure)}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${what}; saw ${this.events.length} events`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 500));
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }

  waitForRevision(revision: number): Promise<void> {
    return this.waitFor(`an event at revision ${revision}`, () => this.events.some((e) => e.kv.modRevision >= revision));
  }

  /**
   * Waits for the iteration to end by itself; resolves with what it threw (undefined for a clean
   * end), rejects if it has not ended within `timeoutMs`.
   */
  async ended(timeoutMs = WAIT_MS): Promise<unknown> {
    await this.waitFor('the end of the watch', () => this.finished, timeoutMs);
    return this.failure;
  }

  /** Ends a watch this collector owns and waits for its consumer loop. */
  async stop(): Promise<void> {
    this.controller?.abort();
    await this.consumed;
  }

  /** Waits for the consumer loop to finish (after the watch's signal was aborted). */
  async done(): Promise<void> {
    await this.consumed;
  }

  private async consume(): Promise<void> {
    try {
      for await (const batch of this.watch) {
        this.batches.push(batch);
        this.events.push(...batch.events);
        this.wake();
      }
    } catch (err) {
      this.failure = err;
    } finally {
      this.finished = true;
      this.wake();
    }
  }
}
