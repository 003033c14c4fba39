/** A read that tolerates absence: for callers asking whether an object exists (token lookups). */
import { isNotFound } from '../../api/errors.js';
import type { ReadRevision } from '../../storage/cacher/cache-types.js';
import type { KubeObject } from '../object.js';
import type { ResourceStore } from './resource-store.js';

/** The object, or undefined when it does not exist; other failures are thrown. By default the cache's current state. */
export async function getIfExists(store: ResourceStore, namespace: string, name: string, at: ReadRevision = { kind: 'any' }): Promise<KubeObject | undefined> {
  try {
    return await store.get(namespace, name, at);
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}
