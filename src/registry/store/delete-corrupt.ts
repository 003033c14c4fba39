/**
 * The unsafe delete of a corrupt object (DeleteOptions.ignoreStoreReadErrorWithClusterBreakingPotential):
 * removes a key whose stored bytes no longer decode, which no other verb can touch because each
 * starts by reading the object. As upstream it is for corrupt objects only: a readable (or absent)
 * object is refused with 422, and the normal delete is tried first, so that an object repaired in
 * the meantime still goes through its finalizers. The forced removal skips preconditions,
 * finalizers and the strategy's after-delete work: there is no object to give them.
 */
import { fromStorageError, invalid } from '../../api/errors.js';
import { isStorageError } from '../../storage/errors.js';
import type { KeyValue } from '../../storage/storage.js';
import { fieldInvalid } from '../../validation/field-errors.js';
import { decodeFromStorage } from '../object-codec.js';
import type { KubeObject } from '../object.js';
import { deleteObject } from './delete.js';
import { objectKey, refOf, type StoreContext } from './store-context.js';

/** The delete option, as its errors name it. */
export const IGNORE_STORE_READ_ERROR = 'ignoreStoreReadErrorWithClusterBreakingPotential';

export interface CorruptDeleteResult {
  /**
   * The object as the normal delete left it when it could read it after all; undefined when the
   * corrupt value was removed (there is no object to show).
   */
  readonly object: KubeObject | undefined;
  /** True when the key is gone from storage; false when someone else removed it first. */
  readonly deleted: boolean;
}

/**
 * Deletes the object `name` whose stored value cannot be decoded. Throws 422 when the value is
 * readable, absent or cannot be read at all (upstream's answer for anything but a corrupt object),
 * the normal delete's error when that fails for another reason than the corrupt value, and 409
 * when the value changed between being found corrupt and being removed.
 */
export async function deleteCorruptObject(ctx: StoreContext, namespace: string, name: string): Promise<CorruptDeleteResult> {
  const key = objectKey(ctx, namespace, name);
  if ((await corruptValue(ctx, key)) === undefined) throw notCorrupt(ctx, name);
  try {
    return await deleteObject(ctx, namespace, name, { dryRun: false });
  } catch (err) {
    // The normal delete fails on its first read of a corrupt value; any other failure is its own.
    const corrupt = await corruptValue(ctx, key);
    if (corrupt === undefined) throw err;
    return removeValue(ctx, corrupt, name);
  }
}

/**
 * The key's value if it is stored but does not decode; undefined when it decodes, is absent, or
 * the storage cannot be read (none of these is a corrupt object).
 */
async function corruptValue(ctx: StoreContext, key: string): Promise<KeyValue | undefined> {
  let kv: KeyValue | undefined;
  try {
    kv = (await ctx.storage.get(key)).kv;
  } catch {
    return undefined;
  }
  if (kv === undefined) return undefined;
  try {
    decodeFromStorage(kv);
    return undefined;
  } catch (err) {
    if (isStorageError(err, 'corrupt')) return kv;
    throw err;
  }
}

/**
 * Removes the corrupt value, only if it is still the one found corrupt: a value written since may
 * be readable, and deleting it unseen would skip its finalizers.
 */
async function removeValue(ctx: StoreContext, corrupt: KeyValue, name: string): Promise<CorruptDeleteResult> {
  try {
    await ctx.storage.delete(corrupt.key, corrupt.modRevision);
    return { object: undefined, deleted: true };
  } catch (err) {
    if (isStorageError(err, 'not-found')) return { object: undefined, deleted: false };
    throw fromStorageError(err, refOf(ctx, name));
  }
}

/** Upstream words the refusal with the resource where an Invalid error normally has the kind. */
function notCorrupt(ctx: StoreContext, name: string): Error {
  const d = ctx.definition;
  const why = fieldInvalid(IGNORE_STORE_READ_ERROR, true, 'is exclusively used to delete corrupt object(s), try again by removing this option');
  return invalid(d.resource, d.group, name, [why]);
}
