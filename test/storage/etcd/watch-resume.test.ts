/**
 * A watch outlives a lost connection: after an etcd restart or a cut connection it resumes at the
 * revision after the last one it delivered, so the consumer sees every change exactly once; if
 * that revision was compacted meanwhile, the iteration throws 'compacted'.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { StorageError } from '../../../src/storage/errors.js';
import { EtcdStorage } from '../../../src/storage/etcd/etcd-storage.js';
import { EtcdWatch } from '../../../src/storage/etcd/watch/etcd-watch.js';
import type { Storage, WatchBatch } from '../../../src/storage/storage.js';
import { EtcdProcess, etcdUnavailableReason } from '../../storage-conformance/etcd-process.js';
import { TcpProxy } from './tcp-proxy.js';
import { fillUntilPaused } from './stalled-watch.js';
import { WatchCollector } from '../watch-collector.js';

const skip = etcdUnavailableReason();
if (skip !== undefined) console.log(`# skipping etcd watch resume tests: ${skip}`);

describe('etcd watch across a lost connection', { skip }, () => {
  let etcd: EtcdProcess;
  const closers: Array<() => Promise<void>> = [];
  const bytes = (s: string) => new TextEncoder().encode(s);

  before(async () => {
    etcd = await EtcdProcess.launch();
  });
  after(async () => {
    for (const close of closers.reverse()) await close();
    await etcd?.dispose();
  });

  async function open(servers: string[]): Promise<Storage> {
    const storage = await EtcdStorage.open({ servers, watchReconnectTimeoutMs: 30_000 });
    closers.push(() => storage.close());
    return storage;
  }

  /**
   * A writer straight to etcd, a store that watches through a proxy the test can cut, and a first
   * key `${p}a` created under a fresh prefix `p`.
   */
  async function throughProxy() {
    const p = `/resume/${randomUUID()}/`;
    const proxy = await TcpProxy.start(etcd.clientPort);
    closers.push(() => proxy.close());
    const writer = await open([etcd.endpoint]);
    const watching = await open([proxy.endpoint]);
    const start = await writer.create(`${p}a`, bytes('start'));
    return { p, proxy, writer, watching, start };
  }

  /** Updates `key` `count` times; returns the revisions. */
  async function updates(store: Storage, key: string, from: number, count: number): Promise<number[]> {
    const revisions: number[] = [];
    let mod = from;
    for (let i = 0; i < count; i++) {
      mod = (await store.update(key, bytes(`v${revisions.length}`), mod)).revision;
      revisions.push(mod);
    }
    return revisions;
  }

  it('resumes after an etcd restart without losing or repeating an event', async () => {
    const p = `/resume/${randomUUID()}/`;
    let writer = await open([etcd.endpoint]);
    const watching = await open([etcd.endpoint]);
    const start = await writer.create(`${p}a`, bytes('start'));
    const controller = new AbortController();
    const collector = new WatchCollector(watching.watch(p, start.revision, { signal: controller.signal }));
    const expected = await updates(writer, `${p}a`, start.revision, 5);
    await collector.waitForRevision(expected.at(-1)!);

    await writer.close();
    await etcd.restart();
    // Written as soon as etcd is back, while the watch is still reconnecting: the resumed watch
    // must find these in etcd's history.
    writer = await open([etcd.endpoint]);
    expected.push(...(await updates(writer, `${p}a`, expected.at(-1)!, 5)));
    const b = await writer.create(`${p}b`, bytes('b'));
    const gone = await writer.delete(`${p}b`);
    expected.push(b.revision, gone.revision);
    await collector.waitForRevision(gone.revision);

    assert.deepEqual(collector.events.map((e) => e.kv.modRevision), expected);
    assert.deepEqual(collector.events.map((e) => e.type), [...expected.slice(0, -1).map(() => 'put'), 'delete']);
    assert.equal(collector.failure, undefined);
    controller.abort();
    await collector.done();
  });

  it('delivers what was written while its connection was cut, once', async () => {
    const { p, proxy, writer, watching, start } = await throughProxy();
    const controller = new AbortController();
    const collector = new WatchCollector(watching.watch(p, start.revision, { signal: controller.signal }));
    const expected = await updates(writer, `${p}a`, start.revision, 3);
    await collector.waitForRevision(expected.at(-1)!);

    proxy.cut();
    expected.push(...(await updates(writer, `${p}a`, expected.at(-1)!, 4)));
    proxy.restore();
    expected.push(...(await updates(writer, `${p}a`, expected.at(-1)!, 2)));
    await collector.waitForRevision(expected.at(-1)!);

    assert.deepEqual(collector.events.map((e) => e.kv.modRevision), expected);
    const values = collector.events.map((e) => new TextDecoder().decode(e.kv.value));
    assert.deepEqual(values, ['v0', 'v1', 'v2', 'v0', 'v1', 'v2', 'v3', 'v0', 'v1']);
    controller.abort();
    await collector.done();
  });

  it('stays paused across a reconnect while its consumer is behind, then delivers everything once', async () => {
    const { p, proxy, writer, watching, start } = await throughProxy();
    const watch = watching.watch(p, start.revision);
    assert.ok(watch instanceof EtcdWatch);
    const iterator = watch[Symbol.asyncIterator]();
    const first = iterator.next();
    const expected = await fillUntilPaused(writer, watch, `${p}a`, start.revision);
    const pausedAt = watch.lastRevision;

    proxy.cut();
    proxy.restore();
    expected.push(...(await updates(writer, `${p}a`, expected.at(-1)!, 100)));
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.equal(watch.lastRevision, pausedAt, 'nothing more was taken in while the consumer was behind');

    const revisionsOf = (result: IteratorResult<WatchBatch>) => {
      assert.notEqual(result.done, true, 'the watch went on');
      return result.done === true ? [] : result.value.events.map((e) => e.kv.modRevision);
    };
    const seen = revisionsOf(await first);
    while (seen.at(-1)! < expected.at(-1)!) seen.push(...revisionsOf(await iterator.next()));
    assert.deepEqual(seen, expected);
    await iterator.return?.();
  });

  it("throws 'compacted' when the revision to resume from was compacted while it was away", async () => {
    const { p, proxy, writer, watching, start } = await throughProxy();
    const collector = new WatchCollector(watching.watch(p, start.revision));
    const delivered = await updates(writer, `${p}a`, start.revision, 2);
    await collector.waitForRevision(delivered.at(-1)!);

    proxy.cut();
    const missed = await updates(writer, `${p}a`, delivered.at(-1)!, 3);
    await writer.compact(missed.at(-1)!);
    proxy.restore();

    const failure = await collector.ended();
    assert.ok(failure instanceof StorageError, `expected a StorageError, got ${String(failure)}`);
    assert.equal(failure.code, 'compacted');
    assert.equal(failure.requestedRevision, delivered.at(-1));
    assert.equal(failure.revision, missed.at(-1));
    assert.deepEqual(collector.events.map((e) => e.kv.modRevision), delivered, 'nothing after the gap was delivered');
  });
});
