/** Timers for tests: time moves only when a test moves it (the cache, the audit log's batches). */
import type { Timers } from '../src/util/sleep.js';

/** Timers that only move when the test says so. */
export class ManualTimers implements Timers {
  private time = 0;
  private nextId = 0;
  private readonly pending = new Map<number, { at: number; run: () => void }>();

  now(): number {
    return this.time;
  }

  setTimeout(run: () => void, ms: number): unknown {
    const id = ++this.nextId;
    this.pending.set(id, { at: this.time + ms, run });
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.pending.delete(handle as number);
  }

  /** Moves the clock and runs every timer that falls due, in order. */
  advance(ms: number): void {
    const until = this.time + ms;
    for (;;) {
      const due = [...this.pending].filter(([, t]) => t.at <= until).sort(([, a], [, b]) => a.at - b.at)[0];
      if (due === undefined) break;
      this.pending.delete(due[0]);
      this.time = due[1].at;
      due[1].run();
    }
    this.time = until;
  }
}
