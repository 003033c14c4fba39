/**
 * The WAL file stays bounded: under steady writes with concurrent reads, after a reader that held
 * an old snapshot (which keeps checkpoints from finishing) lets go, when passive checkpoints never
 * run, and when reads run all the time next to the writer thread.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { withTempStore } from './temp-store.js';

const LIMIT = 256 * 1024;
const VALUE = new Uint8Array(4096).fill(7);

function walSize(dataDir: string): number {
  try {
    return statSync(join(dataDir, 'state.db-wal')).size;
  } catch {
    return 0;
  }
}

describe('SqliteStorage WAL size', () => {
  for (const writer of ['worker', 'inline'] as const) {
    it(`stays near its limit under writes and reads (${writer} writer)`, () =>
      withTempStore({ writer, walAutocheckpointPages: 16, walSizeLimitBytes: LIMIT }, async (store, dataDir) => {
        let largest = 0;
        for (let round = 0; round < 40; round++) {
          await Promise.all(Array.from({ length: 8 }, (_, i) => store.create(`/wal/${round}/${i}`, VALUE)));
          await store.list('/wal/', { limit: 50 });
          largest = Math.max(largest, walSize(dataDir));
        }
        // 1.3 MB were written; the WAL never held much more than a checkpoint interval and a batch.
        assert.ok(largest <= LIMIT, `the WAL reached ${largest} bytes`);
      }));
  }

  it('is cut back to the limit once a reader that blocked checkpoints lets go', () =>
    withTempStore({ writer: 'worker', walAutocheckpointPages: 16, walSizeLimitBytes: LIMIT }, async (store, dataDir) => {
      await store.create('/wal/first', VALUE);
      const reader = new Database(join(dataDir, 'state.db'), { readonly: true });
      reader.exec('BEGIN');
      reader.prepare('SELECT count(*) FROM kv').get();
      for (let i = 0; i < 100; i++) await store.create(`/wal/held/${i}`, VALUE);
      const grown = walSize(dataDir);
      assert.ok(grown > LIMIT, `the held snapshot made the WAL grow (${grown} bytes)`);

      reader.exec('COMMIT');
      reader.close();
      for (let i = 0; i < 20; i++) await store.create(`/wal/after/${i}`, VALUE);
      assert.ok(walSize(dataDir) <= LIMIT, `the WAL is back to ${walSize(dataDir)} bytes (was ${grown})`);
    }));

  it('is bounded by the size guard even when passive checkpoints never run', () =>
    withTempStore({ writer: 'inline', walAutocheckpointPages: 1_000_000, walSizeLimitBytes: LIMIT }, async (store, dataDir) => {
      let largest = 0;
      for (let i = 0; i < 300; i++) {
        await store.create(`/wal/guarded/${i}`, VALUE);
        largest = Math.max(largest, walSize(dataDir));
      }
      // The guard looks after every commit; one commit adds a few pages to the WAL.
      const slack = 4 * 4096;
      assert.ok(largest <= LIMIT + slack, `the WAL reached ${largest} bytes`);
    }));

  it('stays bounded when reads run all the time next to the writer thread', () =>
    withTempStore({ writer: 'worker', walAutocheckpointPages: 16, walSizeLimitBytes: LIMIT }, async (store, dataDir) => {
      let writing = true;
      let largest = 0;
      // A read loop that keeps a read snapshot open most of the time, which starves SQLite's own
      // WAL restarts: without the guard this WAL grows by megabytes.
      const reads = Array.from({ length: 4 }, async () => {
        while (writing) {
          await store.list('/wal/', { limit: 20 });
          largest = Math.max(largest, walSize(dataDir));
          await new Promise((resolve) => setImmediate(resolve));
        }
      });
      for (let round = 0; round < 50; round++) {
        await Promise.all(Array.from({ length: 64 }, (_, i) => store.create(`/wal/${round}/${i}`, VALUE)));
      }
      writing = false;
      await Promise.all(reads);
      // One commit of 64 values (some three pages each) may land before the guard looks.
      const slack = 64 * 3 * 4096;
      assert.ok(largest <= LIMIT + slack, `the WAL reached ${largest} bytes`);
    }));
});
