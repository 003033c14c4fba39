/** Timer functions, injectable so that tests can move time by hand (`sleep` waits with them). */
export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** Node's own timers. */
export const nodeTimers: Timers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/**
 * Waits `ms`, or less when the signal aborts; never rejects. The abort listener is removed when
 * the time is up, so that retry loops on one long-lived signal do not pile listeners up on it.
 */
export function sleep(ms: number, signal: AbortSignal, timers: Timers = nodeTimers): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = timers.setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done(): void {
      timers.clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}
