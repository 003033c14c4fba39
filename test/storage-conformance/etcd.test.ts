/**
 * The shared conformance suite against a real etcd (one member started for this file, see
 * etcd-process.ts), directly and through the watch cache (which leans on the backend's watch
 * resume and progress requests). Skips with the reason when there is no etcd binary.
 */
import { after, describe, it } from 'node:test';
import { CacheBackedStorage } from '../../src/storage/cacher/cache-backed-storage.js';
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

  /** Opens stores on the shared etcd; `wrap` puts something (the watch cache) in front. */
  const fixture = (wrap: (store: Storage) => Storage) => async () => {
    shared.etcd ??= EtcdProcess.launch();
    const etcd = await shared.etcd;
    const open = async () => wrap(await EtcdStorage.open({ servers: [etcd.endpoint] }));
    let current: Storage = await open();
    return {
      get storage() {
        return current;
      },
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
  };

  runStorageConformance('etcd', fixture((store) => store));

  runStorageConformance(
    'watch cache over etcd',
    fixture(
      (store) =>
        new CacheBackedStorage(store, {
          // One cache per case prefix (`/conformance/<id>/`), as in cacher.test.ts.
          cachePrefixOf: (key) => /^\/[^/]+\/[^/]+\//.exec(key)?.[0],
          cacher: { futureRevisionWaitMs: 500, bookmarkIntervalMs: 100 },
        }),
    ),
  );
}
