/**
 * The conformance suite against the watch cache: a CacheBackedStorage (reads, watches and
 * revisions served by Cachers) over a SqliteStorage. One cache per suite case prefix
 * (`/conformance/<id>/`), created by the case's first operation, so every write is in its window.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CacheBackedStorage } from '../../src/storage/cacher/cache-backed-storage.js';
import { SqliteStorage } from '../../src/storage/sqlite/sqlite-storage.js';
import type { Storage } from '../../src/storage/storage.js';
import { runStorageConformance, type StorageFixture } from './suite.js';

/** `/conformance/<id>/anything` → `/conformance/<id>/`. */
function caseCachePrefix(keyOrPrefix: string): string | undefined {
  return /^\/[^/]+\/[^/]+\//.exec(keyOrPrefix)?.[0];
}

function cached(storage: Storage): CacheBackedStorage {
  return new CacheBackedStorage(storage, {
    cachePrefixOf: caseCachePrefix,
    // A read at a future revision fails at once in the adapter; keep the other waits short too.
    cacher: { futureRevisionWaitMs: 500, bookmarkIntervalMs: 100 },
  });
}

runStorageConformance('watch cache over sqlite', async (): Promise<StorageFixture> => {
  const dataDir = await mkdtemp(join(tmpdir(), 'capstan-cacher-conformance-'));
  let current = cached(await SqliteStorage.open({ dataDir, writer: 'inline' }));
  return {
    get storage() {
      return current;
    },
    reopen: async () => {
      await current.close();
      current = cached(await SqliteStorage.open({ dataDir, writer: 'inline' }));
      return current;
    },
    cleanup: async () => {
      await current.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
});
