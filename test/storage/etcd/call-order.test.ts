/**
 * Order between a read of "now" and the writes a client issues after it. etcd may serve a
 * linearizable read after applying a write that was sent later; the backend holds such writes
 * back so that "now" stays below them, as the SQLite backend's order gives for free.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { EtcdStorage } from '../../../src/storage/etcd/etcd-storage.js';
import type { Storage } from '../../../src/storage/storage.js';
import { EtcdProcess, etcdUnavailableReason } from '../../storage-conformance/etcd-process.js';
import { WatchCollector } from '../watch-collector.js';

const skip = etcdUnavailableReason();
if (skip !== undefined) console.log(`# skipping etcd call order tests: ${skip}`);

describe('etcd: "now" and the writes issued after it', { skip }, () => {
  let etcd: EtcdProcess;
  const stores: Storage[] = [];
  const value = new Uint8Array([1]);

  before(async () => {
    etcd = await EtcdProcess.launch();
  });
  after(async () => {
    for (const store of stores) await store.close();
    await etcd?.dispose();
  });

  async function open(): Promise<Storage> {
    const store = await EtcdStorage.open({ servers: [etcd.endpoint] });
    stores.push(store);
    return store;
  }

  it('currentRevision() is below every write issued after the call', async () => {
    const store = await open();
    const p = `/order/${randomUUID()}/`;
    for (let i = 0; i < 50; i++) {
      const now = store.currentRevision();
      const writes = [store.create(`${p}a${i}`, value), store.create(`${p}b${i}`, value)];
      const revision = await now;
      for (const write of await Promise.all(writes)) assert.ok(write.revision > revision, `${write.revision} > ${revision}`);
    }
  });

  it('a watch from 0 on a client that has seen no revision yet gets the write issued right after it', async () => {
    const writer = await open();
    const p = `/order/${randomUUID()}/`;
    for (let i = 0; i < 5; i++) {
      const store = await open();
      const controller = new AbortController();
      const collector = new WatchCollector(store.watch(p, 0, { signal: controller.signal }));
      const created = await store.create(`${p}k${i}`, value);
      await collector.waitForRevision(created.revision);
      assert.equal(collector.events[0]?.kv.key, `${p}k${i}`);
      controller.abort();
      await collector.done();
      await writer.create(`${p}between${i}`, value);
    }
  });
});
