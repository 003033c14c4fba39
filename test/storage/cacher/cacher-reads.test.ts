import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ReadRevision } from '../../../src/storage/cacher/cache-types.js';
import { ManualTimers, PREFIX, assertRejects, bytes, withCache } from './harness.js';

describe('Cacher getNow', () => {
  it('answers at once what get answers, when the cache is as new as the read asks', () =>
    withCache(async (f) => {
      await f.put('a', 'one');
      const r2 = await f.put('a', 'two');
      await f.seen(r2);
      for (const at of [{ kind: 'any' }, { kind: 'consistent' }, { kind: 'not-older-than', revision: r2 }] as ReadRevision[]) {
        const now = f.cache.getNow(`${PREFIX}a`, at);
        const later = await f.cache.get(`${PREFIX}a`, at);
        assert.equal(now?.entry, later.entry, at.kind);
        assert.equal(now?.revision, later.revision, at.kind);
      }
      assert.equal(f.cache.getNow(`${PREFIX}missing`, { kind: 'consistent' })?.entry, undefined);
      assert.equal(f.cache.getNow(`${PREFIX}missing`, { kind: 'consistent' })?.revision, r2);
    }));

  it('leaves to get what needs waiting: a lagging cache, a future revision, an exact revision', () =>
    withCache(async (f) => {
      await f.seen(await f.put('a', 'old'));
      f.storage.pause();
      const written = await f.put('a', 'new');
      assert.equal(f.cache.getNow(`${PREFIX}a`, { kind: 'consistent' }), undefined);
      assert.equal(f.cache.getNow(`${PREFIX}a`, { kind: 'not-older-than', revision: written }), undefined);
      assert.equal(f.cache.getNow(`${PREFIX}a`, { kind: 'any' })?.entry?.object.value, 'old');
      assert.equal(f.cache.getNow(`${PREFIX}a`, { kind: 'exact', revision: written - 1 }), undefined);
      f.storage.resume();
    }));

  it('throws invalid for a key outside the cache, as get rejects', () =>
    withCache(async (f) => {
      await f.seen(await f.put('a', 'x'));
      assert.throws(() => f.cache.getNow('/elsewhere/a', { kind: 'any' }), { code: 'invalid' });
      await assertRejects(f.cache.get('/elsewhere/a', { kind: 'any' }), 'invalid');
    }));
});

