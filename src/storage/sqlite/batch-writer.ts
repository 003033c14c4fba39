/**
 * Applies a batch of writes in one transaction: the heart of group commit. Each write checks its
 * own precondition against the state left by the writes before it in the batch, so a failed
 * precondition skips that write alone; only an SQLite failure undoes the whole batch.
 */
import type { Database as Connection, Statement } from 'better-sqlite3';
import { NO_VALUE } from '../storage.js';
import { readStoredState } from './stored-state.js';
import type { PriorValue, WriteOp, WriteOutcome } from './write-ops.js';

interface LatestRow {
  readonly revision: number;
  readonly created: number;
  readonly deleted: number;
  readonly value: Uint8Array;
}

/** The latest row of a key (live or a tombstone); exported so that tests can check its plan. */
export const SELECT_LATEST = 'SELECT revision, created, deleted, value FROM kv WHERE key = ? ORDER BY revision DESC LIMIT 1';

/** Owns the writer connection's write statements. Single-threaded: one batch at a time. */
export class BatchWriter {
  /** The highest revision assigned so far; the next write gets this plus one. */
  private lastRevision: number;
  private readonly selectLatest: Statement<[string], LatestRow>;
  private readonly insertRow: Statement<[number, string, number, number, number, Uint8Array]>;
  private readonly applyInTransaction: (ops: readonly WriteOp[]) => WriteOutcome[];

  constructor(db: Connection) {
    this.lastRevision = readStoredState(db).revision;
    this.selectLatest = db.prepare<[string], LatestRow>(SELECT_LATEST);
    this.insertRow = db.prepare('INSERT INTO kv (revision, key, created, deleted, prev_revision, value) VALUES (?, ?, ?, ?, ?, ?)');
    const transaction = db.transaction((ops: readonly WriteOp[]) => ops.map((op) => this.applyOne(op)));
    // IMMEDIATE takes the write lock up front instead of upgrading a read transaction midway.
    this.applyInTransaction = (ops) => transaction.immediate(ops);
  }

  /**
   * Applies `ops` in order in one durable transaction (committed and fsynced on return) and
   * returns one outcome per op. Throws the SQLite error when the transaction failed; then no op
   * was applied.
   */
  apply(ops: readonly WriteOp[]): WriteOutcome[] {
    const before = this.lastRevision;
    try {
      return this.applyInTransaction(ops);
    } catch (err) {
      this.lastRevision = before;
      throw err;
    }
  }

  private applyOne(op: WriteOp): WriteOutcome {
    const latest = this.selectLatest.get(op.key);
    const live = latest !== undefined && latest.deleted === 0 ? latest : undefined;
    const actualModRevision = live?.revision ?? 0;
    switch (op.kind) {
      case 'create':
        if (live !== undefined) return { ok: false, reason: 'key-exists', actualModRevision };
        return this.insert(op.key, op.value, undefined, false);
      case 'update':
        if (live === undefined) return { ok: false, reason: 'not-found', actualModRevision };
        if (live.revision !== op.expectedModRevision) return { ok: false, reason: 'conflict', actualModRevision };
        return this.insert(op.key, op.value, live, false);
      case 'delete':
        if (live === undefined) return { ok: false, reason: 'not-found', actualModRevision };
        if (op.expectedModRevision !== undefined && live.revision !== op.expectedModRevision) {
          return { ok: false, reason: 'conflict', actualModRevision };
        }
        return this.insert(op.key, NO_VALUE, live, true);
    }
  }

  private insert(key: string, value: Uint8Array, live: LatestRow | undefined, deleted: boolean): WriteOutcome {
    const revision = this.lastRevision + 1;
    const createRevision = live?.created ?? revision;
    this.insertRow.run(revision, key, createRevision, deleted ? 1 : 0, live?.revision ?? 0, value);
    this.lastRevision = revision;
    const prior: PriorValue | undefined =
      live === undefined ? undefined : { value: live.value, createRevision: live.created, modRevision: live.revision };
    return { ok: true, revision, createRevision, prior };
  }
}
