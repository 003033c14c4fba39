/**
 * The storage conformance suite: the behaviour every {@link Storage} backend must show (etcd v3
 * semantics as written in src/storage/storage.ts). Each backend calls {@link runStorageConformance}
 * from its own `*.test.ts` file with a factory that opens a store.
 *
 * The suite is written so that it also passes against a store shared with other writers (one etcd
 * cluster for every test): each case works under its own random key prefix and asserts revisions
 * relative to what it wrote (strictly increasing, never "exactly +1"). Compaction cases compact
 * the whole store, so a backend must not share its store with anything that cannot lose history.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { KeyValue, Storage, WatchEvent, WriteResult } from '../../src/storage/storage.js';
import { StorageError, type StorageErrorCode } from '../../src/storage/errors.js';
import { WatchCollector } from '../storage/watch-collector.js';

/** What a backend's factory hands the suite for one test case. */
export interface StorageFixture {
  /** A store that is open and ready. */
  readonly storage: Storage;
  /**
   * For durable backends: closes `storage` (or, for a crash-like restart, abandons it) and opens a
   * new Storage on the same data. Each call replaces the previous store; `cleanup` closes the last.
   */
  readonly reopen?: () => Promise<Storage>;
  /** Closes whatever store is open and removes the data the fixture created. */
  readonly cleanup: () => Promise<void>;
}

/** Opens a fresh store (or a shared store: the suite isolates itself by key prefix). */
export type OpenStorageFixture = () => Promise<StorageFixture>;

/**
 * Registers the conformance cases for one backend with node:test.
 *
 * @param name  shown in the test names, e.g. 'sqlite' or 'etcd'.
 * @param open  called once per case; the suite calls `cleanup` when the case ends, pass or fail.
 */
