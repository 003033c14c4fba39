/**
 * Reads on the reader connection. Every query names the revision it reads at, and rows above it
 * are ignored, so a read is a consistent snapshot of that revision even while the writer thread
 * commits newer rows. Each query walks an index (checked in the tests with EXPLAIN QUERY PLAN):
 * point reads and prefix ranges use kv_key_revision, history replay the rowid.
 */
import type { Database as Connection, Statement } from 'better-sqlite3';
import { deletedKeyValue, type KeyValue, type WatchEvent } from '../storage.js';
import type { KeyRange } from './key-range.js';

interface KvRow {
  readonly key: string;
  readonly value: Uint8Array;
  readonly created: number;
  readonly revision: number;
}

/**
 * A list row as an array, in the list query's column order: reading a page of rows as arrays
 * saves an object per row, ~15% of a full relist of 100,000 keys in pages of 100.
 */
type KvTuple = readonly [key: string, value: Uint8Array, created: number, revision: number];

interface HistoryRow extends KvRow {
  readonly deleted: number;
  readonly prev_value: Uint8Array | null;
  readonly prev_created: number | null;
  readonly prev_revision: number;
}

interface RangeParams {
  readonly start: string;
  readonly end: Buffer;
  readonly at: number;
}

/** Rows of a range that are live at @at: not deleted, and not replaced by a later row ≤ @at. */
const LIVE_IN_RANGE = `
  FROM kv AS k
  WHERE k.key >= @start AND k.key < CAST(@end AS TEXT) AND k.revision <= @at AND k.deleted = 0
    AND NOT EXISTS (SELECT 1 FROM kv AS n WHERE n.key = k.key AND n.revision > k.revision AND n.revision <= @at)`;

/** The SQL of each read, exported so that tests can check its query plan. */
export const READ_QUERIES = {
  get: 'SELECT key, value, created, revision, deleted FROM kv WHERE key = ? AND revision <= ? ORDER BY revision DESC LIMIT 1',
  list: `SELECT k.key, k.value, k.created, k.revision ${LIVE_IN_RANGE} ORDER BY k.key LIMIT @limit`,
  // One row per key, from the index alone: SQLite takes a bare column (deleted) from the row that
  // holds the max().
  count: `
    SELECT count(*) FROM (
      SELECT max(revision), deleted FROM kv
      WHERE key >= @start AND key < CAST(@end AS TEXT) AND revision <= @at GROUP BY key
    ) WHERE deleted = 0`,
  history: `
    SELECT k.key, k.value, k.created, k.revision, k.deleted,
           p.value AS prev_value, p.created AS prev_created, k.prev_revision
    FROM kv AS k LEFT JOIN kv AS p ON p.revision = k.prev_revision
    WHERE k.revision > @after AND k.revision <= @upTo AND k.key >= @start AND k.key < CAST(@end AS TEXT)
    ORDER BY k.revision LIMIT @limit`,
} as const;

export class SqliteReader {
  private readonly getStatement: Statement<[string, number], KvRow & { readonly deleted: number }>;
  private readonly listStatement: Statement<[RangeParams & { limit: number }], KvTuple>;
  private readonly countStatement: Statement<[RangeParams], number>;
  private readonly historyStatement: Statement<[{ after: number; upTo: number; start: string; end: Buffer; limit: number }], HistoryRow>;

  constructor(db: Connection) {
    this.getStatement = db.prepare(READ_QUERIES.get);
    this.listStatement = db.prepare<[RangeParams & { limit: number }], KvTuple>(READ_QUERIES.list).raw(true);
    this.countStatement = db.prepare<[RangeParams], number>(READ_QUERIES.count).pluck();
    this.historyStatement = db.prepare(READ_QUERIES.history);
  }

  /** The key's value at revision `at`, or undefined when it did not exist then. */
  get(key: string, at: number): KeyValue | undefined {
    const row = this.getStatement.get(key, at);
    return row === undefined || row.deleted === 1 ? undefined : toKeyValue(row);
  }

  /** Up to `limit` live keys of the range at revision `at`, in key order (limit 0: all). */
  list(range: KeyRange, at: number, limit: number): KeyValue[] {
    return this.listStatement
      .all({ ...range, at, limit: limit > 0 ? limit : -1 })
      .map(([key, value, created, revision]) => ({ key, value, createRevision: created, modRevision: revision }));
  }

  /** How many keys of the range are live at revision `at`. */
  count(range: KeyRange, at: number): number {
    return this.countStatement.get({ ...range, at }) ?? 0;
  }

  /**
   * The changes in the range with revisions in (after, upTo], oldest first, at most `limit`, as
   * watch events with their prevKv.
   */
  history(range: KeyRange, after: number, upTo: number, limit: number): WatchEvent[] {
    return this.historyStatement.all({ after, upTo, start: range.start, end: range.end, limit }).map(toWatchEvent);
  }
}

function toKeyValue(row: KvRow): KeyValue {
  return { key: row.key, value: row.value, createRevision: row.created, modRevision: row.revision };
}

function toWatchEvent(row: HistoryRow): WatchEvent {
  const prevKv: KeyValue | undefined =
    row.prev_value === null || row.prev_created === null
      ? undefined
      : { key: row.key, value: row.prev_value, createRevision: row.prev_created, modRevision: row.prev_revision };
  if (row.deleted === 1) {
    return { type: 'delete', kv: deletedKeyValue(row.key, row.revision), prevKv };
  }
  return { type: 'put', kv: toKeyValue(row), prevKv };
}
