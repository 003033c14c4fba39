import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Cacher } from '../../../src/storage/cacher/cacher.js';
import type { CacheWatchRequest } from '../../../src/storage/cacher/cache-types.js';
import { eventually } from '../../eventually.js';
import { MemoryStorage } from './memory-storage.js';
import { PREFIX, assertRejects, bytes, decodeItem, describe as show, take, testOptions, withCache, type Item } from './harness.js';

function after(revision: number, signal = new AbortController().signal): CacheWatchRequest<Item> {
  return { prefix: PREFIX, start: { kind: 'after', revision }, bookmarks: false, initialEventsEndBookmark: false, signal };
}

describe('Cacher lifecycle', () => {
  it('when the storage watch fails, watchers are closed with compacted and the cache re-lists', () =>
    withCache(async (f) => {
      const r1 = await f.put('a', '1');
      await f.seen(r1);
      const watch = await f.cache.watch(after(r1));
      const calls = f.storage.watchCalls;
      f.storage.breakWatches();
      await assertRejects(take(watch, 1), 'compacted');
      const r2 = await f.put('a', '2');
      await eventually('the cache watches the store again', () => f.storage.watchCalls === calls + 1);
      const got = await f.cache.get(`${PREFIX}a`, { kind: 'consistent' });
      assert.equal(got.entry?.object.value, '2');
      assert.ok(got.revision >= r2);
      assert.equal(got.entry, (await f.cache.get(`${PREFIX}a`, { kind: 'any' })).entry, 'served by the cache again');
      // The window restarted at the re-list: watches start from there on.
      const fresh = await f.cache.watch(after(f.cache.revision));
      const r3 = await f.put('a', '3');
      assert.deepEqual((await take(fresh, 1)).map(show), [`MODIFIED a=3@${r3}`]);
    }));

  it('reads go to the store while the cache re-lists', async () => {
    const storage = new MemoryStorage();
    let failLists = false;
    const list = storage.list.bind(storage);
    storage.list = async (prefix, options) => {
      if (failLists && options?.limit === 777) throw new Error('down');
      return list(prefix, options);
    };
    await withCache(
      async (f) => {
        await f.seen(await f.put('a', '1'));
        failLists = true;
        f.storage.breakWatches();
        await new Promise((r) => setTimeout(r, 20));
        await f.put('a', '2');
        assert.equal((await f.cache.get(`${PREFIX}a`, { kind: 'any' })).entry?.object.value, '2');
        failLists = false;
        await eventually('the cache moved past revision 2', () => f.cache.revision > 2);
      },
      { relistPageSize: 777 },
      undefined,
      storage,
    );
  });

  it('stop ends every watcher and fails later starts', async () => {
    const storage = new MemoryStorage();
    const cache = new Cacher<Item>({ storage, prefix: PREFIX, decoder: decodeItem, options: testOptions });
    await cache.start();
    const watch = await cache.watch(after(cache.revision));
    const pending = watch[Symbol.asyncIterator]().next();
    await cache.stop();
    assert.equal((await pending).done, true);
    await assertRejects(cache.start(), 'unavailable');
    await assertRejects(cache.watch(after(0)), 'unavailable');
  });

  it('a change to a value that cannot be decoded ends the watchers that would see it', () =>
    withCache(async (f) => {
      const now = await f.put('a', '1');
      const covering = await f.cache.watch(after(now));
      const elsewhere = await f.cache.watch({ ...after(now), key: `${PREFIX}b` });
      await f.put('a', 'corrupt');
      const rb = await f.put('b', '1');
      await assertRejects(take(covering, 1), 'corrupt');
      assert.deepEqual((await take(elsewhere, 1)).map(show), [`ADDED b=1@${rb}`]);
    }));

  it('deleting a value that cannot be decoded removes it and ends every watcher with compacted (list again)', () =>
    withCache(async (f) => {
      await f.put('a', 'corrupt');
      const now = await f.put('b', '1');
      await f.seen(now);
      const all = await f.cache.watch(after(now));
      const other = await f.cache.watch({ ...after(now), key: `${PREFIX}b` });
      const gone = await f.remove('a');
      await assertRejects(take(all, 1), 'compacted');
      await assertRejects(take(other, 1), 'compacted');
      assert.equal(f.cache.watcherCount, 0);
      const got = await f.cache.get(`${PREFIX}a`, { kind: 'consistent' });
      assert.equal(got.entry, undefined);
      assert.ok(got.revision >= gone);
      const list = await f.cache.list({ prefix: PREFIX, at: { kind: 'consistent' } });
      assert.deepEqual(list.items.map((e) => e.object.value), ['1']);
      // A watcher started afterwards follows the store as usual.
      const fresh = await f.cache.watch(after(f.cache.revision));
      const r = await f.put('b', '2');
      assert.deepEqual((await take(fresh, 1)).map(show), [`MODIFIED b=2@${r}`]);
    }));

  it('one change reaches 1,000 watchers, each once', () =>
    withCache(async (f) => {
      const now = await f.put('a', '0');
      await f.seen(now);
      const watches = await Promise.all(Array.from({ length: 1000 }, (_, i) =>
        f.cache.watch({ ...after(now), ...(i % 2 === 0 ? {} : { filter: (o: Item) => o.value !== 'hidden' }) }),
      ));
      const reads = watches.map((w) => take(w, 1));
      const r1 = await f.put('a', '1');
      const events = await Promise.all(reads);
      assert.ok(events.every(([e]) => e !== undefined && e.type === 'MODIFIED' && e.revision === r1));
      assert.equal(f.cache.watcherCount, 1000);
    }));

  it('the cache starts on a store that already holds data, and follows it', async () => {
    const storage = new MemoryStorage();
    await storage.create(`${PREFIX}x`, bytes('x'));
    await storage.create('/registry/other/y', bytes('y'));
    await withCache(
      async (f) => {
        const listed = await f.cache.list({ prefix: PREFIX, at: { kind: 'any' } });
        assert.deepEqual(listed.items.map((e) => e.object.value), ['x']);
      },
      {},
      undefined,
      storage,
    );
  });
});
