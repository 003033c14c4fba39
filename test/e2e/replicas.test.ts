/**
 * Two servers on one etcd, as replicas run: every write made through either is kept. Each server's
 * watch cache follows etcd a little behind the other's writes, and updates start from the cache's
 * object (src/registry/store/update.ts), so concurrent patches through both exercise the path
 * where that object is stale: a write on it must fail its precondition and be made again, never
 * overwrite the other replica's change.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EtcdProcess, etcdUnavailableReason } from '../storage-conformance/etcd-process.js';
import { startServer, type TestServer } from './harness.js';

const skip = etcdUnavailableReason();
if (skip !== undefined) console.log(`# skipping the replica tests: ${skip}`);

const PATCHES_PER_REPLICA = 25;
const PATH = '/api/v1/namespaces/default/configmaps/shared';

describe('two replicas on one etcd', { skip }, () => {
  let etcd: EtcdProcess;
  let dataDir: string;
  const replicas: TestServer[] = [];

  before(async () => {
    etcd = await EtcdProcess.launch();
    // One data directory: the replicas share the cluster CA and the admin identity, as replicas do.
    dataDir = mkdtempSync(join(tmpdir(), 'capstan-replicas-'));
    replicas.push(await startServer(['--store-servers', etcd.endpoint], dataDir));
    replicas.push(await startServer(['--store-servers', etcd.endpoint], dataDir));
  });

  after(async () => {
    await Promise.all(replicas.map((r) => r.stop()));
    await etcd?.dispose();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps every one of concurrent patches made through both', async () => {
    const [a, b] = replicas as [TestServer, TestServer];
    const created = await a.request('/api/v1/namespaces/default/configmaps', {
      method: 'POST',
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'shared' }, data: { start: 'yes' } },
    });
    assert.equal(created.status, 201, created.body);
    const patch = (server: TestServer, key: string) =>
      server.request(PATH, {
        method: 'PATCH',
        headers: { 'Content-Type': 'application/merge-patch+json' },
        body: { data: { [key]: key } },
      });
    const sent = Array.from({ length: PATCHES_PER_REPLICA }, (_, i) => [patch(a, `a${i}`), patch(b, `b${i}`)]).flat();
    const answers = await Promise.all(sent);
    for (const answer of answers) assert.equal(answer.status, 200, answer.body);

    // Read through each replica once its cache has caught up; both must hold every key.
    const want = ['start', ...Array.from({ length: PATCHES_PER_REPLICA }, (_, i) => [`a${i}`, `b${i}`]).flat()].sort();
    for (const server of [a, b]) {
      const read = await server.request(`${PATH}?resourceVersion=`);
      assert.equal(read.status, 200, read.body);
      assert.deepEqual(Object.keys(read.json<{ data: Record<string, string> }>().data).sort(), want);
    }
  });

  it('answers a PUT naming an older resourceVersion with 409 through either replica', async () => {
    const [a, b] = replicas as [TestServer, TestServer];
    const before = (await a.request(PATH)).json<{ metadata: { resourceVersion: string } }>();
    const changed = await b.request(PATH, { method: 'PATCH', headers: { 'Content-Type': 'application/merge-patch+json' }, body: { data: { late: 'b' } } });
    assert.equal(changed.status, 200, changed.body);
    for (const server of [a, b]) {
      const put = await server.request(PATH, { method: 'PUT', body: { ...before, data: { stale: 'put' } } });
      assert.equal(put.status, 409, put.body);
      assert.equal(put.json<{ reason: string }>().reason, 'Conflict');
    }
  });
});