export function runStorageConformance(name: string, open: OpenStorageFixture): void {
  /** Opens a fixture, runs the case under a fresh key prefix, always cleans up. */
  async function withStore(run: (store: Storage, prefix: string, fixture: StorageFixture) => Promise<void>) {
    const fixture = await open();
    try {
      await run(fixture.storage, `/conformance/${randomUUID()}/`, fixture);
    } finally {
      await fixture.cleanup();
    }
  }

  describe(`storage conformance: ${name}`, () => {
    describe('create', () => {
      it('creates a key at a new revision with createRevision = modRevision', () =>
        withStore(async (store, p) => {
          const before = await store.currentRevision();
          const created = await store.create(`${p}a`, bytes('one'));
          assert.ok(created.revision > before, 'revision increases');
          assertKv(created.kv, { key: `${p}a`, value: 'one', createRevision: created.revision, modRevision: created.revision });
          assert.ok((await store.currentRevision()) >= created.revision);
          const got = await store.get(`${p}a`);
          assertKv(got.kv, { key: `${p}a`, value: 'one', createRevision: created.revision, modRevision: created.revision });
          assert.ok(got.revision >= created.revision);
        }));

      it('stores empty and binary values exactly', () =>
        withStore(async (store, p) => {
          const binary = Uint8Array.from({ length: 256 }, (_, i) => i);
          await store.create(`${p}empty`, new Uint8Array(0));
          await store.create(`${p}binary`, binary);
          assert.equal((await store.get(`${p}empty`)).kv?.value.length, 0);
          assert.deepEqual(Array.from((await store.get(`${p}binary`)).kv?.value ?? []), Array.from(binary));
        }));

      it('can create a key again after it was deleted, with a new createRevision', () =>
        withStore(async (store, p) => {
          const first = await store.create(`${p}a`, bytes('one'));
          await store.delete(`${p}a`);
          const second = await store.create(`${p}a`, bytes('two'));
          assert.ok(second.revision > first.revision);
          assertKv(second.kv, { key: `${p}a`, value: 'two', createRevision: second.revision, modRevision: second.revision });
        }));
    });

    describe('update and delete', () => {
      it('update with the current modRevision replaces the value and keeps createRevision', () =>
        withStore(async (store, p) => {
          const created = await store.create(`${p}a`, bytes('one'));
          const updated = await store.update(`${p}a`, bytes('two'), created.revision);
          assert.ok(updated.revision > created.revision);
          assertKv(updated.kv, { key: `${p}a`, value: 'two', createRevision: created.revision, modRevision: updated.revision });
          assertKv((await store.get(`${p}a`)).kv, { key: `${p}a`, value: 'two', createRevision: created.revision, modRevision: updated.revision });
        }));

      it('delete returns the deleted value and removes the key', () =>
        withStore(async (store, p) => {
          const created = await store.create(`${p}a`, bytes('one'));
          const deleted = await store.delete(`${p}a`);
          assert.ok(deleted.revision > created.revision);
          assertKv(deleted.kv, { key: `${p}a`, value: 'one', createRevision: created.revision, modRevision: created.revision });
          const got = await store.get(`${p}a`);
          assert.equal(got.kv, undefined);
          assert.ok(got.revision >= deleted.revision);
        }));

      it('conditional delete with the current modRevision succeeds', () =>
        withStore(async (store, p) => {
          const created = await store.create(`${p}a`, bytes('one'));
          const deleted = await store.delete(`${p}a`, created.revision);
          assert.equal(text(deleted.kv.value), 'one');
          assert.equal((await store.get(`${p}a`)).kv, undefined);
        }));

      it('every write increases the revision', () =>
        withStore(async (store, p) => {
          const revisions: number[] = [];
          const a = await store.create(`${p}a`, bytes('1'));
          revisions.push(a.revision);
          const b = await store.update(`${p}a`, bytes('2'), a.revision);
          revisions.push(b.revision);
          revisions.push((await store.create(`${p}b`, bytes('3'))).revision);
          revisions.push((await store.delete(`${p}a`)).revision);
          assertStrictlyIncreasing(revisions);
          assert.ok((await store.currentRevision()) >= revisions[revisions.length - 1]!);
        }));
    });

    describe('write errors', () => {
      const cases: ReadonlyArray<{
        name: string;
        code: StorageErrorCode;
        act: (store: Storage, key: string, created: WriteResult) => Promise<unknown>;
      }> = [
        { name: 'create of an existing key', code: 'key-exists', act: (s, k) => s.create(k, bytes('x')) },
        { name: 'update with a stale modRevision', code: 'conflict', act: (s, k, c) => s.update(k, bytes('x'), c.revision - 1) },
        { name: 'update with a future modRevision', code: 'conflict', act: (s, k, c) => s.update(k, bytes('x'), c.revision + 1000) },
        { name: 'update of an absent key', code: 'not-found', act: (s, k) => s.update(`${k}-absent`, bytes('x'), 1) },
        { name: 'conditional delete with a stale modRevision', code: 'conflict', act: (s, k, c) => s.delete(k, c.revision - 1) },
        { name: 'delete of an absent key', code: 'not-found', act: (s, k) => s.delete(`${k}-absent`) },
        { name: 'conditional delete of an absent key', code: 'not-found', act: (s, k) => s.delete(`${k}-absent`, 1) },
      ];
      for (const c of cases) {
        it(`${c.name} fails with '${c.code}' and changes nothing`, () =>
          withStore(async (store, p) => {
            const key = `${p}a`;
            const created = await store.create(key, bytes('original'));
            await assertStorageError(c.act(store, key, created), c.code);
            assertKv((await store.get(key)).kv, { key, value: 'original', createRevision: created.revision, modRevision: created.revision });
            assert.equal((await store.get(`${key}-absent`)).kv, undefined);
          }));
      }

      it('updating or deleting a deleted key fails with not-found', () =>
        withStore(async (store, p) => {
          const created = await store.create(`${p}a`, bytes('one'));
          await store.delete(`${p}a`);
          await assertStorageError(store.update(`${p}a`, bytes('two'), created.revision), 'not-found');
          await assertStorageError(store.delete(`${p}a`), 'not-found');
        }));

      it('a conflict error names the key', () =>
        withStore(async (store, p) => {
          const created = await store.create(`${p}a`, bytes('one'));
          await store.update(`${p}a`, bytes('two'), created.revision);
          const err = await assertStorageError(store.update(`${p}a`, bytes('three'), created.revision), 'conflict');
          assert.equal(err.key, `${p}a`);
        }));
    });

    describe('concurrent writes', () => {
      it('concurrent updates of one key from the same revision: exactly one wins, the rest conflict', () =>
        withStore(async (store, p) => {
          const created = await store.create(`${p}a`, bytes('start'));
          const outcomes = await Promise.allSettled(
            Array.from({ length: 24 }, (_, i) => store.update(`${p}a`, bytes(`v${i}`), created.revision)),
          );
          const winners = outcomes.filter((o) => o.status === 'fulfilled');
          assert.equal(winners.length, 1, 'exactly one update wins');
          for (const o of outcomes) {
            if (o.status === 'rejected') assertErrorCode(o.reason, 'conflict');
          }
          const won = (winners[0] as PromiseFulfilledResult<WriteResult>).value;
          assert.equal(text((await store.get(`${p}a`)).kv?.value), text(won.kv.value));
        }));

      it('concurrent creates of one key: exactly one wins, the rest get key-exists', () =>
        withStore(async (store, p) => {
          const outcomes = await Promise.allSettled(Array.from({ length: 16 }, (_, i) => store.create(`${p}a`, bytes(`v${i}`))));
          assert.equal(outcomes.filter((o) => o.status === 'fulfilled').length, 1);
          for (const o of outcomes) {
            if (o.status === 'rejected') assertErrorCode(o.reason, 'key-exists');
          }
        }));

      it('a failing write does not fail the writes issued together with it', () =>
        withStore(async (store, p) => {
          await store.create(`${p}taken`, bytes('x'));
          const writes = [
            ...Array.from({ length: 20 }, (_, i) => store.create(`${p}k${i}`, bytes(`v${i}`))),
            store.create(`${p}taken`, bytes('again')),
            store.update(`${p}absent`, bytes('x'), 1),
          ];
          const outcomes = await Promise.allSettled(writes);
          const revisions = outcomes.slice(0, 20).map((o) => {
            assert.equal(o.status, 'fulfilled');
            return (o as PromiseFulfilledResult<WriteResult>).value.revision;
          });
          assert.equal(new Set(revisions).size, 20, 'each write has its own revision');
          assertErrorCode((outcomes[20] as PromiseRejectedResult).reason, 'key-exists');
          assertErrorCode((outcomes[21] as PromiseRejectedResult).reason, 'not-found');
          assert.equal((await store.list(p)).kvs.length, 21);
        }));
    });

    describe('reads', () => {
      it('get of an absent key returns no kv and the current revision', () =>
        withStore(async (store, p) => {
          await store.create(`${p}other`, bytes('x'));
          const current = await store.currentRevision();
          const got = await store.get(`${p}absent`);
          assert.equal(got.kv, undefined);
          assert.ok(got.revision >= current);
        }));

      it('get at a past revision returns the value as it was then', () =>
        withStore(async (store, p) => {
          const v1 = await store.create(`${p}a`, bytes('one'));
          const v2 = await store.update(`${p}a`, bytes('two'), v1.revision);
          const gone = await store.delete(`${p}a`);
          const later = await store.create(`${p}b`, bytes('b'));
          const cases: ReadonlyArray<{ at: number; key: string; expected: string | undefined }> = [
            { at: v1.revision, key: `${p}a`, expected: 'one' },
            { at: v2.revision - 0, key: `${p}a`, expected: 'two' },
            { at: gone.revision - 1, key: `${p}a`, expected: 'two' },
            { at: gone.revision, key: `${p}a`, expected: undefined },
            { at: later.revision - 1, key: `${p}b`, expected: undefined },
            { at: later.revision, key: `${p}b`, expected: 'b' },
          ];
          for (const c of cases) {
            const got = await store.get(c.key, c.at);
            assert.equal(got.revision, c.at, `read at ${c.at} reports that revision`);
            assert.equal(got.kv === undefined ? undefined : text(got.kv.value), c.expected, `${c.key} at ${c.at}`);
          }
          const atV1 = (await store.get(`${p}a`, v1.revision)).kv;
          assertKv(atV1, { key: `${p}a`, value: 'one', createRevision: v1.revision, modRevision: v1.revision });
        }));

      it('reads above the current revision fail with future-revision', () =>
        withStore(async (store, p) => {
          await store.create(`${p}a`, bytes('one'));
          const future = (await store.currentRevision()) + 1_000_000;
          const err = await assertStorageError(store.get(`${p}a`, future), 'future-revision');
          assert.equal(err.requestedRevision, future);
          await assertStorageError(store.list(p, { revision: future }), 'future-revision');
        }));
    });

    describe('list', () => {
      it('returns only keys under the prefix, in ascending order, at the current revision', () =>
        withStore(async (store, p) => {
          for (const k of ['a/2', 'a/1', 'a/3/x', 'a', 'a0', 'b/1', 'a.']) await store.create(`${p}${k}`, bytes(k));
          const last = await store.create(`${p}a/0`, bytes('a/0'));
          const listed = await store.list(`${p}a/`);
          assert.deepEqual(listed.kvs.map((kv) => kv.key), ['a/0', 'a/1', 'a/2', 'a/3/x'].map((k) => `${p}${k}`));
          assert.deepEqual(listed.kvs.map((kv) => text(kv.value)), ['a/0', 'a/1', 'a/2', 'a/3/x']);
          assert.equal(listed.remaining, 0);
          assert.ok(listed.revision >= last.revision);
        }));

      it('orders keys by their UTF-8 bytes', () =>
        withStore(async (store, p) => {
          const keys = ['\u{1F600}', '\uFFFD', 'z', '\u00E9', 'Z', '0'];
          for (const k of keys) await store.create(`${p}${k}`, bytes(k));
          const expected = [...keys].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y)));
          assert.deepEqual((await store.list(p)).kvs.map((kv) => text(kv.value)), expected);
        }));

      it('leaves out deleted keys and shows the latest value of updated ones', () =>
        withStore(async (store, p) => {
          const a = await store.create(`${p}a`, bytes('a1'));
          await store.create(`${p}b`, bytes('b1'));
          await store.update(`${p}a`, bytes('a2'), a.revision);
          await store.delete(`${p}b`);
          assert.deepEqual((await store.list(p)).kvs.map((kv) => `${kv.key.slice(p.length)}=${text(kv.value)}`), ['a=a2']);
        }));

      it('limit cuts the list and remaining counts the keys left out', () =>
        withStore(async (store, p) => {
          await createKeys(store, p, 10);
          const cases = [
            { limit: 3, startKey: undefined, keys: ['k00', 'k01', 'k02'], remaining: 7 },
            { limit: 3, startKey: 'k05', keys: ['k05', 'k06', 'k07'], remaining: 2 },
            { limit: 10, startKey: undefined, keys: names(10), remaining: 0 },
            { limit: 50, startKey: 'k08', keys: ['k08', 'k09'], remaining: 0 },
            { limit: 0, startKey: undefined, keys: names(10), remaining: 0 },
            { limit: 2, startKey: 'k08x', keys: ['k09'], remaining: 0 },
          ];
          for (const c of cases) {
            const options = c.startKey === undefined ? { limit: c.limit } : { limit: c.limit, startKey: `${p}${c.startKey}` };
            const listed = await store.list(p, options);
            const what = `limit ${c.limit} from ${c.startKey ?? 'start'}`;
            assert.deepEqual(listed.kvs.map((kv) => kv.key.slice(p.length)), c.keys, what);
            assert.equal(listed.remaining, c.remaining, what);
          }
        }));

      it('pages through a list at a fixed past revision while the keys change', () =>
        withStore(async (store, p) => {
          await createKeys(store, p, 10);
          const snapshot = await store.list(p);
          const pages: KeyValue[][] = [];
          let startKey: string | undefined;
          for (;;) {
            // Change the keys between pages: the pages must still show the snapshot.
            await store.create(`${p}k${String(pages.length).padStart(2, '0')}-new`, bytes('new'));
            await store.delete(`${p}k0${pages.length}`);
            const page = await store.list(p, { revision: snapshot.revision, limit: 4, ...(startKey === undefined ? {} : { startKey }) });
            assert.equal(page.revision, snapshot.revision);
            pages.push([...page.kvs]);
            if (page.remaining === 0) break;
            assert.equal(page.remaining, 10 - pages.flat().length);
            startKey = `${page.kvs[page.kvs.length - 1]!.key}\u0000`;
          }
          assert.deepEqual(pages.map((pg) => pg.length), [4, 4, 2]);
          assert.deepEqual(pages.flat().map(describeKv), snapshot.kvs.map(describeKv));
        }));

      it('lists at past revisions show the keys as they were', () =>
        withStore(async (store, p) => {
          const a = await store.create(`${p}a`, bytes('a1'));
          const b = await store.create(`${p}b`, bytes('b1'));
          const a2 = await store.update(`${p}a`, bytes('a2'), a.revision);
          const bGone = await store.delete(`${p}b`);
          const c = await store.create(`${p}c`, bytes('c1'));
          const cases: ReadonlyArray<{ at: number; expected: string[] }> = [
            { at: a.revision, expected: ['a=a1'] },
            { at: b.revision, expected: ['a=a1', 'b=b1'] },
            { at: a2.revision, expected: ['a=a2', 'b=b1'] },
            { at: bGone.revision, expected: ['a=a2'] },
            { at: c.revision, expected: ['a=a2', 'c=c1'] },
          ];
          for (const cs of cases) {
            const listed = await store.list(p, { revision: cs.at });
            assert.equal(listed.revision, cs.at);
            assert.deepEqual(listed.kvs.map((kv) => `${kv.key.slice(p.length)}=${text(kv.value)}`), cs.expected, `at ${cs.at}`);
          }
        }));
    });

    describe('watch', () => {
      it('from 0 delivers the changes after the call, with prevKv, in order', () =>
        withStore(async (store, p) => {
          await store.create(`${p}before`, bytes('old'));
          const watcher = WatchCollector.open(store, p, 0);
          try {
            const a = await store.create(`${p}a`, bytes('one'));
            const a2 = await store.update(`${p}a`, bytes('two'), a.revision);
            const gone = await store.delete(`${p}a`);
            await watcher.waitForRevision(gone.revision);
            assert.deepEqual(watcher.events.map(describeEvent), [
              `put ${p}a=one @${a.revision} prev -`,
              `put ${p}a=two @${a2.revision} prev one@${a.revision}`,
              `delete ${p}a= @${gone.revision} prev two@${a2.revision}`,
            ]);
            const put = watcher.events[1]!;
            assertKv(put.kv, { key: `${p}a`, value: 'two', createRevision: a.revision, modRevision: a2.revision });
            assertKv(put.prevKv, { key: `${p}a`, value: 'one', createRevision: a.revision, modRevision: a.revision });
            const del = watcher.events[2]!;
            assertKv(del.prevKv, { key: `${p}a`, value: 'two', createRevision: a.revision, modRevision: a2.revision });
            for (const batch of watcher.batches) {
              if (batch.events.length > 0) assert.ok(batch.revision >= batch.events[batch.events.length - 1]!.kv.modRevision);
            }
          } finally {
            await watcher.stop();
          }
        }));

      it('delivers only keys under the prefix', () =>
        withStore(async (store, p) => {
          const watcher = WatchCollector.open(store, `${p}in/`, 0);
          try {
            await store.create(`${p}in`, bytes('x'));
            await store.create(`${p}in0`, bytes('x'));
            await store.create(`${p}out/a`, bytes('x'));
            const last = await store.create(`${p}in/a`, bytes('x'));
            await watcher.waitForRevision(last.revision);
            assert.deepEqual(watcher.events.map((e) => e.kv.key), [`${p}in/a`]);
          } finally {
            await watcher.stop();
          }
        }));

      it('from a past revision replays history, then continues live without gap or duplicate', () =>
        withStore(async (store, p) => {
          const start = await store.create(`${p}a`, bytes('0'));
          let previous = start;
          const expected: number[] = [];
          for (let i = 1; i <= 20; i++) {
            previous = await store.update(`${p}a`, bytes(String(i)), previous.revision);
            expected.push(previous.revision);
          }
          const watcher = WatchCollector.open(store, p, start.revision);
          try {
            for (let i = 21; i <= 40; i++) {
              previous = await store.update(`${p}a`, bytes(String(i)), previous.revision);
              expected.push(previous.revision);
            }
            await watcher.waitForRevision(previous.revision);
            assert.deepEqual(watcher.events.map((e) => e.kv.modRevision), expected);
            assert.deepEqual(watcher.events.map((e) => text(e.kv.value)), expected.map((_, i) => String(i + 1)));
            assert.deepEqual(watcher.events.map((e) => text(e.prevKv?.value)), expected.map((_, i) => String(i)));
          } finally {
            await watcher.stop();
          }
        }));

      it('sees every change exactly once, in order, under concurrent writers', () =>
        withStore(async (store, p) => {
          // A first write, so that `from` is a real revision even on an empty store (0 means "now").
          const from = (await store.create(`${p}before`, bytes('x'))).revision;
          const early = WatchCollector.open(store, p, 0);
          const writers = concurrentWriters(store, p, { writers: 8, keysPerWriter: 4, rounds: 6 });
          const late = writers.halfway.then(() => WatchCollector.open(store, p, from));
          try {
            const acknowledged = await writers.done;
            const lateWatcher = await late;
            const last = Math.max(...acknowledged.map((w) => w.revision));
            for (const watcher of [early, lateWatcher]) {
              await watcher.waitForRevision(last);
              assertStrictlyIncreasing(watcher.events.map((e) => e.kv.modRevision));
              assert.deepEqual(
                watcher.events.map((e) => `${e.type} ${e.kv.key}@${e.kv.modRevision}`),
                [...acknowledged].sort((x, y) => x.revision - y.revision).map((w) => `${w.type} ${w.key}@${w.revision}`),
              );
            }
          } finally {
            await early.stop();
            await (await late).stop();
          }
        }));

      it('a client that lists and then watches from the list revision sees every later change', () =>
        withStore(async (store, p) => {
          await createKeys(store, p, 5);
          const writers = concurrentWriters(store, p, { writers: 6, keysPerWriter: 3, rounds: 5 });
          await writers.halfway;
          const listed = await store.list(p);
          const state = new Map(listed.kvs.map((kv) => [kv.key, text(kv.value)]));
          const watcher = WatchCollector.open(store, p, listed.revision);
          try {
            const acknowledged = await writers.done;
            // The list may be answered after the last write (a watch cache first catches up with
            // the store, which can take longer than the writes left): then no event is to come.
            const last = Math.max(...acknowledged.map((w) => w.revision));
            if (last > listed.revision) await watcher.waitForRevision(last);
            for (const e of watcher.events) {
              assert.ok(e.kv.modRevision > listed.revision, 'no event at or before the list revision');
              if (e.type === 'put') state.set(e.kv.key, text(e.kv.value));
              else state.delete(e.kv.key);
            }
            const final = await store.list(p);
            assert.deepEqual(
              [...state].sort(([x], [y]) => Buffer.compare(Buffer.from(x), Buffer.from(y))),
              final.kvs.map((kv) => [kv.key, text(kv.value)]),
            );
          } finally {
            await watcher.stop();
          }
        }));

      it('requestProgress produces a batch at or after the current revision', () =>
        withStore(async (store, p) => {
          const watcher = WatchCollector.open(store, `${p}watched/`, 0);
          try {
            const first = await store.create(`${p}watched/a`, bytes('x'));
            await watcher.waitForRevision(first.revision);
            await store.create(`${p}elsewhere`, bytes('x'));
            const current = await store.currentRevision();
            const batchesBefore = watcher.batches.length;
            watcher.watch.requestProgress();
            await watcher.waitFor('a progress batch', () =>
              watcher.batches.slice(batchesBefore).some((b) => b.events.length === 0 && b.revision >= current),
            );
          } finally {
            await watcher.stop();
          }
        }));

      it('requestProgress works on a watch that has seen no event yet', () =>
        withStore(async (store, p) => {
          await store.create(`${p}elsewhere`, bytes('x'));
          const current = await store.currentRevision();
          const watcher = WatchCollector.open(store, `${p}watched/`, 0);
          try {
            watcher.watch.requestProgress();
            await watcher.waitFor('a progress batch', () => watcher.batches.some((b) => b.revision >= current));
            assert.equal(watcher.events.length, 0);
          } finally {
            await watcher.stop();
          }
        }));

      it('aborting the signal ends the iteration without error', () =>
        withStore(async (store, p) => {
          const watcher = WatchCollector.open(store, p, 0);
          const created = await store.create(`${p}a`, bytes('x'));
          await watcher.waitForRevision(created.revision);
          await watcher.stop();
          assert.equal(watcher.failure, undefined);
        }));
    });

    describe('compaction', () => {
      it('reads and watches below the compacted revision fail with compacted; the rest still works', () =>
        withStore(async (store, p) => {
          const v1 = await store.create(`${p}a`, bytes('one'));
          const other = await store.create(`${p}b`, bytes('b'));
          const v2 = await store.update(`${p}a`, bytes('two'), v1.revision);
          const gone = await store.delete(`${p}b`);
          const v3 = await store.update(`${p}a`, bytes('three'), v2.revision);
          await store.compact(v2.revision);
          assert.ok((await store.compactedRevision()) >= v2.revision);

          const err = await assertStorageError(store.get(`${p}a`, v1.revision), 'compacted');
          assert.equal(err.requestedRevision, v1.revision);
          await assertStorageError(store.list(p, { revision: other.revision }), 'compacted');
          const belowWatch = WatchCollector.open(store, p, v1.revision);
          assertErrorCode(await belowWatch.ended(), 'compacted');

          assert.equal(text((await store.get(`${p}a`, v2.revision)).kv?.value), 'two');
          assert.deepEqual((await store.list(p, { revision: v2.revision })).kvs.map(describeKv), [
            `${p}a=two@${v2.revision}`,
            `${p}b=b@${other.revision}`,
          ]);
          assert.equal((await store.get(`${p}b`, gone.revision)).kv, undefined);
          assert.equal(text((await store.get(`${p}a`)).kv?.value), 'three');

          const fromCompacted = WatchCollector.open(store, p, v2.revision);
          try {
            await fromCompacted.waitForRevision(v3.revision);
            assert.deepEqual(fromCompacted.events.map(describeEvent), [
              `delete ${p}b= @${gone.revision} prev b@${other.revision}`,
              `put ${p}a=three @${v3.revision} prev two@${v2.revision}`,
            ]);
          } finally {
            await fromCompacted.stop();
          }
        }));

      it('compacting to a future revision fails with future-revision', () =>
        withStore(async (store, p) => {
          await store.create(`${p}a`, bytes('x'));
          await assertStorageError(store.compact((await store.currentRevision()) + 1_000_000), 'future-revision');
        }));

      it('keeps every key that is live at the compacted revision, and later writes', () =>
        withStore(async (store, p) => {
          await createKeys(store, p, 30);
          for (let i = 0; i < 30; i += 3) await store.delete(`${p}${names(30)[i]}`);
          const before = await store.list(p);
          await store.compact(before.revision);
          const after = await store.create(`${p}later`, bytes('later'));
          assert.deepEqual((await store.list(p, { revision: before.revision })).kvs.map(describeKv), before.kvs.map(describeKv));
          assert.equal((await store.list(p)).kvs.length, before.kvs.length + 1);
          assert.ok(after.revision > before.revision);
        }));
    });

    describe('restart', () => {
      it('keeps every acknowledged write, and the revision never goes back', (t) =>
        withStore(async (store, p, fixture) => {
          if (fixture.reopen === undefined) {
            t.skip('the backend offers no reopen');
            return;
          }
          await createKeys(store, p, 20);
          const updated = await store.update(`${p}k03`, bytes('updated'), (await store.get(`${p}k03`)).kv!.modRevision);
          await store.delete(`${p}k04`);
          // The newest writes are a create and a delete, both compacted away: the revision they
          // used must still never be handed out again.
          await store.create(`${p}tmp`, bytes('tmp'));
          const lastDelete = await store.delete(`${p}tmp`);
          await store.compact(lastDelete.revision);
          const before = await store.list(p);

          const reopened = await fixture.reopen();
          assert.ok((await reopened.currentRevision()) >= lastDelete.revision);
          assert.ok((await reopened.compactedRevision()) >= lastDelete.revision);
          assert.deepEqual((await reopened.list(p)).kvs.map(describeKv), before.kvs.map(describeKv));
          assert.equal(text((await reopened.get(`${p}k03`)).kv?.value), 'updated');
          assert.equal((await reopened.get(`${p}k03`)).kv?.modRevision, updated.revision);
          const next = await reopened.create(`${p}after`, bytes('after'));
          assert.ok(next.revision > lastDelete.revision, `revision ${next.revision} after restart > ${lastDelete.revision}`);
        }));
    });
  });
}

