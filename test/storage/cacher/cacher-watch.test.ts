import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { CacheWatchRequest } from '../../../src/storage/cacher/cache-types.js';
import { StorageError } from '../../../src/storage/errors.js';
import { ManualTimers, PREFIX, assertRejects, describe as show, hasEvent, take, withCache, type Item } from './harness.js';

function request(start: CacheWatchRequest<Item>['start'], extra: Partial<CacheWatchRequest<Item>> = {}): CacheWatchRequest<Item> {
  return { prefix: PREFIX, start, bookmarks: false, initialEventsEndBookmark: false, signal: new AbortController().signal, ...extra };
}

describe('Cacher watch', () => {
  it("from a revision in the window replays what came after it, then continues live", () =>
    withCache(async (f) => {
      const r1 = await f.put('a', '1');
      const r2 = await f.put('a', '2');
      const r3 = await f.put('b', '1');
      await f.seen(r3);
      const watch = await f.cache.watch(request({ kind: 'after', revision: r1 }));
      const r4 = await f.remove('a');
      assert.deepEqual((await take(watch, 3)).map(show), [`MODIFIED a=2@${r2}`, `ADDED b=1@${r3}`, `DELETED a=2@${r4}`]);
    }));

  it('from a revision older than the window fails with compacted', () =>
    withCache(
      async (f) => {
        const first = await f.put('a', '0');
        let last = first;
        for (let i = 1; i <= 5; i++) last = await f.put('a', String(i));
        await f.seen(last);
        const err = await assertRejects(f.cache.watch(request({ kind: 'after', revision: first })), 'compacted');
        assert.equal(err.requestedRevision, first);
        const recent = await f.cache.watch(request({ kind: 'after', revision: last - 1 }));
        assert.deepEqual((await take(recent, 1)).map(show), [`MODIFIED a=5@${last}`]);
      },
      { maxWindowEvents: 2 },
    ));

  it('events older than the retention leave the window', () => {
    const timers = new ManualTimers();
    return withCache(
      async (f) => {
        const old = await f.put('a', 'old');
        await f.seen(old);
        timers.advance(10_000);
        await f.seen(await f.put('a', 'new'));
        await assertRejects(f.cache.watch(request({ kind: 'after', revision: old - 1 })), 'compacted');
      },
      { windowRetentionMs: 5_000, bookmarkIntervalMs: 1_000 },
      timers,
    );
  });

  it('from a revision above the cache waits for it and sends only what comes after', () =>
    withCache(async (f) => {
      const now = await f.put('a', '0');
      await f.seen(now);
      const watch = await f.cache.watch(request({ kind: 'after', revision: now + 2 }));
      await f.put('a', '1');
      await f.put('a', '2');
      const r3 = await f.put('a', '3');
      assert.deepEqual((await take(watch, 1)).map(show), [`MODIFIED a=3@${r3}`]);
    }));

  it('initial state: synthetic ADDED, the end bookmark (even without bookmarks), then changes', () =>
    withCache(async (f) => {
      const ra = await f.put('a', '1');
      const rb = await f.put('b', '1');
      const watch = await f.cache.watch(
        request({ kind: 'initial-state', at: { kind: 'consistent' } }, { initialEventsEndBookmark: true }),
      );
      const rc = await f.put('c', '1');
      assert.deepEqual((await take(watch, 4)).map(show), [`ADDED a=1@${ra}`, `ADDED b=1@${rb}`, `BOOKMARK @${rb} end`, `ADDED c=1@${rc}`]);
    }));

  it('initial state at a not-older-than revision the cache never reaches fails with future-revision', () =>
    withCache(async (f) => {
      const now = await f.put('a', '1');
      await assertRejects(f.cache.watch(request({ kind: 'initial-state', at: { kind: 'not-older-than', revision: now + 10 } })), 'future-revision');
    }));

  it('initial state at an exact past revision, then the changes since', () =>
    withCache(async (f) => {
      const r1 = await f.put('a', '1');
      const r2 = await f.put('a', '2');
      await f.seen(r2);
      const watch = await f.cache.watch(request({ kind: 'initial-state', at: { kind: 'exact', revision: r1 } }, { initialEventsEndBookmark: true }));
      assert.deepEqual((await take(watch, 3)).map(show), [`ADDED a=1@${r1}`, `BOOKMARK @${r1} end`, `MODIFIED a=2@${r2}`]);
    }));

  it('a filter turns updates into ADDED, MODIFIED and DELETED transitions', () =>
    withCache(async (f) => {
      await f.put('a', 'out');
      const watch = await f.cache.watch(request({ kind: 'initial-state', at: { kind: 'consistent' } }, { filter: (o) => o.value.startsWith('in') }));
      const steps = [
        await f.put('a', 'in-1'), // enters: ADDED
        await f.put('a', 'in-2'), // stays: MODIFIED
        await f.put('a', 'out-1'), // leaves: DELETED with the new object
        await f.put('a', 'out-2'), // stays out: nothing
        await f.put('a', 'in-3'),
        await f.remove('a'), // a passing object is deleted: DELETED
        await f.put('b', 'out'),
      ];
      await f.remove('b'); // a deleted object that never passed: nothing
      const last = await f.put('c', 'in');
      assert.deepEqual((await take(watch, 6)).map(show), [
        `ADDED a=in-1@${steps[0]}`,
        `MODIFIED a=in-2@${steps[1]}`,
        `DELETED a=out-1@${steps[2]}`,
        `ADDED a=in-3@${steps[4]}`,
        `DELETED a=in-3@${steps[5]}`,
        `ADDED c=in@${last}`,
      ]);
    }));

  it('a DELETED event carries the deleted object at the delete revision, and the previous entry', () =>
    withCache(async (f) => {
      const created = await f.put('a', 'x');
      const watch = await f.cache.watch(request({ kind: 'after', revision: created }));
      const deleted = await f.remove('a');
      const [event] = await take(watch, 1);
      assert.ok(event?.type === 'DELETED');
      assert.equal(event.entry.modRevision, deleted);
      assert.deepEqual(event.entry.object, { key: `${PREFIX}a`, value: 'x', revision: deleted });
      assert.equal(event.prevEntry?.modRevision, created);
    }));

  it('a single-key watch sees only its key', () =>
    withCache(async (f) => {
      const now = await f.put('a', '0');
      const watch = await f.cache.watch(request({ kind: 'after', revision: now }, { key: `${PREFIX}b` }));
      await f.put('a', '1');
      await f.put('bb', '1');
      const rb = await f.put('b', '1');
      assert.deepEqual((await take(watch, 1)).map(show), [`ADDED b=1@${rb}`]);
    }));

  it('every watcher gets the same event object and entry', () =>
    withCache(async (f) => {
      const now = await f.put('a', '0');
      const one = await f.cache.watch(request({ kind: 'after', revision: now }));
      const two = await f.cache.watch(request({ kind: 'after', revision: now }));
      await f.put('a', '1');
      const [e1] = await take(one, 1);
      const [e2] = await take(two, 1);
      assert.equal(e1, e2);
    }));

  it('idle watchers that asked for bookmarks get one at the current revision', () => {
    const timers = new ManualTimers();
    return withCache(
      async (f) => {
        const now = await f.put('a', '0');
        await f.seen(now);
        const withBookmarks = await f.cache.watch(request({ kind: 'after', revision: now }, { bookmarks: true }));
        const without = await f.cache.watch(request({ kind: 'after', revision: now }));
        timers.advance(1_000);
        assert.deepEqual((await take(withBookmarks, 1)).map(show), [`BOOKMARK @${now}`]);
        assert.equal(await hasEvent(without), false);
        // A watcher that just got an event is not idle at the next tick.
        const r1 = await f.put('a', '1');
        await f.seen(r1);
        timers.advance(1_000);
        assert.deepEqual((await take(withBookmarks, 1)).map(show), [`MODIFIED a=1@${r1}`]);
        assert.equal(await hasEvent(withBookmarks), false);
        timers.advance(1_000);
        assert.deepEqual((await take(withBookmarks, 1)).map(show), [`BOOKMARK @${r1}`]);
      },
      { bookmarkIntervalMs: 1_000 },
      timers,
    );
  });

  it('requestProgress sends a bookmark at or after the store revision', () =>
    withCache(async (f) => {
      const now = await f.put('a', '0');
      const watch = await f.cache.watch(request({ kind: 'after', revision: now }));
      const elsewhere = await f.storage.create('/registry/other/x', new Uint8Array());
      watch.requestProgress();
      const [event] = await take(watch, 1);
      assert.ok(event?.type === 'BOOKMARK' && event.revision >= elsewhere.revision);
    }));

  it('a watcher that cannot keep up is closed with watcher-too-slow; the others are unaffected', () =>
    withCache(
      async (f) => {
        const now = await f.put('a', '0');
        const slow = await f.cache.watch(request({ kind: 'after', revision: now }));
        const fast = await f.cache.watch(request({ kind: 'after', revision: now }));
        const fastEvents = take(fast, 20);
        for (let i = 1; i <= 20; i++) await f.put('a', String(i));
        assert.equal((await fastEvents).length, 20);
        await assertRejects(take(slow, 1), 'watcher-too-slow');
        assert.equal(f.cache.watcherCount, 1);
      },
      { watcherBufferSize: 5 },
    ));

  it('a client that lists and then watches from the list revision sees every change of a concurrent writer', () =>
    withCache(async (f) => {
      // The writer's length is counted, not timed: on a fast machine a timed writer outran the
      // watcher's buffer of 1000 events before the test read any of them.
      const WRITES = 400;
      let quarterWritten!: () => void;
      const aQuarterWritten = new Promise<void>((resolve) => (quarterWritten = resolve));
      const writer = (async () => {
        for (let i = 0; i < WRITES; i++) {
          if (i === WRITES / 4) quarterWritten();
          if (i % 5 === 4) await f.remove(`k${(i - 1) % 7}`).catch(() => undefined);
          else await f.put(`k${i % 7}`, String(i));
          await new Promise((r) => setImmediate(r));
        }
      })();
      await aQuarterWritten;
      const listed = await f.cache.list({ prefix: PREFIX, at: { kind: 'consistent' } });
      const state = new Map(listed.items.map((e) => [e.key, e.object.value]));
      const watch = await f.cache.watch(request({ kind: 'after', revision: listed.revision }));
      await writer;
      const final = await f.storage.list(PREFIX);
      for (let seen = listed.revision; seen < final.revision; ) {
        const [event] = await take(watch, 1);
        assert.ok(event !== undefined && event.type !== 'BOOKMARK');
        assert.ok(event.revision > seen, 'in order, no duplicate');
        seen = event.revision;
        if (event.type === 'DELETED') state.delete(event.entry.key);
        else state.set(event.entry.key, event.entry.object.value);
      }
      assert.deepEqual([...state].sort(), final.kvs.map((kv) => [kv.key, Buffer.from(kv.value).toString()]).sort());
    }));

  it('aborting the signal ends the iteration without error', () =>
    withCache(async (f) => {
      const controller = new AbortController();
      const watch = await f.cache.watch(request({ kind: 'after', revision: f.cache.revision }, { signal: controller.signal }));
      const pending = watch[Symbol.asyncIterator]().next();
      controller.abort();
      assert.equal((await pending).done, true);
      assert.equal(f.cache.watcherCount, 0);
    }));

  describe('consumed (events pushed to a sink)', () => {
    /**
     * A sink that records what it is given; `ended` resolves with what `end` got. `onEvent`'s
     * answer is the sink's (false pauses it).
     */
    function recorder(onEvent: (text: string) => boolean | void = () => undefined) {
      const events: string[] = [];
      let end!: (reason: unknown) => void;
      const ended = new Promise<unknown>((resolve) => (end = resolve));
      const sink = {
        event: (e: Parameters<typeof show>[0]) => {
          const text = show(e);
          events.push(text);
          return onEvent(text);
        },
        end: (reason?: unknown) => end(reason),
      };
      return { events, ended, sink };
    }

    it('pushes the replay at once, then live changes in order', () =>
      withCache(async (f) => {
        const r1 = await f.put('a', '1');
        const r2 = await f.put('b', '1');
        await f.seen(r2);
        const watch = await f.cache.watch(request({ kind: 'after', revision: r1 - 1 }));
        const r = recorder();
        watch.consume(r.sink);
        assert.deepEqual(r.events, [`ADDED a=1@${r1}`, `ADDED b=1@${r2}`], 'what was available is pushed before consume returns');
        const r3 = await f.put('a', '2');
        const r4 = await f.remove('b');
        await f.seen(r4);
        assert.deepEqual(r.events.slice(2), [`MODIFIED a=2@${r3}`, `DELETED b=1@${r4}`]);
      }));

    it('ends without a reason when aborted, and is detached', () =>
      withCache(async (f) => {
        const controller = new AbortController();
        const now = await f.put('a', '0');
        const aborted = recorder();
        (await f.cache.watch(request({ kind: 'after', revision: now }, { signal: controller.signal }))).consume(aborted.sink);
        controller.abort();
        assert.equal(await aborted.ended, undefined);
        assert.equal(f.cache.watcherCount, 0);
      }));

    it('a sink that throws ends its own watch with the error; the other watchers still get the change', () =>
      withCache(async (f) => {
        const now = await f.put('a', '0');
        const failing = recorder(() => {
          throw new Error('sink broke');
        });
        const healthy = recorder();
        (await f.cache.watch(request({ kind: 'after', revision: now }))).consume(failing.sink);
        (await f.cache.watch(request({ kind: 'after', revision: now }))).consume(healthy.sink);
        const r1 = await f.put('a', '1');
        await f.seen(r1);
        assert.match(String(await failing.ended), /sink broke/);
        assert.deepEqual(healthy.events, [`MODIFIED a=1@${r1}`]);
        assert.equal(f.cache.watcherCount, 1);
      }));

    it('is read one way only', () =>
      withCache(async (f) => {
        const watch = await f.cache.watch(request({ kind: 'after', revision: f.cache.revision }));
        watch.consume(recorder().sink);
        assert.throws(() => watch.consume(recorder().sink), /one consumer/);
        await assertRejects(watch[Symbol.asyncIterator]().next(), 'invalid');
      }));

    it('ends once when an event it handled closed the watch', () =>
      withCache(async (f) => {
        const controller = new AbortController();
        const now = await f.put('a', '0');
        let ends = 0;
        const watch = await f.cache.watch(request({ kind: 'after', revision: now }, { signal: controller.signal }));
        watch.consume({ event: () => controller.abort(), end: () => ends++ });
        await f.seen(await f.put('a', '1'));
        assert.equal(ends, 1);
        assert.equal(f.cache.watcherCount, 0);
      }));

    it('a sink that pauses is given nothing more until it resumes, then the rest in order', () =>
      withCache(async (f) => {
        const r1 = await f.put('a', '1');
        const r2 = await f.put('b', '1');
        await f.seen(r2);
        const watch = await f.cache.watch(request({ kind: 'after', revision: r1 - 1 }));
        let open = false;
        const r = recorder(() => open);
        watch.consume(r.sink);
        assert.deepEqual(r.events, [`ADDED a=1@${r1}`], 'the backlog is not read past the pause');
        const r3 = await f.put('a', '2');
        await f.seen(r3);
        assert.deepEqual(r.events, [`ADDED a=1@${r1}`], 'live changes wait too');
        open = true;
        watch.resume();
        assert.deepEqual(r.events, [`ADDED a=1@${r1}`, `ADDED b=1@${r2}`, `MODIFIED a=2@${r3}`]);
        watch.resume();
        const r4 = await f.put('b', '2');
        await f.seen(r4);
        assert.equal(r.events.at(-1), `MODIFIED b=2@${r4}`, 'resume without a pause changes nothing');
      }));

    it('a paused sink that falls further behind than its buffer is ended with watcher-too-slow', () =>
      withCache(
        async (f) => {
          const now = await f.put('a', '0');
          await f.seen(now);
          const r = recorder(() => false);
          (await f.cache.watch(request({ kind: 'after', revision: now }))).consume(r.sink);
          for (let i = 1; i <= 4; i++) await f.put('a', String(i));
          const reason = await r.ended;
          assert.ok(reason instanceof StorageError && reason.code === 'watcher-too-slow', String(reason));
          assert.deepEqual(r.events, [`MODIFIED a=1@${now + 1}`]);
          assert.equal(f.cache.watcherCount, 0);
        },
        { watcherBufferSize: 2 },
      ));

    it('a paused sink is told at once when its watch is closed', () =>
      withCache(async (f) => {
        const controller = new AbortController();
        const now = await f.put('a', '0');
        const r = recorder(() => false);
        (await f.cache.watch(request({ kind: 'after', revision: now }, { signal: controller.signal }))).consume(r.sink);
        await f.seen(await f.put('a', '1'));
        controller.abort();
        assert.equal(await r.ended, undefined);
        assert.equal(f.cache.watcherCount, 0);
      }));

    it('ends with the error when the cache loses its storage watch', () =>
      withCache(async (f) => {
        const now = await f.put('a', '0');
        await f.seen(now);
        const r = recorder();
        (await f.cache.watch(request({ kind: 'after', revision: now }))).consume(r.sink);
        f.storage.breakWatches();
        const reason = await r.ended;
        assert.ok(reason instanceof StorageError && reason.code === 'compacted', String(reason));
      }));
  });
});
