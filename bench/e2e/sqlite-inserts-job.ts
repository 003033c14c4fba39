/**
 * The create ceiling: what SQLite itself sustains for durable inserts of the same values on this
 * disk, with nothing in front of it. WAL with synchronous=FULL makes every commit durable (an
 * fsync of the WAL), as a store that acknowledges a create must; batches amortize that fsync the
 * way a group-committing server can at its best. One unique index on the key: any store needs to
 * find an object by name.
 */
import Database from 'better-sqlite3';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { now } from './https-client.js';
import type { SqliteInsertJob, SqliteInsertResult } from './jobs.js';

export function runSqliteInserts(job: SqliteInsertJob): SqliteInsertResult {
  mkdirSync(job.directory, { recursive: true });
  const db = new Database(join(job.directory, 'ceiling.db'));
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.exec('CREATE TABLE kv (id INTEGER PRIMARY KEY AUTOINCREMENT, key TEXT NOT NULL UNIQUE, value BLOB NOT NULL)');
    const insert = db.prepare('INSERT INTO kv (key, value) VALUES (?, ?)');
    const value = Buffer.from(job.value);
    let rows = 0;
    const batch = db.transaction((first: number) => {
      for (let i = 0; i < job.batchSize; i++) insert.run(`/registry/configmaps/bench/cm-${first + i}`, value);
    });
    const latencies: number[] = [];
    const started = now();
    const deadline = started + job.durationMs;
    while (now() < deadline) {
      const began = now();
      batch(rows);
      latencies.push(now() - began);
      rows += job.batchSize;
    }
    return { rows, elapsedMs: now() - started, batchLatenciesMs: Float64Array.from(latencies) };
  } finally {
    db.close();
    rmSync(job.directory, { recursive: true, force: true });
  }
}
