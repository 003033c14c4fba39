/**
 * The etcd v3 backend of the storage contract, through the `etcd3` client library.
 *
 * Keys arrive already prefixed (the registry adds --store-prefix); values are stored as given.
 * Each operation lives in its own file (reads.ts, writes.ts, watch/); this class wires them to one
 * connection and keeps track of the watches it must end on close().
 */
import { Etcd3 } from 'etcd3';
import { invalid, StorageError, unavailable } from '../errors.js';
import type { GetResult, ListOptions, ListResult, Storage, Watch, WatchOptions, WriteResult } from '../storage.js';
import { EtcdConnection } from './etcd-connection.js';
import { classifyEtcdError } from './error-mapping.js';
import { resolveEtcdOptions, toEtcd3Options, type EtcdStorageOptions } from './options.js';
import { getKey, listPrefix } from './reads.js';
import { createKey, deleteKey, updateKey } from './writes.js';
import { EtcdWatch } from './watch/etcd-watch.js';
import { progressModeFor, type ProgressMode } from './watch/progress-mode.js';

export class EtcdStorage implements Storage {
  private readonly watches = new Set<EtcdWatch>();
  private progressMode: Promise<ProgressMode> | undefined;

  /** Use {@link EtcdStorage.open}; the constructor takes a ready connection (for tests). */
  constructor(private readonly conn: EtcdConnection) {}

  /**
   * Creates the client for the options. It connects lazily: an unreachable etcd shows up as
   * 'unavailable' from the operations and from checkHealth, never as a failed open.
   *
   * @throws StorageError('invalid') for bad options or unreadable TLS files.
   */
  static async open(options: EtcdStorageOptions): Promise<EtcdStorage> {
    const resolved = resolveEtcdOptions(options);
    const client = new Etcd3(await toEtcd3Options(options, resolved));
    return new EtcdStorage(new EtcdConnection(client, resolved));
  }

  get(key: string, revision?: number): Promise<GetResult> {
    return getKey(this.conn, key, revision);
  }

  list(prefix: string, options?: ListOptions): Promise<ListResult> {
    return listPrefix(this.conn, prefix, options);
  }

  create(key: string, value: Uint8Array): Promise<WriteResult> {
    return createKey(this.conn, key, value);
  }

  update(key: string, value: Uint8Array, expectedModRevision: number): Promise<WriteResult> {
    return updateKey(this.conn, key, value, expectedModRevision);
  }

  delete(key: string, expectedModRevision?: number): Promise<WriteResult> {
    return deleteKey(this.conn, key, expectedModRevision);
  }

  watch(prefix: string, fromRevision: number, options?: WatchOptions): Watch {
    if (!Number.isInteger(fromRevision) || fromRevision < 0) {
      throw invalid(`watch revision must be a non-negative integer, got ${fromRevision}`);
    }
    const watch = new EtcdWatch(this.conn, {
      prefix,
      fromRevision,
      ...(options?.signal === undefined ? {} : { signal: options.signal }),
      progressMode: () => this.resolveProgressMode(),
      onEnd: () => this.watches.delete(watch),
    });
    if (this.conn.isClosed) watch.abort();
    else this.watches.add(watch);
    return watch;
  }

  /** A consistent read; writes this client issues after the call get higher revisions. */
  currentRevision(): Promise<number> {
    return this.conn.currentRevisionHoldingWrites();
  }

  compactedRevision(): Promise<number> {
    return this.conn.compaction.compactedRevision();
  }

  /**
   * Compacts etcd's history (the Compact RPC, not waiting for the physical cleanup). Compacting
   * to a revision at or below an earlier compaction changes nothing and succeeds.
   *
   * @throws StorageError 'future-revision' above the current revision, 'invalid' below 1.
   */
  async compact(revision: number): Promise<void> {
    if (!Number.isInteger(revision) || revision < 1) {
      throw invalid(`compaction revision must be a positive integer, got ${revision}`);
    }
    try {
      const response = await this.conn.call(`compact at ${revision}`, () => this.conn.kv.compact({ revision }), {
        kind: 'write',
        revision,
      });
      this.conn.noteHeader(response.header);
    } catch (err) {
      if (!(err instanceof StorageError && err.code === 'compacted')) throw err;
    }
    this.conn.compaction.noteCompaction(revision);
  }

  /**
   * A linearizable read that must answer within --store-healthcheck-timeout (what upstream's
   * etcd health check does), or sooner when the signal aborts.
   */
  async checkHealth(signal?: AbortSignal): Promise<void> {
    const timeout = this.conn.options.healthcheckTimeoutMs;
    const servers = this.conn.options.serversText;
    if (signal?.aborted) throw unavailable(`health check of etcd at ${servers} aborted`);
    const deadline = Date.now() + timeout;
    let onAbort: (() => void) | undefined;
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => reject(unavailable(`health check of etcd at ${servers} aborted`));
      signal?.addEventListener('abort', onAbort, { once: true });
    });
    try {
      await Promise.race([
        // Any member that answers in time will do; retries share the one deadline.
        this.conn.call(`health check (timeout ${timeout} ms)`, () => this.conn.rangeProbe({}, deadline), { kind: 'read' }),
        aborted,
      ]);
    } finally {
      if (onAbort !== undefined) signal?.removeEventListener('abort', onAbort);
      aborted.catch(() => undefined);
    }
  }

  async close(): Promise<void> {
    for (const watch of this.watches) watch.abort();
    this.watches.clear();
    this.conn.close();
  }

  /** Asks the server's version once; an unknown version gets the mode that is safe everywhere. */
  private resolveProgressMode(): Promise<ProgressMode> {
    this.progressMode ??= this.conn.maintenance.status().then(
      (status) => progressModeFor(status.version),
      (err: unknown) => {
        // Unreachable: ask again next time; anything else (e.g. no permission): stay safe.
        if (classifyEtcdError(err) === 'unreachable') this.progressMode = undefined;
        return 'verified' as const;
      },
    );
    return this.progressMode;
  }
}
