/** Watch behaviour specific to the SQLite backend: replay paging, bounds, ends. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isStorageError } from '../../../src/storage/errors.js';
import type { Storage, WatchBatch } from '../../../src/storage/storage.js';
import { bytes, withTempStore } from './temp-store.js';

async function writeMany(store: Storage, prefix: string, count: number): Promise<number> {
  let revision = 0;
  for (let i = 0; i < count; i++) revision = (await store.create(`${prefix}${i}`, bytes(String(i)))).revision;
  return revision;
}

describe('SqliteStorage watch', () => {
  it('replays history in pages, each batch telling how far it got', () =>
    withTempStore({ writer: 'inline', replayPageSize: 2 }, async (store) => {
      const first = (await store.create('/w/start', bytes('x'))).revision;
      const last = await writeMany(store, '/w/k', 5);
      const watch = store.watch('/w/', first)[Symbol.asyncIterator]();
      const batches: WatchBatch[] = [];
      for (let i = 0; i < 3; i++) batches.push((await watch.next()).value as WatchBatch);
      assert.deepEqual(batches.map((b) => b.events.length), [2, 2, 1]);
      assert.deepEqual(batches.map((b) => b.revision), [first + 2, first + 4, last]);
      await watch.return?.();
    }));

  it('ends a watcher that does not consume with watcher-too-slow', () =>
    withTempStore({ writer: 'inline', maxQueuedWatchEvents: 10 }, async (store) => {
      const watch = store.watch('/w/', 0)[Symbol.asyncIterator]();
      await writeMany(store, '/w/k', 20);
      await assert.rejects(watch.next(), (err) => isStorageError(err, 'watcher-too-slow'));
      assert.equal((await watch.next()).done, true, 'then the iteration is over');
    }));

  it('fails with compacted when compaction overtakes a replay', () =>
    withTempStore({ writer: 'inline', replayPageSize: 2 }, async (store) => {
      const first = (await store.create('/w/start', bytes('x'))).revision;
      await writeMany(store, '/w/k', 6);
      const watch = store.watch('/w/', first)[Symbol.asyncIterator]();
      await watch.next();
      await store.compact(await store.currentRevision());
      await assert.rejects(watch.next(), (err) => isStorageError(err, 'compacted'));
    }));

  it('requestProgress during a replay is answered once the replay reaches that revision', () =>
    withTempStore({ writer: 'inline', replayPageSize: 2 }, async (store) => {
      const first = (await store.create('/w/start', bytes('x'))).revision;
      await writeMany(store, '/w/k', 5);
      const current = (await store.create('/elsewhere', bytes('x'))).revision;
      const watch = store.watch('/w/', first);
      watch.requestProgress();
      const revisions: number[] = [];
      for await (const batch of watch) {
        revisions.push(batch.revision);
        if (batch.revision >= current) break;
      }
      assert.equal(revisions[revisions.length - 1], current);
    }));

  it('from a future revision delivers only the changes after it', () =>
    withTempStore({ writer: 'inline' }, async (store) => {
      const current = await store.currentRevision();
      const watch = store.watch('/w/', current + 3)[Symbol.asyncIterator]();
      await writeMany(store, '/w/k', 5);
      const batch = (await watch.next()).value as WatchBatch;
      assert.deepEqual(batch.events.map((e) => e.kv.modRevision), [current + 4, current + 5]);
      await watch.return?.();
    }));

  it('close ends waiting, replaying and new watches', async () => {
    let store: Storage | undefined;
    await withTempStore({ writer: 'worker', replayPageSize: 1 }, async (s) => {
      store = s;
      const first = (await s.create('/w/start', bytes('x'))).revision;
      await writeMany(s, '/w/k', 3);
      const waiting = s.watch('/w/', 0)[Symbol.asyncIterator]();
      const pending = waiting.next();
      const replaying = s.watch('/w/', first)[Symbol.asyncIterator]();
      await replaying.next();
      await s.close();
      assert.equal((await pending).done, true);
      assert.equal((await replaying.next()).done, true);
    });
    const afterClose = store!.watch('/w/', 0)[Symbol.asyncIterator]();
    await assert.rejects(afterClose.next(), (err) => isStorageError(err, 'unavailable'));
  });

  it('aborting the signal finishes a pending next()', () =>
    withTempStore({ writer: 'inline' }, async (store) => {
      const controller = new AbortController();
      const watch = store.watch('/w/', 0, { signal: controller.signal })[Symbol.asyncIterator]();
      const pending = watch.next();
      controller.abort();
      assert.equal((await pending).done, true);
      await store.create('/w/after', bytes('x'));
      assert.equal((await watch.next()).done, true);
    }));

  it('refuses a negative fromRevision', () =>
    withTempStore({ writer: 'inline' }, async (store) => {
      await assert.rejects(store.watch('/w/', -1)[Symbol.asyncIterator]().next(), (err) => isStorageError(err, 'invalid'));
    }));
});
