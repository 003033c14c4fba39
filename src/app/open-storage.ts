/**
 * Chooses the backend from the options: etcd when --store-servers names servers, otherwise the
 * embedded SQLite store in the data directory.
 */
import { join } from 'node:path';
import type { StoreOptions } from '../cli/options.js';
import type { Logger } from '../server/logger.js';
import { SqliteStorage } from '../storage/sqlite/sqlite-storage.js';
import { discardPrestartedWriterThread } from '../storage/sqlite/writer-thread.js';
import type { Storage } from '../storage/storage.js';

export async function openStorage(store: StoreOptions, dataDir: string, logger: Logger): Promise<Storage> {
  if (store.servers.length > 0) {
    discardPrestartedWriterThread();
    // Loaded only when used: the etcd client and its gRPC stack take longer to load than the
    // whole embedded-store server takes to start.
    const { EtcdStorage } = await import('../storage/etcd/etcd-storage.js');
    return EtcdStorage.open({
      servers: store.servers,
      ...(store.caFile || store.certFile || store.keyFile
        ? { tls: { caFile: store.caFile, certFile: store.certFile, keyFile: store.keyFile } }
        : {}),
      healthcheckTimeoutMs: store.healthcheckTimeoutMs,
    });
  }
  return SqliteStorage.open({
    dataDir: join(dataDir, 'store'),
    logger: { error: (message: string, details?: Record<string, unknown>) => logger.error(details ? `${message} ${JSON.stringify(details)}` : message) },
  });
}
