/**
 * Compaction in the SQLite backend: what it deletes, that reads at or above the compacted revision
 * are unchanged by it, that it resumes after a restart, and that it retries after an error.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { unavailable } from '../../../src/storage/errors.js';
import type { Storage, WatchEvent } from '../../../src/storage/storage.js';
import { CompactionScheduler } from '../../../src/storage/sqlite/compaction-scheduler.js';
import { SqliteStorage } from '../../../src/storage/sqlite/sqlite-storage.js';
import { bytes, withTempStore } from './temp-store.js';

function rowCount(dataDir: string): number {
  const db = new Database(join(dataDir, 'state.db'), { readonly: true });
  try {
    return db.prepare('SELECT count(*) FROM kv').pluck().get() as number;
  } finally {
    db.close();
  }
}

/** A deterministic mix of creates, updates and deletes over a few keys. */
async function churn(store: Storage, writes: number): Promise<void> {
  const live = new Map<string, number>();
  for (let i = 0; i < writes; i++) {
    const key = `/c/k${(i * 7) % 13}`;
    const modRevision = live.get(key);
    if (modRevision === undefined) live.set(key, (await store.create(key, bytes(`${key}@${i}`))).revision);
    else if (i % 5 === 0) {
      await store.delete(key, modRevision);
      live.delete(key);
    } else live.set(key, (await store.update(key, bytes(`${key}@${i}`), modRevision)).revision);
  }
}

async function snapshot(store: Storage, revisions: number[]): Promise<string[]> {
  return Promise.all(revisions.map(async (r) => JSON.stringify((await store.list('/c/', { revision: r })).kvs.map((kv) => [kv.key, Buffer.from(kv.value).toString(), kv.createRevision, kv.modRevision]))));
}

async function replay(store: Storage, from: number, until: number): Promise<string[]> {
  const events: WatchEvent[] = [];
  const controller = new AbortController();
  for await (const batch of store.watch('/c/', from, { signal: controller.signal })) {
    events.push(...batch.events);
    if (batch.revision >= until) controller.abort();
  }
  return events.map((e) => `${e.type} ${e.kv.key}@${e.kv.modRevision} prev ${e.prevKv ? Buffer.from(e.prevKv.value).toString() : '-'}`);
}

describe('SqliteStorage compaction', () => {
  it('deletes only superseded history, in chunks, leaving every read at or above it unchanged', () =>
    withTempStore({ writer: 'worker', compactionChunkRevisions: 7 }, async (store, dataDir) => {
      await churn(store, 200);
      const target = 120;
      const current = await store.currentRevision();
      const readable = [target, 121, 150, 199, current];
      const listsBefore = await snapshot(store, readable);
      const eventsBefore = await replay(store, target, current);
      const rowsBefore = rowCount(dataDir);

      await store.compact(target);

      assert.equal(await store.compactedRevision(), target);
      assert.deepEqual(await snapshot(store, readable), listsBefore);
      assert.deepEqual(await replay(store, target, current), eventsBefore);
      const rowsAfter = rowCount(dataDir);
      const liveAtTarget = (await store.list('/c/', { revision: target })).kvs.length;
      assert.equal(rowsAfter, liveAtTarget + (current - target), 'what remains: the keys live at the target, and every later row');
      assert.ok(rowsAfter < rowsBefore);
    }));

  it('compacting to a revision already compacted is a no-op', () =>
    withTempStore({ writer: 'inline' }, async (store) => {
      await churn(store, 30);
      await store.compact(20);
      await store.compact(10);
      assert.equal(await store.compactedRevision(), 20);
    }));

  it('finishes after a restart what a crash interrupted', async () => {
    let dataDir = '';
    let target = 0;
    await withTempStore({ writer: 'inline' }, async (store, dir) => {
      dataDir = dir;
      await churn(store, 100);
      target = 90;
      const expected = await snapshot(store, [target]);
      await store.close();
      // As if the process died right after recording the compacted revision.
      const db = new Database(join(dir, 'state.db'));
      db.prepare("UPDATE meta SET value = ? WHERE name = 'compacted_revision'").run(target);
      db.close();
      const rowsBefore = rowCount(dir);

      const reopened = await SqliteStorage.open({ dataDir: dir, writer: 'inline' });
      try {
        assert.equal(await reopened.compactedRevision(), target);
        await reopened.compact(target); // waits for the resumed work
        assert.ok(rowCount(dir) < rowsBefore);
        assert.deepEqual(await snapshot(reopened, [target]), expected);
      } finally {
        await reopened.close();
      }
    });
    assert.ok(dataDir !== '' && target > 0);
  });
});

describe('CompactionScheduler', () => {
  it('retries after an error until the work is done, and logs the error', async () => {
    const errors: string[] = [];
    let failuresLeft = 2;
    const chunks: number[] = [];
    const scheduler = new CompactionScheduler({
      executor: {
        recordCompactedRevision: async () => {},
        compactChunk: async (upTo) => {
          if (failuresLeft-- > 0) throw unavailable('disk busy');
          chunks.push(upTo);
          return upTo;
        },
      },
      compactedRevision: 0,
      compactionDone: 0,
      chunkRevisions: 40,
      retryMs: 5,
      logger: { error: (message) => errors.push(message) },
    });
    await assert.rejects(scheduler.compact(100), /disk busy/);
    assert.equal(scheduler.compactedRevision, 100, 'reads below the target are refused from the start');
    const deadline = Date.now() + 5000;
    while (chunks[chunks.length - 1] !== 100 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    assert.deepEqual(chunks, [40, 80, 100]);
    assert.equal(errors.length, 2);
    assert.match(errors[0]!, /compaction to revision 100 failed/);
    await scheduler.stop();
  });

  it('records the compacted revision again when recording it failed', async () => {
    const recorded: number[] = [];
    let failRecord = true;
    const scheduler = new CompactionScheduler({
      executor: {
        recordCompactedRevision: async (revision) => {
          if (failRecord) {
            failRecord = false;
            throw unavailable('disk full');
          }
          recorded.push(revision);
        },
        compactChunk: async (upTo) => upTo,
      },
      compactedRevision: 0,
      compactionDone: 0,
      chunkRevisions: 1000,
      retryMs: 60_000,
      logger: undefined,
    });
    await assert.rejects(scheduler.compact(50), /disk full/);
    await scheduler.compact(50);
    assert.deepEqual(recorded, [50]);
    await scheduler.stop();
  });
});
