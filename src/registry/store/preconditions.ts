/**
 * Preconditions of a read-modify-write, as upstream's storage.Preconditions: the write applies
 * only to the object with this uid and at this resourceVersion. Unlike a resourceVersion left in
 * the updated object (409 "the object has been modified"), a failed precondition is the storage
 * layer's invalid-object error, and clients see its text, key and all:
 *   Operation cannot be fulfilled on pods "p": StorageError: invalid object, Code: 4,
 *   Key: /registry/pods/ns/p, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: ...
 */
import { conflict } from '../../api/errors.js';
import { metaOf, type KubeObject } from '../object.js';
import { refOf, type StoreContext } from './store-context.js';

export interface Preconditions {
  readonly uid?: string;
  readonly resourceVersion?: string;
}

/** upstream's storage.ErrCodeInvalidObj, printed in the message. */
const INVALID_OBJECT_CODE = 4;

/** Throws 409 Conflict when `stored` (at `key`) fails a precondition; uid is checked first. */
export function checkPreconditions(ctx: StoreContext, key: string, stored: KubeObject, preconditions: Preconditions | undefined): void {
  const meta = metaOf(stored);
  const failed = failedPrecondition(preconditions, meta.uid ?? '', meta.resourceVersion ?? '');
  if (failed === undefined) return;
  const storageError = `StorageError: invalid object, Code: ${INVALID_OBJECT_CODE}, Key: ${key}, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: ${failed}`;
  throw conflict(refOf(ctx, meta.name ?? ''), storageError);
}

function failedPrecondition(preconditions: Preconditions | undefined, uid: string, resourceVersion: string): string | undefined {
  if (preconditions?.uid !== undefined && preconditions.uid !== uid) {
    return `UID in precondition: ${preconditions.uid}, UID in object meta: ${uid}`;
  }
  if (preconditions?.resourceVersion !== undefined && preconditions.resourceVersion !== resourceVersion) {
    return `ResourceVersion in precondition: ${preconditions.resourceVersion}, ResourceVersion in object meta: ${resourceVersion}`;
  }
  return undefined;
}
