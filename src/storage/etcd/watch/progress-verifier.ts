/**
 * The check behind the 'verified' progress mode (progress-mode.ts): did anything under a key range
 * change between revision `from` (exclusive) and `to` (inclusive)?
 *
 * Three reads answer it. (1) Keys live at `to` whose mod_revision is above `from`: any of them is
 * a put in the window. (2) and (3) The number of keys at `from` and at `to`: with no put in the
 * window, the live keys at `to` are a subset of those at `from`, so equal counts mean no delete
 * either.
 *
 * Two gaps, both about events that are old or in flight rather than missing from the store:
 * - A key both created and deleted inside the window leaves no trace at `to`. If its two events
 *   are still in flight when the progress is reported, they arrive below the reported revision.
 *   EtcdWatch then ends the watch as 'compacted', so that its consumer lists again rather than
 *   miss them (test/storage/etcd/progress.test.ts holds two events back to show it).
 * - When `from` has been compacted (an idle prefix whose watch has seen nothing since before the
 *   last compaction), count (2) is taken at the compacted revision instead. A delete between
 *   `from` and that revision is then invisible; it happened before the compaction, so the watch,
 *   which has been connected since before it (else it would have failed as compacted), has had
 *   that event long ago.
 */
import { isStorageError } from '../../errors.js';
import type { EtcdConnection } from '../etcd-connection.js';

export interface KeyRange {
  readonly key: Buffer;
  readonly rangeEnd: Buffer;
}

const WHAT = 'verify watch progress';

/**
 * True when the range shows no put and no net delete in (from, to].
 *
 * @throws StorageError when etcd cannot answer.
 */
export async function rangeUnchanged(conn: EtcdConnection, range: KeyRange, from: number, to: number): Promise<boolean> {
  const base = { key: range.key, range_end: range.rangeEnd };
  const count = async (revision: number) =>
    Number((await conn.call(WHAT, () => conn.kv.range({ ...base, revision, count_only: true }), { kind: 'read', revision })).count);
  const [puts, after, before] = await Promise.all([
    conn.call(WHAT, () => conn.kv.range({ ...base, revision: to, keys_only: true, min_mod_revision: from + 1, limit: 1 }), {
      kind: 'read',
      revision: to,
    }),
    count(to),
    count(from).catch(async (err: unknown) => {
      if (!isStorageError(err, 'compacted')) throw err;
      return count(Math.min(to, await conn.compaction.compactedRevision()));
    }),
  ]);
  return puts.kvs.length === 0 && before === after;
}
