/**
 * metadata.finalizers: each a qualified name; `orphan` and `foregroundDeletion` exclude each
 * other; none may be added once deletion has begun.
 */
import type { FieldError } from '../api/errors.js';
import { fieldForbidden, fieldInvalid, goStringSlice } from './field-errors.js';
import { isQualifiedName } from './qualified-names.js';

export const FINALIZER_ORPHAN_DEPENDENTS = 'orphan';
export const FINALIZER_DELETE_DEPENDENTS = 'foregroundDeletion';

export function validateFinalizers(finalizers: readonly string[] | null | undefined, field: string): FieldError[] {
  const list = finalizers ?? [];
  const errs: FieldError[] = [];
  for (const finalizer of list) for (const msg of isQualifiedName(finalizer)) errs.push(fieldInvalid(field, finalizer, msg));
  if (list.includes(FINALIZER_ORPHAN_DEPENDENTS) && list.includes(FINALIZER_DELETE_DEPENDENTS)) {
    errs.push(fieldInvalid(field, list, `finalizer ${FINALIZER_ORPHAN_DEPENDENTS} and ${FINALIZER_DELETE_DEPENDENTS} cannot be both set`));
  }
  return errs;
}

/** While an object is being deleted its finalizers may only be removed. */
export function validateNoNewFinalizers(next: readonly string[] | null | undefined, previous: readonly string[] | null | undefined, field: string): FieldError[] {
  const old = new Set(previous ?? []);
  const added = [...new Set((next ?? []).filter((f) => !old.has(f)))].sort();
  if (added.length === 0) return [];
  return [fieldForbidden(field, `no new finalizers can be added if the object is being deleted, found new finalizers ${goStringSlice(added).text}`)];
}
