/**
 * The requests being served right now, so that a graceful stop can end long-running ones (watches)
 * at once and wait for the others to finish.
 *
 * A linked list rather than a Set, for the garbage collector: a Set that grows and shrinks with
 * every request swaps its table now and then, and each table it drops still holds its requests
 * and a link to the next. Once a dropped table is in the old generation, the young collections
 * count everything it reaches as alive, and so kept every request until a full collection. An
 * unlinked node here holds nothing.
 */
export interface InFlightRequest {
  readonly longRunning: boolean;
  /** Ends the request's work (its context signal aborts). */
  abort(reason: unknown): void;
}

interface Link {
  request: InFlightRequest | undefined;
  previous: Link | undefined;
  next: Link | undefined;
}

export class InFlightRequests {
  /** The list's ends: `first.next` is the oldest request, `last.previous` the newest. */
  private readonly first: Link = { request: undefined, previous: undefined, next: undefined };
  private readonly last: Link = { request: undefined, previous: this.first, next: undefined };
  private count = 0;
  /** Kept as a count, so that a request's end costs no walk over every open watch. */
  private shortRunning = 0;
  private waiters: Array<() => void> = [];

  constructor() {
    this.first.next = this.last;
  }

  /** Registers a request; call the returned function (once) when its response is done. */
  add(request: InFlightRequest): () => void {
    const previous = this.last.previous!;
    const link: Link = { request, previous, next: this.last };
    previous.next = link;
    this.last.previous = link;
    this.count++;
    if (!request.longRunning) this.shortRunning++;
    return () => {
      if (link.request === undefined) return;
      link.previous!.next = link.next;
      link.next!.previous = link.previous;
      link.request = link.previous = link.next = undefined;
      this.count--;
      if (!request.longRunning && --this.shortRunning === 0 && this.waiters.length > 0) this.wakeWaiters();
    };
  }

  get size(): number {
    return this.count;
  }

  /** Aborts every request, or only the long-running ones. */
  abortAll(reason: unknown, onlyLongRunning = false): void {
    // Collected first: an abort may end its request, which unlinks it while we walk.
    const requests: InFlightRequest[] = [];
    for (let link = this.first.next!; link !== this.last; link = link.next!) requests.push(link.request!);
    for (const request of requests) {
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