describe('Cacher get', () => {
  it('answers every kind of read revision', () =>
    withCache(async (f) => {
      const r1 = await f.put('a', 'one');
      const r2 = await f.put('a', 'two');
      const gone = await f.remove('a');
      const r4 = await f.put('b', 'b');
      await f.seen(r4);
      const cases: { name: string; at: ReadRevision; key: string; value: string | undefined; revision: number }[] = [
        { name: 'any', at: { kind: 'any' }, key: 'b', value: 'b', revision: r4 },
        { name: 'consistent', at: { kind: 'consistent' }, key: 'b', value: 'b', revision: r4 },
        { name: 'not-older-than a past revision', at: { kind: 'not-older-than', revision: r1 }, key: 'b', value: 'b', revision: r4 },
        { name: 'exact, first version', at: { kind: 'exact', revision: r1 }, key: 'a', value: 'one', revision: r1 },
        { name: 'exact, second version', at: { kind: 'exact', revision: r2 }, key: 'a', value: 'two', revision: r2 },
        { name: 'exact, at the delete', at: { kind: 'exact', revision: gone }, key: 'a', value: undefined, revision: gone },
        { name: 'exact, before the create', at: { kind: 'exact', revision: r4 - 1 }, key: 'b', value: undefined, revision: r4 - 1 },
      ];
      for (const c of cases) {
        const got = await f.cache.get(PREFIX + c.key, c.at);
        assert.equal(got.entry?.object.value, c.value, c.name);
        assert.equal(got.revision, c.revision, c.name);
      }
    }));

  it("'any' answers at once from what the cache holds, even when it lags", () =>
    withCache(async (f) => {
      await f.seen(await f.put('a', 'old'));
      f.storage.pause();
      await f.put('a', 'new');
      assert.equal((await f.cache.get(`${PREFIX}a`, { kind: 'any' })).entry?.object.value, 'old');
      f.storage.resume();
    }));

  it("'consistent' waits for the cache to catch up, then answers from memory", () =>
    withCache(async (f) => {
      f.storage.pause();
      const written = await f.put('a', 'new');
      const read = f.cache.get(`${PREFIX}a`, { kind: 'consistent' });
      setTimeout(() => f.storage.resume(), 20);
      const got = await read;
      assert.equal(got.entry?.object.value, 'new');
      assert.ok(got.revision >= written);
      const cached = await f.cache.get(`${PREFIX}a`, { kind: 'any' });
      assert.equal(got.entry, cached.entry, 'the entry is the cached one, not a fresh decode');
    }));

  it("'consistent' catches up on an idle prefix through a progress request", () =>
    withCache(async (f) => {
      await f.seen(await f.put('a', 'x'));
      // Writes elsewhere move the store's revision; the cache's watch sees none of them.
      await f.storage.create('/registry/other/x', bytes('x'));
      const current = await f.storage.create('/registry/other/y', bytes('y'));
      const got = await f.cache.get(`${PREFIX}a`, { kind: 'consistent' });
      assert.ok(got.revision >= current.revision);
      assert.equal(f.cache.revision, got.revision);
    }));

  it("'consistent' reads the store when the cache does not catch up in time", () =>
    withCache(
      async (f) => {
        f.storage.pause();
        await f.put('a', 'new');
        const got = await f.cache.get(`${PREFIX}a`, { kind: 'consistent' });
        assert.equal(got.entry?.object.value, 'new');
        f.storage.resume();
      },
      { consistentReadWaitMs: 20 },
    ));

  it("'not-older-than' waits briefly for a revision the cache has not reached", () =>
    withCache(async (f) => {
      f.storage.pause();
      const written = await f.put('a', 'new');
      const read = f.cache.get(`${PREFIX}a`, { kind: 'not-older-than', revision: written });
      setTimeout(() => f.storage.resume(), 20);
      assert.equal((await read).entry?.object.value, 'new');
    }));

  it("'not-older-than' and 'exact' beyond the store fail with future-revision", () =>
    withCache(async (f) => {
      const current = await f.put('a', 'x');
      await f.seen(current);
      for (const kind of ['not-older-than', 'exact'] as const) {
        const err = await assertRejects(f.cache.get(`${PREFIX}a`, { kind, revision: current + 100 }), 'future-revision');
        assert.equal(err.requestedRevision, current + 100);
        assert.equal(err.revision, current, "the error names the cache's revision");
      }
    }));

  it("'exact' outside the window reads the store, and fails with compacted once the store compacted", () =>
    withCache(
      async (f) => {
        const first = await f.put('a', 'v0');
        let last = first;
        for (let i = 1; i <= 10; i++) last = await f.put('a', `v${i}`);
        await f.seen(last);
        const got = await f.cache.get(`${PREFIX}a`, { kind: 'exact', revision: first });
        assert.equal(got.entry?.object.value, 'v0');
        assert.equal(got.revision, first);
        await f.storage.compact(last - 1);
        f.cache.forgetBefore(last - 1);
        const err = await assertRejects(f.cache.get(`${PREFIX}a`, { kind: 'exact', revision: first }), 'compacted');
        assert.equal(err.requestedRevision, first);
      },
      { maxWindowEvents: 3 },
    ));

  it('a corrupt value fails the reads of it, not of the other keys', () =>
    withCache(async (f) => {
      await f.put('bad', 'corrupt');
      await f.seen(await f.put('good', 'fine'));
      await assertRejects(f.cache.get(`${PREFIX}bad`, { kind: 'any' }), 'corrupt');
      assert.equal((await f.cache.get(`${PREFIX}good`, { kind: 'any' })).entry?.object.value, 'fine');
      const err = await assertRejects(f.cache.list({ prefix: PREFIX, at: { kind: 'any' } }), 'corrupt');
      assert.match(err.message, /bad/);
    }));

  it('a key outside the prefix is invalid', () =>
    withCache(async (f) => {
      await assertRejects(f.cache.get('/registry/other/a', { kind: 'any' }), 'invalid');
      await assertRejects(f.cache.list({ prefix: '/registry/', at: { kind: 'any' } }), 'invalid');
    }));
});

