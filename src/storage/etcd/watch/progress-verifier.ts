/**
 * The check behind the 'verified' progress mode (progress-mode.ts): did anything under a key range
 * change between revision `from` (exclusive) and `to` (inclusive)?
 *
 * Three reads answer it. (1) Keys live at `to` whose mod_revision is above `from`: any of them is
 * a put in the window. (2) and (3) The number of keys at `from` and at `to`: with no put in the
 * window, the live keys at `to` are a subset of those at `from`, so equal counts mean no delete
 * either. What the reads cannot see is a key both created and deleted inside the window; its two
 * events would reach the watch after a progress report that skipped them, and EtcdWatch drops
 * events at or below a reported revision rather than deliver them out of order. Only etcd versions
 * that need this mode are exposed to that, and only for events already in flight at the request.
 */
import type { EtcdConnection } from '../etcd-connection.js';

export interface KeyRange {
  readonly key: Buffer;
  readonly rangeEnd: Buffer;
}

/**
 * True when the range shows no put and no net delete in (from, to].
 *
 * @throws StorageError ('compacted' when `from` was compacted, 'unavailable', ...).
 */
export async function rangeUnchanged(conn: EtcdConnection, range: KeyRange, from: number, to: number): Promise<boolean> {
  const what = 'verify watch progress';
  const base = { key: range.key, range_end: range.rangeEnd };
  const [puts, before, after] = await Promise.all([
    conn.call(what, () => conn.kv.range({ ...base, revision: to, keys_only: true, min_mod_revision: from + 1, limit: 1 }), to),
    conn.call(what, () => conn.kv.range({ ...base, revision: from, count_only: true }), from),
    conn.call(what, () => conn.kv.range({ ...base, revision: to, count_only: true }), to),
  ]);
  return puts.kvs.length === 0 && before.count === after.count;
}