/** A write the concurrent writers made and the store acknowledged. */
interface AcknowledgedWrite {
  readonly type: 'put' | 'delete';
  readonly key: string;
  readonly revision: number;
}

/**
 * Starts `writers` concurrent loops, each creating, updating and deleting its own keys for
 * `rounds` rounds. `halfway` resolves when half of the rounds are done, `done` with every write.
 */
function concurrentWriters(
  store: Storage,
  prefix: string,
  shape: { writers: number; keysPerWriter: number; rounds: number },
): { halfway: Promise<void>; done: Promise<AcknowledgedWrite[]> } {
  const acknowledged: AcknowledgedWrite[] = [];
  let markHalfway: () => void = () => {};
  const halfway = new Promise<void>((resolve) => (markHalfway = resolve));
  let finishedHalf = 0;
  async function writer(w: number): Promise<void> {
    const keys = Array.from({ length: shape.keysPerWriter }, (_, k) => `${prefix}w${w}/k${k}`);
    const mod = new Map<string, number>();
    for (let round = 0; round < shape.rounds; round++) {
      for (const key of keys) {
        const current = mod.get(key);
        if (current === undefined) {
          const r = await store.create(key, bytes(`${key}#${round}`));
          mod.set(key, r.revision);
          acknowledged.push({ type: 'put', key, revision: r.revision });
        } else if ((round + key.length) % 3 === 0) {
          const r = await store.delete(key, current);
          mod.delete(key);
          acknowledged.push({ type: 'delete', key, revision: r.revision });
        } else {
          const r = await store.update(key, bytes(`${key}#${round}`), current);
          mod.set(key, r.revision);
          acknowledged.push({ type: 'put', key, revision: r.revision });
        }
      }
      if (round === Math.floor(shape.rounds / 2) && ++finishedHalf === shape.writers) markHalfway();
    }
  }
  const done = Promise.all(Array.from({ length: shape.writers }, (_, w) => writer(w))).then(() => acknowledged);
  return { halfway, done };
}

