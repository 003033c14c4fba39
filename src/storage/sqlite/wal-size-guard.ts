/**
 * Keeps the WAL file bounded. SQLite's autocheckpoint copies the WAL back into the database after
 * commits, and journal_size_limit cuts the file back once a checkpoint lets the WAL restart. But a
 * checkpoint cannot finish while a reader still uses old frames, and the WAL restarts only when no
 * reader uses it at all; with reads going on all the time that moment may never come and the WAL
 * grows without bound (the failure kine users know, and what a benchmark with a read loop next to
 * the worker writer showed here: 160 MB).
 *
 * So this guard runs on the main thread, where every read runs too: while it runs no read can, so
 * its TRUNCATE checkpoint finds no reader in the way. It waits only for the writer thread's
 * transaction in progress, if any. Passive checkpoints have already copied nearly every frame, so
 * the truncation itself is short. It uses a connection of its own, because the readers' connection
 * is query-only.
 */
import { statSync } from 'node:fs';
import type { Database as Connection } from 'better-sqlite3';

/**
 * How long the checkpoint waits for the writer thread's transaction (or another process's reader)
 * while holding up the main thread; past it, the next check tries again.
 */
const CHECKPOINT_WAIT_MS = 100;

export class WalSizeGuard {
  /** `db` is a connection of the guard's own, used for nothing else. */
  constructor(
    private readonly db: Connection,
    private readonly walFile: string,
    private readonly limitBytes: number,
  ) {
    db.pragma(`busy_timeout = ${CHECKPOINT_WAIT_MS}`);
  }

  /**
   * Call after each commit is known (a stat call: microseconds, next to a commit's fsync);
   * checkpoints when the WAL has outgrown the limit. Never throws.
   */
  afterCommit(): void {
    if (this.walSize() <= this.limitBytes) return;
    try {
      // Reports busy rather than throwing when it could not finish; either way the next check retries.
      this.db.pragma('wal_checkpoint(TRUNCATE)');
    } catch {
      // An I/O error here is not the caller's concern; the next check retries.
    }
  }

  /** Closes the guard's connection. */
  close(): void {
    if (this.db.open) this.db.close();
  }

  private walSize(): number {
    try {
      return statSync(this.walFile).size;
    } catch {
      return 0;
    }
  }
}
