/**
 * metadata.ownerReferences: each needs apiVersion (with a version), kind, name and uid; Events may
 * not own anything; at most one reference may be the controller. Messages and paths as upstream's
 * (paths name the list, not the index).
 */
import type { FieldError } from '../api/errors.js';
import { fieldInvalid } from './field-errors.js';
import type { OwnerReferenceInput } from './metadata-input.js';

/** Group/version of an apiVersion as upstream parses it; empty when it cannot be parsed. */
function groupVersion(apiVersion: string): { group: string; version: string } {
  const parts = apiVersion.split('/');
  if (apiVersion === '' || apiVersion === '/' || parts.length > 2) return { group: '', version: '' };
  return parts.length === 1 ? { group: '', version: apiVersion } : { group: parts[0]!, version: parts[1]! };
}

/** The reference as encoding/json writes a metav1.OwnerReference: its fields in order, unset pointers left out. */
function jsonOwnerReference(ref: OwnerReferenceInput): Record<string, unknown> {
  return {
    apiVersion: ref.apiVersion ?? '',
    kind: ref.kind ?? '',
    name: ref.name ?? '',
    uid: ref.uid ?? '',
    ...(ref.controller !== null && ref.controller !== undefined ? { controller: ref.controller } : {}),
    ...(ref.blockOwnerDeletion !== null && ref.blockOwnerDeletion !== undefined ? { blockOwnerDeletion: ref.blockOwnerDeletion } : {}),
  };
}

function validateOwnerReference(ref: OwnerReferenceInput, field: string): FieldError[] {
  const errs: FieldError[] = [];
  const gv = groupVersion(ref.apiVersion ?? '');
  const kind = ref.kind ?? '';
  if (gv.version === '') errs.push(fieldInvalid(`${field}.apiVersion`, ref.apiVersion ?? '', 'version must not be empty'));
  if (kind === '') errs.push(fieldInvalid(`${field}.kind`, kind, 'kind must not be empty'));
  if ((ref.name ?? '') === '') errs.push(fieldInvalid(`${field}.name`, ref.name ?? '', 'name must not be empty'));
  if ((ref.uid ?? '') === '') errs.push(fieldInvalid(`${field}.uid`, ref.uid ?? '', 'uid must not be empty'));
  if (gv.group === '' && gv.version === 'v1' && kind === 'Event') {
    errs.push(fieldInvalid(field, jsonOwnerReference(ref), '/v1, Kind=Event is disallowed from being an owner'));
  }
  return errs;
}

export function validateOwnerReferences(refs: readonly OwnerReferenceInput[] | null | undefined, field: string): FieldError[] {
  const errs: FieldError[] = [];
  let firstController = '';
  for (const ref of refs ?? []) {
    errs.push(...validateOwnerReference(ref, field));
    if (ref.controller !== true) continue;
    const current = `${ref.kind ?? ''}/${ref.name ?? ''}`;
    if (firstController === '') {
      firstController = current;
      continue;
    }
    const all = (refs ?? []).map(jsonOwnerReference);
    errs.push(fieldInvalid(field, all, `Only one reference can have Controller set to true. Found "true" in references for ${firstController} and ${current}`));
  }
  return errs;
}