function bytes(s: string): Uint8Array {
  return new TextEncoder().encode(s);
}

function text(value: Uint8Array | undefined): string {
  return value === undefined ? '<none>' : Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('utf8');
}

/** k00, k01, ... */
function names(count: number): string[] {
  return Array.from({ length: count }, (_, i) => `k${String(i).padStart(2, '0')}`);
}

async function createKeys(store: Storage, prefix: string, count: number): Promise<void> {
  for (const name of names(count)) await store.create(`${prefix}${name}`, bytes(`value of ${name}`));
}

function describeKv(kv: KeyValue): string {
  return `${kv.key}=${text(kv.value)}@${kv.modRevision}`;
}

function describeEvent(e: WatchEvent): string {
  const prev = e.prevKv === undefined ? '-' : `${text(e.prevKv.value)}@${e.prevKv.modRevision}`;
  return `${e.type} ${e.kv.key}=${text(e.kv.value)} @${e.kv.modRevision} prev ${prev}`;
}

function assertKv(
  kv: KeyValue | undefined,
  expected: { key: string; value: string; createRevision: number; modRevision: number },
): void {
  assert.ok(kv !== undefined, `expected a value for ${expected.key}`);
  assert.deepEqual(
    { key: kv.key, value: text(kv.value), createRevision: kv.createRevision, modRevision: kv.modRevision },
    expected,
  );
}

function assertStrictlyIncreasing(values: readonly number[]): void {
  for (let i = 1; i < values.length; i++) {
    assert.ok(values[i]! > values[i - 1]!, `revision ${values[i]} at position ${i} follows ${values[i - 1]}`);
  }
}

function assertErrorCode(err: unknown, code: StorageErrorCode): asserts err is StorageError {
  assert.ok(err instanceof StorageError, `expected StorageError '${code}', got ${String(err)}`);
  assert.equal(err.code, code, err.message);
}

async function assertStorageError(operation: Promise<unknown>, code: StorageErrorCode): Promise<StorageError> {
  try {
    await operation;
  } catch (err) {
    assertErrorCode(err, code);
    return err;
  }
  assert.fail(`expected StorageError '${code}', but the operation succeeded`);
}