describe('Cacher list', () => {
  const names = Array.from({ length: 10 }, (_, i) => `ns${i % 2}/k${i}`);
  const cases: {
    name: string;
    prefix?: string;
    startKey?: string;
    limit?: number;
    filter?: (o: { value: string }) => boolean;
    keys: string[];
    continueKey?: string;
    remaining?: number;
  }[] = [
    { name: 'everything', keys: [...names].sort() },
    { name: 'a sub-prefix', prefix: 'ns1/', keys: ['ns1/k1', 'ns1/k3', 'ns1/k5', 'ns1/k7', 'ns1/k9'] },
    { name: 'a limit', limit: 3, keys: ['ns0/k0', 'ns0/k2', 'ns0/k4'], continueKey: 'ns0/k6', remaining: 7 },
    { name: 'a limit and a start key', startKey: 'ns0/k6', limit: 3, keys: ['ns0/k6', 'ns0/k8', 'ns1/k1'], continueKey: 'ns1/k3', remaining: 4 },
    { name: 'a limit not reached', prefix: 'ns1/', startKey: 'ns1/k7', limit: 5, keys: ['ns1/k7', 'ns1/k9'] },
    { name: 'a start key past the end', startKey: 'ns9', keys: [] },
    {
      name: 'a filter: the limit counts items that pass, remaining is unknown',
      filter: (o) => o.value.endsWith('1') || o.value.endsWith('5') || o.value.endsWith('9'),
      limit: 2,
      keys: ['ns1/k1', 'ns1/k5'],
      continueKey: 'ns1/k7',
    },
  ];
  for (const c of cases) {
    it(`lists ${c.name}`, () =>
      withCache(async (f) => {
        let last = 0;
        for (const n of names) last = await f.put(n, `v${n.slice(-1)}`);
        await f.seen(last);
        const result = await f.cache.list({
          prefix: PREFIX + (c.prefix ?? ''),
          at: { kind: 'consistent' },
          ...(c.startKey !== undefined ? { startKey: PREFIX + c.startKey } : {}),
          ...(c.limit !== undefined ? { limit: c.limit } : {}),
          ...(c.filter !== undefined ? { filter: c.filter } : {}),
        });
        assert.deepEqual(result.items.map((e) => e.key.slice(PREFIX.length)), c.keys);
        assert.equal(result.continueKey, c.continueKey === undefined ? undefined : PREFIX + c.continueKey);
        assert.equal(result.remaining, c.remaining);
        assert.equal(result.revision, last);
      }));
  }

  it('pages at the first page\'s revision while writes go on', () =>
    withCache(async (f) => {
      for (let i = 0; i < 10; i++) await f.put(`k${i}`, 'original');
      const first = await f.cache.list({ prefix: PREFIX, at: { kind: 'consistent' }, limit: 4 });
      const seen = [...first.items];
      let next = first.continueKey;
      let page = 0;
      while (next !== undefined) {
        // Change what the remaining pages would show, if they were read at the current revision.
        await f.remove(`k${9 - page}`);
        await f.put(`k${page}`, 'changed');
        await f.put(`k${page}-new`, 'new');
        const result = await f.cache.list({ prefix: PREFIX, at: { kind: 'exact', revision: first.revision }, startKey: next, limit: 4 });
        assert.equal(result.revision, first.revision);
        seen.push(...result.items);
        next = result.continueKey;
        page++;
      }
      assert.deepEqual(seen.map((e) => `${e.key.slice(PREFIX.length)}=${e.object.value}`), Array.from({ length: 10 }, (_, i) => `k${i}=original`));
    }));

  it('lists 10,000 objects at a past revision from a snapshot', () =>
    withCache(async (f) => {
      const count = 10_000;
      for (let i = 0; i < count; i++) await f.storage.create(`${PREFIX}${String(i).padStart(5, '0')}`, bytes('v1'));
      await f.cache.stop();
      await withCache(async (g) => {
        const before = (await g.cache.list({ prefix: PREFIX, at: { kind: 'consistent' }, limit: 1 })).revision;
        let last = before;
        for (let i = 0; i < 100; i++) last = await g.put(String(i * 7).padStart(5, '0'), 'v2');
        await g.seen(last);
        const past = await g.cache.list({ prefix: PREFIX, at: { kind: 'exact', revision: before } });
        assert.equal(past.items.length, count);
        assert.ok(past.items.every((e) => e.object.value === 'v1'));
        const now = await g.cache.list({ prefix: PREFIX, at: { kind: 'exact', revision: last }, limit: 10 });
        assert.equal(now.items[0]!.object.value, 'v2');
        assert.equal(now.remaining, count - 10);
      }, {}, undefined, f.storage);
    }));
});

describe('Cacher and store compaction', () => {
  it('notices the store compacted and stops serving history below it', () => {
    const timers = new ManualTimers();
    return withCache(
      async (f) => {
        const first = await f.put('a', '1');
        const second = await f.put('a', '2');
        await f.seen(second);
        assert.equal((await f.cache.get(`${PREFIX}a`, { kind: 'exact', revision: first })).entry?.object.value, '1');
        await f.storage.compact(second);
        timers.advance(1_000);
        await new Promise((r) => setImmediate(r));
        await assertRejects(f.cache.get(`${PREFIX}a`, { kind: 'exact', revision: first }), 'compacted');
        assert.equal((await f.cache.get(`${PREFIX}a`, { kind: 'exact', revision: second })).entry?.object.value, '2');
      },
      { bookmarkIntervalMs: 1_000, compactionCheckMs: 1_000 },
      timers,
    );
  });
});
