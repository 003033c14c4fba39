/** The counters a store resumes from when it opens. */
import type { Database as Connection } from 'better-sqlite3';
import { META } from './schema.js';

export interface StoredState {
  /** The highest revision ever written (kept by AUTOINCREMENT even when its row is gone). */
  readonly revision: number;
  /** The compacted revision: the oldest one that can still be read. */
  readonly compactedRevision: number;
  /** Superseded history up to this revision has been deleted. */
  readonly compactionDone: number;
}

/** Reads the counters in one snapshot. */
export function readStoredState(db: Connection): StoredState {
  return db.transaction(() => {
    const revision = db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'kv'").pluck().get() as number | undefined;
    const meta = db.prepare('SELECT value FROM meta WHERE name = ?').pluck();
    return {
      revision: revision ?? 0,
      compactedRevision: (meta.get(META.compactedRevision) as number | undefined) ?? 0,
      compactionDone: (meta.get(META.compactionDone) as number | undefined) ?? 0,
    };
  })();
}
