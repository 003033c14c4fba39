/**
 * The shared conformance suite against a real etcd (one member started for this file, see
 * etcd-process.ts). Skips with the reason when there is no etcd binary.
 */
import { after, describe, it } from 'node:test';
import { EtcdStorage } from '../../src/storage/etcd/etcd-storage.js';
import type { Storage } from '../../src/storage/storage.js';
import { EtcdProcess, etcdUnavailableReason } from './etcd-process.js';
import { runStorageConformance } from './suite.js';

const skipReason = etcdUnavailableReason();

if (skipReason !== undefined) {
  console.log(`# skipping the etcd conformance suite: ${skipReason}`);
  describe('storage conformance: etcd', () => {
    it('needs an etcd binary', (t) => t.skip(skipReason));
  });
} else {
  /** One etcd for every case: the suite isolates cases by key prefix. */
  const shared = { etcd: undefined as Promise<EtcdProcess> | undefined };
  after(async () => {
    await (await shared.etcd)?.dispose();
  });

  runStorageConformance('etcd', async () => {
    shared.etcd ??= EtcdProcess.launch();
    const etcd = await shared.etcd;
    const open = () => EtcdStorage.open({ servers: [etcd.endpoint] });
    let current: Storage = await open();
    return {
      storage: current,
      // A crash of etcd itself: SIGKILL, start on the same data, connect a new client.
      reopen: async () => {
        await current.close();
        await etcd.kill();
        await etcd.start();
        current = await open();
        return current;
      },
      cleanup: () => current.close(),
    };
  });
}
