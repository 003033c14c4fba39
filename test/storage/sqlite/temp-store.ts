/** Test helper: a SqliteStorage in a fresh temporary data directory, removed afterwards. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteStorage } from '../../../src/storage/sqlite/sqlite-storage.js';
import type { SqliteStorageOptions } from '../../../src/storage/sqlite/sqlite-options.js';

export async function tempDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'capstan-sqlite-test-'));
}

/** Opens a store in a new directory, runs `body`, then closes the store and removes the directory. */
export async function withTempStore(
  options: Omit<SqliteStorageOptions, 'dataDir'>,
  body: (store: SqliteStorage, dataDir: string) => Promise<void>,
): Promise<void> {
  const dataDir = await tempDir();
  const store = await SqliteStorage.open({ ...options, dataDir });
  try {
    await body(store, dataDir);
  } finally {
    await store.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

export function bytes(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}
