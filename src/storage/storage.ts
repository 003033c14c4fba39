/**
 * The storage contract: a key-value store with the semantics of etcd v3.
 *
 * There is one cluster-wide revision that every write increases by exactly one. A key's
 * `modRevision` is the revision of its last write and `createRevision` the revision that created
 * it. History is kept for every revision after the last compaction, so reads and watches can start
 * at any such revision. The storage knows bytes, keys and revisions only: nothing of HTTP, of
 * resource types or of encodings.
 *
 * Every method fails with a {@link StorageError} (see errors.ts) and nothing else.
 */

/** One key at one revision. `value` is the stored bytes; treat it as immutable. */
export interface KeyValue {
  readonly key: string;
  readonly value: Uint8Array;
  readonly createRevision: number;
  readonly modRevision: number;
}

/** No bytes: the value of a deleted key. Shared; never written to. */
export const NO_VALUE = new Uint8Array(0);

/** A deleted key as a delete event carries it, as etcd does: no value, createRevision 0, the delete's revision. */
export function deletedKeyValue(key: string, revision: number): KeyValue {
  return { key, value: NO_VALUE, createRevision: 0, modRevision: revision };
}

/** Result of a point read. `revision` is the store revision the read was served at. */
export interface GetResult {
  readonly kv: KeyValue | undefined;
  readonly revision: number;
}

export interface ListOptions {
  /** Read at this past revision; omitted means the current revision. */
  readonly revision?: number;
  /** Return at most this many keys (0 or omitted: no limit). */
  readonly limit?: number;
  /** First key to return (inclusive); must lie under the prefix. Omitted: the prefix's first key. */
  readonly startKey?: string;
  /**
   * False when the caller only needs to know whether more keys follow (a full read page by page):
   * `remaining` may then be any number >= 1 when the limit cut the list (counting the rest of a
   * large prefix on every page costs more than reading it). Default true.
   */
  readonly countRemaining?: boolean;
}

export interface ListResult {
  /** Keys in ascending byte order. */
  readonly kvs: readonly KeyValue[];
  /** The revision the list was read at (the current one when none was asked for). */
  readonly revision: number;
  /** Number of keys under the prefix at or after `startKey` that were not returned because of the limit. */
  readonly remaining: number;
}

/** The outcome of a successful write. */
export interface WriteResult {
  /** The revision this write created. */
  readonly revision: number;
  /** The key as it is after the write (for deletes: the value it had before). */
  readonly kv: KeyValue;
}

export type WatchEventType = 'put' | 'delete';

/**
 * One change. For a put, `kv` is the new value and `prevKv` the previous one (absent on create).
 * For a delete, `kv` has the key, an empty value and `modRevision` = the delete's revision, and
 * `prevKv` holds the value that was deleted.
 */
export interface WatchEvent {
  readonly type: WatchEventType;
  readonly kv: KeyValue;
  readonly prevKv: KeyValue | undefined;
}

/**
 * What a watch delivers: the changes under the prefix in revision order, and `revision`, the store
 * revision up to which this watcher has been told everything (at least the last event's
 * modRevision). A batch with no events is a progress notification: nothing under the prefix
 * changed up to `revision`.
 */
export interface WatchBatch {
  readonly events: readonly WatchEvent[];
  readonly revision: number;
}

export interface WatchOptions {
  /** Ends the watch; the iterator then finishes without error. */
  readonly signal?: AbortSignal;
}

/**
 * A running watch. Iterate it for batches; it ends when the signal aborts, and throws a
 * StorageError ('compacted' when fromRevision is below the compacted revision, 'unavailable' when
 * the store cannot be reached for good).
 */
export interface Watch extends AsyncIterable<WatchBatch> {
  /**
   * Asks the store for a progress notification: a batch (possibly without events) whose revision
   * is at least the store's current revision at the time of the call. Used for consistent reads
   * from a cache.
   */
  requestProgress(): void;
}

export interface Storage {
  /** Reads one key at the current revision or at a past one. */
  get(key: string, revision?: number): Promise<GetResult>;
  /** Reads keys under a prefix (a plain string prefix, normally ending in '/'). */
  list(prefix: string, options?: ListOptions): Promise<ListResult>;
  /** Creates a key; fails with 'key-exists' if it is present. */
  create(key: string, value: Uint8Array): Promise<WriteResult>;
  /**
   * Replaces a key's value if its modRevision equals `expectedModRevision`; fails with 'not-found'
   * if the key is absent and 'conflict' if it was changed since.
   */
  update(key: string, value: Uint8Array, expectedModRevision: number): Promise<WriteResult>;
  /**
   * Deletes a key, if given only when its modRevision equals `expectedModRevision`; fails with
   * 'not-found' or 'conflict'.
   */
  delete(key: string, expectedModRevision?: number): Promise<WriteResult>;
  /** Delivers every change under the prefix after `fromRevision` (0: from the current revision). */
  watch(prefix: string, fromRevision: number, options?: WatchOptions): Watch;
  /** The store's current revision (a consistent read). */
  currentRevision(): Promise<number>;
  /**
   * The current revision when the store knows it without a round trip, else undefined. An
   * embedded store sees every write itself and always knows it; a store that other servers also
   * write to (etcd) does not, and leaves this out.
   */
  knownCurrentRevision?(): number | undefined;
  /** The oldest revision that can still be read (everything below was compacted). */
  compactedRevision(): Promise<number>;
  /** Discards history older than `revision`; reads and watches below it then fail with 'compacted'. */
  compact(revision: number): Promise<void>;
  /** Resolves when the store answers, rejects with 'unavailable' otherwise (for /readyz). */
  checkHealth(signal?: AbortSignal): Promise<void>;
  /** Releases every resource; ends all watches. */
  close(): Promise<void>;
}
