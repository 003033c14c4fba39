/**
 * The conformance suite against the test-only MemoryStorage, alone and behind the watch cache:
 * checks that the fake the cache's unit tests use keeps the contract, and runs the cache-backed
 * adapter without a real backend.
 */
import { runStorageConformance } from '../../storage-conformance/suite.js';
import { CacheBackedStorage } from '../../../src/storage/cacher/cache-backed-storage.js';
import { MemoryStorage } from './memory-storage.js';

/** `/conformance/<id>/...` → `/conformance/<id>/`: one cache per suite case. */
function caseCachePrefix(keyOrPrefix: string): string | undefined {
  const match = /^\/[^/]+\/[^/]+\//.exec(keyOrPrefix);
  return match?.[0];
}

runStorageConformance('memory (test fake)', async () => {
  const storage = new MemoryStorage();
  return { storage, cleanup: () => storage.close() };
});

runStorageConformance('memory behind the watch cache', async () => {
  const storage = new CacheBackedStorage(new MemoryStorage(), {
    cachePrefixOf: caseCachePrefix,
    cacher: { bookmarkIntervalMs: 50, futureRevisionWaitMs: 200 },
  });
  return { storage, cleanup: () => storage.close() };
});
