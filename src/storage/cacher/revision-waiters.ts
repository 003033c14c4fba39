/** Reads parked until the cache reaches a revision, each with its own deadline and signal. */
import type { CacheTimers } from './cacher-options.js';

/** Why a wait ended without the revision being reached. */
export type WaitOutcome = 'reached' | 'timeout';

interface Waiter {
  readonly revision: number;
  settle(outcome: WaitOutcome | Error): void;
}

export class RevisionWaiters {
  private readonly waiters = new Set<Waiter>();

  constructor(private readonly timers: CacheTimers) {}

  /**
   * Resolves 'reached' once advance() reports `revision` (or at once if `current` is there), or
   * 'timeout' after `timeoutMs` (undefined: no deadline). Rejects with the signal's reason, or
   * with the error given to rejectAll().
   */
  wait(revision: number, current: number, timeoutMs: number | undefined, signal?: AbortSignal): Promise<WaitOutcome> {
    if (current >= revision) return Promise.resolve('reached');
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise((resolve, reject) => {
      let timer: unknown;
      const onAbort = (): void => waiter.settle(signal!.reason as Error);
      const waiter: Waiter = {
        revision,
        settle: (outcome) => {
          this.waiters.delete(waiter);
          if (timer !== undefined) this.timers.clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          if (outcome instanceof Error) reject(outcome);
          else resolve(outcome);
        },
      };
      this.waiters.add(waiter);
      signal?.addEventListener('abort', onAbort, { once: true });
      if (timeoutMs !== undefined) timer = this.timers.setTimeout(() => waiter.settle('timeout'), timeoutMs);
    });
  }

  /** Releases every wait for a revision at or below `revision`. */
  advance(revision: number): void {
    for (const waiter of this.waiters) {
      if (waiter.revision <= revision) waiter.settle('reached');
    }
  }

  rejectAll(error: Error): void {
    for (const waiter of [...this.waiters]) waiter.settle(error);
  }
}
