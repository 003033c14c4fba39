/**
 * Calls each registered callback once its deadline has passed, with one timer for all of them.
 *
 * Every request that is not long-running has a deadline (--request-timeout), and almost all finish
 * long before it. A timer and a race of promises per request cost more than the rest of a small
 * request's setup; here a request's deadline is a link in a list, and the one timer is set for the
 * earliest deadline it knows of. When it fires it walks the list (the requests in flight), calls
 * what has expired and sets itself for the earliest deadline left. Deadlines that end early are
 * simply unlinked; the timer may then fire for nothing, and sets itself again.
 */
import { LinkedList, type ListLink } from '../util/linked-list.js';
import { LONGEST_TIMER_MS } from '../util/long-timeout.js';

interface Deadline {
  readonly at: number;
  readonly expire: () => void;
}

export type DeadlineHandle = ListLink<Deadline>;

export class Deadlines {
  private readonly pending = new LinkedList<Deadline>();
  private timer: NodeJS.Timeout | undefined;
  /** When the timer fires (ms since epoch); Infinity when it is not set. */
  private firesAt = Infinity;

  constructor(private readonly now: () => number = Date.now) {}

  /** Calls `expire` at `at` (ms since epoch) or soon after, unless {@link cancel}led first. */
  add(at: number, expire: () => void): DeadlineHandle {
    const handle = this.pending.push({ at, expire });
    if (at < this.firesAt) this.arm(at);
    return handle;
  }

  /** Forgets `handle`'s deadline (the timer stays set: firing for nothing is cheaper than resetting it per request). */
  cancel(handle: DeadlineHandle): void {
    this.pending.remove(handle);
  }

  private arm(at: number): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.firesAt = at;
    // Unreferenced: a pending deadline never keeps the process alive by itself.
    // Node fires a longer delay than its timers hold after 1 ms instead; firing early is harmless.
    const delay = Math.min(Math.max(0, at - this.now()), LONGEST_TIMER_MS);
    this.timer = setTimeout(() => this.fire(), delay).unref();
  }

  private fire(): void {
    this.timer = undefined;
    this.firesAt = Infinity;
    const now = this.now();
    let earliest = Infinity;
    const expired: Array<() => void> = [];
    // Unlinked before any callback runs: a callback may add or cancel deadlines.
    for (const handle of this.pending.links()) {
      const deadline = handle.value!;
      if (deadline.at <= now) {
        this.pending.remove(handle);
        expired.push(deadline.expire);
      } else if (deadline.at < earliest) {
        earliest = deadline.at;
      }
    }
    if (earliest < this.firesAt) this.arm(earliest);
    for (const expire of expired) expire();
  }
}
