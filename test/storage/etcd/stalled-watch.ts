/**
 * Puts an etcd watch in the state of a consumer that has stopped reading: its queue full, its
 * stream asked to pause. Each update is awaited until the watch has taken it in, so that etcd sends
 * it alone and it becomes one batch (events sent together would make one batch).
 */
import { QUEUE_HIGH_WATER, type EtcdWatch } from '../../../src/storage/etcd/watch/etcd-watch.js';
import type { Storage } from '../../../src/storage/storage.js';
import { eventually } from '../../eventually.js';

/** How long to wait for etcd to deliver: a round trip, but on a loaded CI machine. */
export const ETCD_WAIT_MS = 10_000;

/**
 * Updates `key` (at `modRevision` now) until `watch` holds a full queue. The watch must start at
 * `modRevision` with one read pending, which takes the first update. Returns the revisions.
 */
export async function fillUntilPaused(store: Storage, watch: EtcdWatch, key: string, modRevision: number): Promise<number[]> {
  const revisions: number[] = [];
  for (let mod = modRevision; revisions.length <= QUEUE_HIGH_WATER; revisions.push(mod)) {
    mod = (await store.update(key, new TextEncoder().encode(String(revisions.length)), mod)).revision;
    await eventually(`the watch took in revision ${mod}`, () => watch.lastRevision >= mod, ETCD_WAIT_MS);
  }
  return revisions;
}
