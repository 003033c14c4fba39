/**
 * Waits `ms`, or less when the signal aborts; never rejects. The abort listener is removed when
 * the time is up, so that retry loops on one long-lived signal do not pile listeners up on it.
 */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}
