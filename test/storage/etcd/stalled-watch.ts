/**
 * Puts an etcd watch in the state of a consumer that has stopped reading: its queue full, its
 * stream asked to pause. Each update is awaited until the watch has taken it in, so that etcd sends
 * it alone and it becomes one batch (events sent together would make one batch).
 */
import { setTimeout as delay } from 'node:timers/promises';
import { QUEUE_HIGH_WATER, type EtcdWatch } from '../../../src/storage/etcd/watch/etcd-watch.js';
import type { Storage } from '../../../src/storage/storage.js';

const POLL_MS = 5;
const WAIT_MS = 10_000;

/** Resolves once `condition` holds; throws naming `what` when it still does not after 10 s. */
export async function waitUntil(what: string, condition: () => boolean): Promise<void> {
  for (const end = Date.now() + WAIT_MS; !condition(); await delay(POLL_MS)) {
    if (Date.now() > end) throw new Error(`still not true after ${WAIT_MS} ms: ${what}`);
  }
}

/**
 * Updates `key` (at `modRevision` now) until `watch` holds a full queue. The watch must start at
 * `modRevision` with one read pending, which takes the first update. Returns the revisions.
 */
export async function fillUntilPaused(store: Storage, watch: EtcdWatch, key: string, modRevision: number): Promise<number[]> {
  const revisions: number[] = [];
  for (let mod = modRevision; revisions.length <= QUEUE_HIGH_WATER; revisions.push(mod)) {
    mod = (await store.update(key, new TextEncoder().encode(String(revisions.length)), mod)).revision;
    await waitUntil(`the watch took in revision ${mod}`, () => watch.lastRevision >= mod);
  }
  return revisions;
}
