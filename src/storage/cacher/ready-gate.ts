/** Whether the cache holds a usable state, and the callers waiting until it does. */
interface Waiting {
  resolve(): void;
  reject(error: unknown): void;
}

export class ReadyGate {
  private open = false;
  private closedFor: Error | undefined;
  private readonly waiting = new Set<Waiting>();

  get isOpen(): boolean {
    return this.open;
  }

  /** The state is usable: release every waiter. */
  openGate(): void {
    this.open = true;
    for (const w of this.waiting) w.resolve();
    this.waiting.clear();
  }

  /** The state is stale (re-listing): new waiters wait. */
  closeGate(): void {
    this.open = false;
  }

  /** For good: every waiter, present and future, is rejected with `error`. */
  shut(error: Error): void {
    this.open = false;
    this.closedFor = error;
    for (const w of this.waiting) w.reject(error);
    this.waiting.clear();
  }

  /** Resolves when the gate is open; rejects when shut or when `signal` aborts. */
  wait(signal?: AbortSignal): Promise<void> {
    if (this.closedFor !== undefined) return Promise.reject(this.closedFor);
    if (this.open) return Promise.resolve();
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise((resolve, reject) => {
      const onAbort = (): void => {
        this.waiting.delete(waiter);
        reject(signal!.reason);
      };
      const waiter: Waiting = {
        resolve: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
        reject: (error) => {
          signal?.removeEventListener('abort', onAbort);
          reject(error);
        },
      };
      this.waiting.add(waiter);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }
}
