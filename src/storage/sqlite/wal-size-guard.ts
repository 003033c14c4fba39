/**
 * Keeps the WAL file bounded. SQLite's autocheckpoint copies the WAL back into the database after
 * commits, and journal_size_limit cuts the file back once a checkpoint lets the WAL restart. But a
 * passive checkpoint cannot finish while a reader still uses old frames, and if that keeps
 * happening the WAL grows without bound (the failure kine users know). This guard looks at the WAL
 * size now and then and, past the limit, runs a TRUNCATE checkpoint, which waits (up to the busy
 * timeout) for readers to move on and then empties the file.
 */
import { statSync } from 'node:fs';
import type { Database as Connection } from 'better-sqlite3';

/** How many commits pass between two looks at the WAL size (a stat call each). */
const COMMITS_BETWEEN_CHECKS = 16;

/**
 * How long the checkpoint waits for readers. It runs on the writer connection and so holds up
 * writes; a reader that stays longer only postpones the truncation to the next check.
 */
const CHECKPOINT_WAIT_MS = 100;

export class WalSizeGuard {
  private commitsSinceCheck = 0;

  /** `busyTimeoutMs` is the connection's usual busy timeout, restored after each checkpoint. */
  constructor(
    private readonly db: Connection,
    private readonly walFile: string,
    private readonly limitBytes: number,
    private readonly busyTimeoutMs: number,
  ) {}

  /** Call after each commit; checkpoints when the WAL has outgrown the limit. Never throws. */
  afterCommit(): void {
    if (++this.commitsSinceCheck < COMMITS_BETWEEN_CHECKS) return;
    this.commitsSinceCheck = 0;
    if (this.walSize() <= this.limitBytes) return;
    try {
      this.db.pragma(`busy_timeout = ${Math.min(CHECKPOINT_WAIT_MS, this.busyTimeoutMs)}`);
      this.db.pragma('wal_checkpoint(TRUNCATE)');
    } catch {
      // A reader held on past the wait: the next check tries again.
    } finally {
      this.db.pragma(`busy_timeout = ${this.busyTimeoutMs}`);
    }
  }

  private walSize(): number {
    try {
      return statSync(this.walFile).size;
    } catch {
      return 0;
    }
  }
}
