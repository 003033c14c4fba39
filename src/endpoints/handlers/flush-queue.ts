/**
 * Runs the flushes of watch streams a batch per turn of the event loop.
 *
 * One change fans out to every watcher of its type: with 1,000 watchers that is 1,000 socket
 * writes, ~15 ms of this thread. Run in one go, they hold back everything else for that long, and
 * a write request arriving meanwhile (whose own event is the next to fan out) waits for the whole
 * fan-out at each of its steps. A batch per turn lets the event loop take in I/O between batches.
 */

import { Fifo } from '../../util/fifo.js';

/** Flushes per turn: ~1–2 ms of socket writes. */
const FLUSHES_PER_TURN = 100;

export class FlushQueue {
  private readonly pending = new Fifo<() => void>();
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
    // Flushes added while these run (a flush that resumes its watch) wait for a later turn.
    for (let n = Math.min(this.perTurn, this.pending.length); n > 0; n--) {
      const flush = this.pending.shift()!;
      // One watch stream's failure must neither end the process nor hold up the others.
      try {
        flush();
      } catch (err) {
        this.onError(err);
      }
    }
    if (this.pending.length > 0) {
      // An immediate added while immediates run waits for the next turn, after I/O.
      setImmediate(this.run);
      return;
    }
    this.scheduled = false;
  };
}
