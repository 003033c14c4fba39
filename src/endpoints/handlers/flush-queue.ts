/**
 * Runs the flushes of watch streams a batch per turn of the event loop.
 *
 * One change fans out to every watcher of its type: with 1,000 watchers that is 1,000 socket
 * writes, ~15 ms of this thread. Run in one go, they hold back everything else for that long, and
 * a write request arriving meanwhile (whose own event is the next to fan out) waits for the whole
 * fan-out at each of its steps. A batch per turn lets the event loop take in I/O between batches.
 */

/** Flushes per turn: ~1–2 ms of socket writes. */
const FLUSHES_PER_TURN = 100;

export class FlushQueue {
  private pending: ((() => void) | undefined)[] = [];
  private head = 0;
  private scheduled = false;

  constructor(
    private readonly perTurn = FLUSHES_PER_TURN,
    /** Told of a flush that threw; the other flushes run regardless. */
    private readonly onError: (err: unknown) => void = (err) => process.emitWarning(`watch stream flush failed: ${err instanceof Error ? err.stack : String(err)}`),
  ) {}

  /** Runs `flush` in a coming turn, after those added before it. */
  add(flush: () => void): void {
    this.pending.push(flush);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.run);
    }
  }

  private readonly run = (): void => {
    const end = Math.min(this.head + this.perTurn, this.pending.length);
    while (this.head < end) {
      const flush = this.pending[this.head]!;
      this.pending[this.head++] = undefined;
      // One watch stream's failure must neither end the process nor hold up the others.
      try {
        flush();
      } catch (err) {
        this.onError(err);
      }
    }
    if (this.head < this.pending.length) {
      // An immediate added while immediates run waits for the next turn, after I/O.
      setImmediate(this.run);
      return;
    }
    this.pending = [];
    this.head = 0;
    this.scheduled = false;
  };
}

/** The process's queue, shared by every watch stream. */
export const watchFlushes = new FlushQueue();
