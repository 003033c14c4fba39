/**
 * Every query the backend runs walks an index: no full scans of the history table, no sorting
 * into a temporary B-tree. Checked on a table with enough rows for the planner to care.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { createSchema } from '../../../src/storage/sqlite/schema.js';
import { SELECT_LATEST } from '../../../src/storage/sqlite/batch-writer.js';
import { DELETE_SUPERSEDED } from '../../../src/storage/sqlite/history-compaction.js';
import { READ_QUERIES } from '../../../src/storage/sqlite/sqlite-reader.js';

function planOf(db: Database.Database, sql: string, params: unknown): string[] {
  const rows = db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(params as never) as Array<{ detail: string }>;
  return rows.map((r) => r.detail);
}

function databaseWithRows(analyzed: boolean): Database.Database {
  const db = new Database(':memory:');
  createSchema(db);
  const insert = db.prepare('INSERT INTO kv (key, created, deleted, prev_revision, value) VALUES (?, 1, 0, 0, ?)');
  db.transaction(() => {
    for (let i = 0; i < 2000; i++) insert.run(`/registry/pods/ns${i % 20}/p${i}`, Buffer.alloc(10));
  })();
  if (analyzed) db.exec('ANALYZE');
  return db;
}

for (const analyzed of [false, true]) describe(`SQLite query plans (${analyzed ? 'with' : 'without'} ANALYZE statistics)`, () => {
  const db = databaseWithRows(analyzed);

  const range = { start: '/registry/pods/ns1/', end: Buffer.from('/registry/pods/ns10') };
  const cases: ReadonlyArray<{ name: string; sql: string; params: unknown; index: RegExp }> = [
    { name: 'get', sql: READ_QUERIES.get, params: ['/registry/pods/ns1/p1', 100], index: /USING (COVERING )?INDEX kv_key_revision \(key=\? AND revision<\?\)/ },
    { name: 'list', sql: READ_QUERIES.list, params: { ...range, at: 100, limit: 10 }, index: /SEARCH k USING INDEX kv_key_revision \(key>\? AND key<\?\)/ },
    // Counting needs no order: a narrow revision bound may make the rowid the better index.
    { name: 'count', sql: READ_QUERIES.count, params: { ...range, at: 100 }, index: /SEARCH kv USING (COVERING INDEX kv_key_revision \(key>\? AND key<\?\)|INTEGER PRIMARY KEY)/ },
    {
      name: 'history',
      sql: READ_QUERIES.history,
      params: { ...range, after: 1900, upTo: 2000, limit: 100 },
      index: /SEARCH k USING INTEGER PRIMARY KEY \(rowid>\? AND rowid<\?\)/,
    },
    { name: 'the writer\'s latest-row lookup', sql: SELECT_LATEST, params: ['/registry/pods/ns1/p1'], index: /INDEX kv_key_revision \(key=\?\)/ },
    {
      name: 'the compaction delete',
      sql: DELETE_SUPERSEDED,
      params: { from: 100, to: 200 },
      index: /SEARCH kv USING INTEGER PRIMARY KEY \(rowid>\? AND rowid<\?\)/,
    },
  ];
  for (const c of cases) {
    it(`${c.name} uses an index and no full scan or temporary sort`, () => {
      const plan = planOf(db, c.sql, c.params);
      assert.ok(plan.some((step) => c.index.test(step)), plan.join('\n'));
      for (const step of plan) {
        assert.doesNotMatch(step, /^SCAN (kv|k|n|p)( |$)/, plan.join('\n'));
        assert.doesNotMatch(step, /TEMP B-TREE/, plan.join('\n'));
      }
      // Every access to the table itself is a search (a SCAN of a subquery's result is fine).
      assert.ok(plan.filter((step) => /^(SCAN|SEARCH) (kv|k|n|p)( |$)/.test(step)).every((step) => step.startsWith('SEARCH')), plan.join('\n'));
    });
  }
});
