/**
 * Point reads and prefix lists: one etcd Range each, at the current revision or a past one.
 */
import { invalid } from '../errors.js';
import type { GetResult, ListOptions, ListResult } from '../storage.js';
import type { EtcdConnection } from './etcd-connection.js';
import { keyBytes, prefixEnd } from './key-range.js';
import { toKeyValue } from './key-value.js';

/**
 * Reads one key.
 *
 * @throws StorageError 'compacted' / 'future-revision' for a revision outside history,
 *   'invalid' for a negative or fractional revision, 'unavailable' when etcd cannot answer.
 */
export async function getKey(conn: EtcdConnection, key: string, revision: number | undefined): Promise<GetResult> {
  const at = checkRevision(revision);
  const response = await conn.call(`get ${key}`, () => conn.kv.range({ key: keyBytes(key), revision: at }), {
    kind: 'read',
    ...(at > 0 ? { revision: at } : {}),
  });
  const current = conn.noteHeader(response.header);
  const first = response.kvs[0];
  return { kv: first === undefined ? undefined : toKeyValue(first), revision: at || current };
}

/**
 * Lists the keys under `prefix` from `startKey` (inclusive) on, at most `limit` of them.
 * `remaining` comes from etcd's count of the whole range, which ignores the limit.
 *
 * @throws StorageError 'invalid' when startKey is not under the prefix; otherwise as getKey.
 */
export async function listPrefix(conn: EtcdConnection, prefix: string, options: ListOptions = {}): Promise<ListResult> {
  const at = checkRevision(options.revision);
  const limit = options.limit ?? 0;
  if (!Number.isInteger(limit) || limit < 0) throw invalid(`list limit must be a non-negative integer, got ${limit}`);
  if (options.startKey !== undefined && !options.startKey.startsWith(prefix)) {
    throw invalid(`list start key ${options.startKey} is not under the prefix ${prefix}`);
  }
  const prefixBytes = rangeStart(prefix);
  const request = {
    key: options.startKey === undefined ? prefixBytes : keyBytes(options.startKey),
    range_end: prefixEnd(prefixBytes),
    revision: at,
    limit,
  };
  const response = await conn.call(`list ${prefix}`, () => conn.kv.range(request), { kind: 'read', ...(at > 0 ? { revision: at } : {}) });
  const current = conn.noteHeader(response.header);
  const kvs = response.kvs.map(toKeyValue);
  return { kvs, revision: at || current, remaining: Math.max(0, Number(response.count) - kvs.length) };
}

/** etcd rejects an empty key; the empty prefix means "every key", which starts at NUL. */
function rangeStart(prefix: string): Buffer {
  return prefix === '' ? Buffer.from([0]) : keyBytes(prefix);
}

/** 0 (etcd's "current") for an omitted revision. */
function checkRevision(revision: number | undefined): number {
  if (revision === undefined) return 0;
  if (!Number.isInteger(revision) || revision < 0) throw invalid(`revision must be a non-negative integer, got ${revision}`);
  return revision;
}
