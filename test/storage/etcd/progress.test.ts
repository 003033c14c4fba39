/**
 * Watch.requestProgress against a real etcd. Debian's etcd 3.4.23 gets the 'verified' mode (see
 * progress-mode.ts), so these cases exercise the proof by range reads end to end.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { EtcdStorage } from '../../../src/storage/etcd/etcd-storage.js';
import { isStorageError } from '../../../src/storage/errors.js';
import { EtcdWatch } from '../../../src/storage/etcd/watch/etcd-watch.js';
import type { Storage, WatchBatch } from '../../../src/storage/storage.js';
import { EtcdProcess, etcdUnavailableReason } from '../../storage-conformance/etcd-process.js';
import { TcpProxy } from './tcp-proxy.js';
import { eventually } from '../../eventually.js';
import { ETCD_WAIT_MS, fillUntilPaused } from './stalled-watch.js';
import { WatchCollector } from '../watch-collector.js';

const skip = etcdUnavailableReason();
if (skip !== undefined) console.log(`# skipping etcd progress tests: ${skip}`);

describe('etcd watch progress requests', { skip }, () => {
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

  async function open(server = etcd.endpoint): Promise<Storage> {
    const storage = await EtcdStorage.open({ servers: [server] });
    closers.push(() => storage.close());
    return storage;
  }

  function collect(store: Storage, prefix: string, from: number): WatchCollector {
    const controller = new AbortController();
    const collector = new WatchCollector(store.watch(prefix, from, { signal: controller.signal }));
    closers.push(async () => {
      controller.abort();
      await collector.done();
    });
    return collector;
  }

  const isProgress = (b: { events: readonly unknown[] }) => b.events.length === 0;

  it('answers after every event written before the request', async () => {
    const store = await open();
    const p = `/progress/${randomUUID()}/`;
    const collector = collect(store, p, await store.currentRevision());
    const written = await Promise.all(Array.from({ length: 20 }, (_, i) => store.create(`${p}k${i}`, bytes('x'))));
    const last = Math.max(...written.map((w) => w.revision));
    collector.watch.requestProgress();
    await collector.waitFor('a progress batch', () => collector.batches.some((b) => isProgress(b) && b.revision >= last));
    const answer = collector.batches.findIndex((b) => isProgress(b) && b.revision >= last);
    const eventsBefore = collector.batches.slice(0, answer).flatMap((b) => b.events);
    assert.equal(eventsBefore.length, 20, 'all 20 events came before the progress answer');
  });

  it('reports the current revision when only other keys changed, and revisions never go back', async () => {
    const store = await open();
    const p = `/progress/${randomUUID()}/`;
    const collector = collect(store, `${p}watched/`, 0);
    const mine = await store.create(`${p}watched/a`, bytes('x'));
    await collector.waitForRevision(mine.revision);
    for (let i = 0; i < 5; i++) await store.create(`${p}other/${i}`, bytes('x'));
    const current = await store.currentRevision();
    collector.watch.requestProgress();
    collector.watch.requestProgress();
    await collector.waitFor('a progress batch', () => collector.batches.some((b) => isProgress(b) && b.revision >= current));
    const revisions = collector.batches.map((b) => b.revision);
    assert.deepEqual(revisions, [...revisions].sort((a, b) => a - b));
    assert.equal(collector.events.length, 1);
  });

  it('answers for an idle prefix whose last delivered revision has been compacted', async () => {
    const store = await open();
    const p = `/progress/${randomUUID()}/`;
    const collector = collect(store, `${p}watched/`, await store.currentRevision());
    // Once this event is in, the watch is established (a watch created after the compaction
    // below would rightly fail as compacted).
    const mine = await store.create(`${p}watched/a`, bytes('x'));
    await collector.waitForRevision(mine.revision);
    for (let i = 0; i < 5; i++) await store.create(`${p}other/${i}`, bytes('x'));
    const current = await store.currentRevision();
    await store.compact(current);
    collector.watch.requestProgress();
    await collector.waitFor('a progress batch', () => collector.batches.some((b) => isProgress(b) && b.revision >= current));
    assert.equal(collector.events.length, 1);
  });

  it('ends the watch as compacted when a proof passed over events still on their way, never skipping them', async () => {
    // The verified proof cannot see a key created and deleted after the last delivered event.
    // Hold those two events back (a consumer that does not read pauses the stream once 64
    // batches wait) and the proof reports a revision past them. They must not then be dropped.
    const store = await open();
    const p = `/progress/${randomUUID()}/`;
    const start = await store.create(`${p}busy`, bytes('x'));
    const watch = store.watch(p, start.revision);
    const iterator = watch[Symbol.asyncIterator]();
    const received: WatchBatch[] = [];
    const take = async () => {
      const next = await iterator.next();
      if (next.done !== true) received.push(next.value);
      return next;
    };
    assert.ok(watch instanceof EtcdWatch);
    const first = take();
    const busy = await fillUntilPaused(store, watch, `${p}busy`, start.revision);
    await first;
    const created = await store.create(`${p}brief`, bytes('x'));
    const deleted = await store.delete(`${p}brief`, created.revision);
    await new Promise((resolve) => setTimeout(resolve, 100));
    watch.requestProgress();
    await eventually('the progress report', () => watch.lastRevision >= deleted.revision, ETCD_WAIT_MS);

    // A later change, so that a watch that skipped the two events still has something to show.
    await store.create(`${p}later`, bytes('x'));
    let failure: unknown;
    try {
      for (;;) {
        const next = await take();
        if (next.done === true || next.value.events.some((e) => e.kv.key === `${p}later`)) break;
      }
    } catch (err) {
      failure = err;
    }
    const events = received.flatMap((b) => b.events);
    assert.deepEqual(
      events.map((e) => e.kv.key),
      busy.map(() => `${p}busy`),
      'every busy event, then the end: nothing out of order, nothing after a gap',
    );
    assert.ok(isStorageError(failure, 'compacted'), `ended with ${String(failure)}`);
    assert.match(String(failure), new RegExp(`revision ${created.revision}`));
  });

  it('answers a request made while disconnected once the connection is back', async () => {
    const proxy = await TcpProxy.start(etcd.clientPort);
    closers.push(() => proxy.close());
    const writer = await open();
    const store = await open(proxy.endpoint);
    const p = `/progress/${randomUUID()}/`;
    const first = await writer.create(`${p}a`, bytes('x'));
    const collector = collect(store, p, first.revision);
    await store.currentRevision();
    proxy.cut();
    await writer.create(`/progress/${randomUUID()}/elsewhere`, bytes('x'));
    const current = await writer.currentRevision();
    collector.watch.requestProgress();
    await new Promise((resolve) => setTimeout(resolve, 300));
    proxy.restore();
    await collector.waitFor('a progress batch', () => collector.batches.some((b) => isProgress(b) && b.revision >= current));
  });
});
