/**
 * Watch.requestProgress against a real etcd. Debian's etcd 3.4.23 gets the 'verified' mode (see
 * progress-mode.ts), so these cases exercise the proof by range reads end to end.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { EtcdStorage } from '../../../src/storage/etcd/etcd-storage.js';
import type { Storage } from '../../../src/storage/storage.js';
import { EtcdProcess, etcdUnavailableReason } from '../../storage-conformance/etcd-process.js';
import { TcpProxy } from './tcp-proxy.js';
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
