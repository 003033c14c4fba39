/** The conformance suite against SqliteStorage, with the writer in a worker thread and inline. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Storage } from '../../src/storage/storage.js';
import { SqliteStorage } from '../../src/storage/sqlite/sqlite-storage.js';
import { runStorageConformance, type StorageFixture } from './suite.js';

for (const writer of ['worker', 'inline'] as const) {
  runStorageConformance(`sqlite (${writer} writer)`, async (): Promise<StorageFixture> => {
    const dataDir = await mkdtemp(join(tmpdir(), 'capstan-sqlite-conformance-'));
    let current: Storage = await SqliteStorage.open({ dataDir, writer });
    return {
      get storage() {
        return current;
      },
      reopen: async () => {
        await current.close();
        current = await SqliteStorage.open({ dataDir, writer });
        return current;
      },
      cleanup: async () => {
        await current.close();
        await rm(dataDir, { recursive: true, force: true });
      },
    };
  });
}
