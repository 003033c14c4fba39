/**
 * The requests being served right now, so that a graceful stop can end long-running ones (watches)
 * at once and wait for the others to finish. A linked list, not a Set: see linked-list.ts.
 */
import { LinkedList } from '../util/linked-list.js';

export interface InFlightRequest {
  readonly longRunning: boolean;
  /** Ends the request's work (its context signal aborts). */
  abort(reason: unknown): void;
}

export class InFlightRequests {
  private readonly requests = new LinkedList<InFlightRequest>();
  /** Kept as a count, so that a request's end costs no walk over every open watch. */
  private shortRunning = 0;
  private waiters: Array<() => void> = [];

  /** Registers a request; call the returned function (once) when its response is done. */
  add(request: InFlightRequest): () => void {
    const link = this.requests.push(request);
    if (!request.longRunning) this.shortRunning++;
    return () => {
      if (!this.requests.remove(link)) return;
      if (!request.longRunning && --this.shortRunning === 0 && this.waiters.length > 0) this.wakeWaiters();
    };
  }

  get size(): number {
    return this.requests.size;
  }

  /** Aborts every request, or only the long-running ones. */
  abortAll(reason: unknown, onlyLongRunning = false): void {
    for (const request of this.requests.values()) {
      if (!onlyLongRunning || request.longRunning) request.abort(reason);
    }
  }
  /** Resolves when no short-running request is in flight (long-running ones are not waited for). */
  drained(): Promise<void> {
    if (this.shortRunning === 0) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  private wakeWaiters(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}
