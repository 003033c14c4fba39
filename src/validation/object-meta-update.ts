/**
 * ObjectMeta on update, as upstream's ValidateObjectMetaAccessorUpdate: a resourceVersion is
 * required, generation may not go down, identity and deletion fields are immutable (`field is
 * immutable`), no finalizer may be added once deletion began, and the new labels, annotations,
 * ownerReferences and managedFields must be valid.
 */
import type { FieldError } from '../api/errors.js';
import { fieldInvalid } from './field-errors.js';
import { validateNoNewFinalizers } from './finalizers.js';
import { validateAnnotations, validateLabels } from './labels-annotations.js';
import { validateManagedFields } from './managed-fields.js';
import type { ObjectMetaInput } from './metadata-input.js';
import { validateOwnerReferences } from './owner-references.js';

/** Upstream's message for a changed immutable field. */
export const FIELD_IMMUTABLE_ERROR = 'field is immutable';

/**
 * A timestamp as a metav1.Time holds it and encoding/json writes it in messages: RFC 3339 in UTC,
 * to the second (`2026-11-21T08:42:17Z`), or null for none (the zero time).
 */
function jsonTime(timestamp: string | null | undefined): string | null {
  const ms = timestamp ? Date.parse(timestamp) : NaN;
  return Number.isNaN(ms) ? null : `${new Date(ms).toISOString().slice(0, 19)}Z`;
}

function immutable(field: string, next: unknown, previous: unknown, shown: unknown = next): FieldError[] {
  return next === previous ? [] : [fieldInvalid(field, shown, FIELD_IMMUTABLE_ERROR)];
}

/**
 * Problems with `next` replacing `previous`, in upstream's order, with paths under `path` (default
 * `metadata`). Empty when valid. Modifies neither.
 */
export function validateObjectMetaUpdate(next: ObjectMetaInput, previous: ObjectMetaInput, path = 'metadata'): FieldError[] {
  const errs: FieldError[] = [];
  if (previous.deletionTimestamp) errs.push(...validateNoNewFinalizers(next.finalizers, previous.finalizers, `${path}.finalizers`));
  if ((next.resourceVersion ?? '') === '') errs.push(fieldInvalid(`${path}.resourceVersion`, next.resourceVersion ?? '', 'must be specified for an update'));
  if ((next.generation ?? 0) < (previous.generation ?? 0)) errs.push(fieldInvalid(`${path}.generation`, next.generation ?? 0, 'must not be decremented'));
  const deletion = (m: ObjectMetaInput): string | null => jsonTime(m.deletionTimestamp);
  const grace = (m: ObjectMetaInput): number | null => m.deletionGracePeriodSeconds ?? null;
  errs.push(
    ...immutable(`${path}.name`, next.name ?? '', previous.name ?? ''),
    ...immutable(`${path}.namespace`, next.namespace ?? '', previous.namespace ?? ''),
    ...immutable(`${path}.uid`, next.uid ?? '', previous.uid ?? ''),
    ...immutable(`${path}.creationTimestamp`, jsonTime(next.creationTimestamp), jsonTime(previous.creationTimestamp)),
    ...immutable(`${path}.deletionTimestamp`, deletion(next), deletion(previous)),
    ...immutable(`${path}.deletionGracePeriodSeconds`, grace(next), grace(previous)),
    ...validateLabels(next.labels, `${path}.labels`),
    ...validateAnnotations(next.annotations, `${path}.annotations`),
    ...validateOwnerReferences(next.ownerReferences, `${path}.ownerReferences`),
    ...validateManagedFields(next.managedFields, `${path}.managedFields`),
  );
  return errs;
}
