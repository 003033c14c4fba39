/**
 * The stores the benchmark compares, each opened fresh on its own data: SQLite in a temporary
 * directory, etcd as a real process started by the test harness (own ports, own data directory).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EtcdStorage } from '../../src/storage/etcd/etcd-storage.js';
import { SqliteStorage } from '../../src/storage/sqlite/sqlite-storage.js';
import type { Storage } from '../../src/storage/storage.js';
import { EtcdProcess, etcdUnavailableReason } from '../../test/storage-conformance/etcd-process.js';

export interface BenchBackend {
  readonly name: string;
  readonly storage: Storage;
  /** Closes the store and removes its data. */
  close(): Promise<void>;
}

/** A backend that could not be opened, and why. */
export interface MissingBackend {
  readonly name: string;
  readonly reason: string;
}

export type BackendOpener = () => Promise<BenchBackend | MissingBackend>;

/** SQLite with its defaults (durable: every acknowledged write is fsynced). */
export const openSqlite: BackendOpener = async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'capstan-bench-sqlite-'));
  try {
    const storage = await SqliteStorage.open({ dataDir });
    return {
      name: 'sqlite',
      storage,
      close: async () => {
        await storage.close();
        await rm(dataDir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    await rm(dataDir, { recursive: true, force: true });
    return { name: 'sqlite', reason: `cannot open: ${String(err)}` };
  }
};

/** One etcd member with its defaults (fsync on every commit) and the etcd backend on it. */
export const openEtcd: BackendOpener = async () => {
  const missing = etcdUnavailableReason();
  if (missing !== undefined) return { name: 'etcd', reason: missing };
  const etcd = await EtcdProcess.launch();
  const storage = await EtcdStorage.open({ servers: [etcd.endpoint] });
  return {
    name: 'etcd',
    storage,
    close: async () => {
      await storage.close();
      await etcd.dispose();
    },
  };
};

export function isMissing(backend: BenchBackend | MissingBackend): backend is MissingBackend {
  return 'reason' in backend;
}
