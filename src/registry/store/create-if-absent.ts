/**
 * What the server's own bootstrap and controllers do with the objects every cluster has (system
 * namespaces, a namespace's defaults, the kubernetes Service): create one when it is absent. A
 * replica starting alongside may create it first; its AlreadyExists means the object is there.
 */
import { ApiError } from '../../api/errors.js';
import type { ReadRevision } from '../../storage/cacher/cache-types.js';
import { metaOf, type KubeObject } from '../object.js';
import type { ResourceStore } from './resource-store.js';

/**
 * Creates `object` in `namespace` unless an object of its name exists. Returns the existing
 * object, or undefined when it was created now (or by a racing writer). Other errors are thrown.
 */
export async function createIfAbsent(
  store: ResourceStore,
  namespace: string,
  object: KubeObject,
  at: ReadRevision = { kind: 'consistent' },
): Promise<KubeObject | undefined> {
  try {
    return await store.get(namespace, metaOf(object).name!, at);
  } catch (err) {
    if (!isCode(err, 404)) throw err;
  }
  try {
    await store.create(namespace, structuredClone(object), { dryRun: false, subresource: '' });
  } catch (err) {
    if (!isCode(err, 409)) throw err;
  }
  return undefined;
}

function isCode(err: unknown, code: number): boolean {
  return err instanceof ApiError && err.code === code;
}
