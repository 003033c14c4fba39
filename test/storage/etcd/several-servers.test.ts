/**
 * Several --store-servers with one of them down: reads and writes reach the live member (a write
 * is re-sent only when it never left), and a watch connects to it.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import { EtcdStorage } from '../../../src/storage/etcd/etcd-storage.js';
import type { Storage } from '../../../src/storage/storage.js';
import { EtcdProcess, etcdUnavailableReason } from '../../storage-conformance/etcd-process.js';
import { WatchCollector } from '../watch-collector.js';

const skip = etcdUnavailableReason();
if (skip !== undefined) console.log(`# skipping etcd several-servers tests: ${skip}`);

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('etcd with one of two servers down', { skip }, () => {
  let etcd: EtcdProcess;
  let store: Storage;

  before(async () => {
    etcd = await EtcdProcess.launch();
    store = await EtcdStorage.open({ servers: [`http://127.0.0.1:${await closedPort()}`, etcd.endpoint] });
  });
  after(async () => {
    await store?.close();
    await etcd?.dispose();
  });

  it('serves every read and write from the live member', async () => {
    const p = `/servers/${randomUUID()}/`;
    for (let i = 0; i < 30; i++) {
      const created = await store.create(`${p}k${i}`, new Uint8Array([i]));
      const got = await store.get(`${p}k${i}`);
      assert.equal(got.kv?.modRevision, created.revision);
    }
    assert.equal((await store.list(p)).kvs.length, 30);
    await store.checkHealth();
  });

  it('watches through the live member', async () => {
    const p = `/servers/${randomUUID()}/`;
    const controller = new AbortController();
    const collector = new WatchCollector(store.watch(p, await store.currentRevision(), { signal: controller.signal }));
    const created = await store.create(`${p}a`, new Uint8Array([1]));
    await collector.waitForRevision(created.revision);
    controller.abort();
    await collector.done();
  });
});
