/**
 * Deleting superseded history, on the writer connection.
 *
 * After compaction to C, a read at any revision ≥ C must still see every key's latest row at or
 * below C, and nothing older is needed. A row is superseded at C when a later row of the same key
 * exists at or below C, and that later row names it in `prev_revision`; a delete row (tombstone)
 * at or below C is itself no longer needed. So the rows to delete are found from the rows in
 * (done, C] alone, without scanning older history again: each one's prev_revision, and the
 * tombstones themselves. Example: rows 7 (create /a), 9 (update, prev 7), 12 (delete, prev 9);
 * compacting to 10 deletes 7; compacting later to 12 deletes 9 and 12.
 *
 * The work goes in chunks of revisions, one transaction each, recording progress in the same
 * transaction, so a crash or error midway resumes where it stopped.
 */
import type { Database as Connection, Statement } from 'better-sqlite3';
import { META } from './schema.js';

/** Deletes what the rows in (@from, @to] superseded; exported so that tests can check its plan. */
export const DELETE_SUPERSEDED = `
  DELETE FROM kv WHERE revision IN (
    SELECT prev_revision FROM kv WHERE revision > @from AND revision <= @to AND prev_revision > 0
    UNION ALL
    SELECT revision FROM kv WHERE revision > @from AND revision <= @to AND deleted = 1
  )`;

export class HistoryCompaction {
  private readonly raiseTarget: Statement<[number, string]>;
  private readonly readMeta: Statement<[string], number>;
  private readonly deleteSuperseded: Statement<{ from: number; to: number }>;
  private readonly recordDone: Statement<[number, string]>;
  private readonly chunk: (upTo: number) => number;

  constructor(db: Connection) {
    this.raiseTarget = db.prepare('UPDATE meta SET value = max(value, ?) WHERE name = ?');
    this.readMeta = db.prepare<[string], number>('SELECT value FROM meta WHERE name = ?').pluck();
    this.deleteSuperseded = db.prepare(DELETE_SUPERSEDED);
    this.recordDone = db.prepare('UPDATE meta SET value = ? WHERE name = ?');
    this.chunk = db.transaction((upTo: number) => this.deleteUpTo(upTo)).immediate;
  }

  /** Durably raises the compacted revision to `revision` (never lowers it). */
  recordCompactedRevision(revision: number): void {
    this.raiseTarget.run(revision, META.compactedRevision);
  }

  /**
   * Deletes the history superseded by rows up to `upTo` (clamped to the recorded compacted
   * revision) that earlier chunks left, in one durable transaction. Returns the revision up to
   * which compaction is now done.
   */
  deleteChunk(upTo: number): number {
    return this.chunk(upTo);
  }

  private deleteUpTo(upTo: number): number {
    const done = this.readMeta.get(META.compactionDone) ?? 0;
    const to = Math.min(upTo, this.readMeta.get(META.compactedRevision) ?? 0);
    if (to <= done) return done;
    this.deleteSuperseded.run({ from: done, to });
    this.recordDone.run(to, META.compactionDone);
    return to;
  }
}
