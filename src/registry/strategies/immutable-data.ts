/**
 * The `immutable: true` contract of ConfigMaps and Secrets: once set, the payload fields may not
 * change and the flag may not be cleared (kubelets stop watching such objects, so a change would
 * never reach the pods that use them).
 */
import type { FieldError } from '../../api/errors.js';
import { jsonEqual, type KubeObject } from '../object.js';
import { fieldForbidden } from '../../validation/field-errors.js';

const IMMUTABLE_MESSAGE = 'field is immutable when `immutable` is set';

/** Field errors of an update of an object whose old version may be immutable. */
export function validateImmutableData(object: KubeObject, old: KubeObject, payloadFields: readonly string[]): FieldError[] {
  if (old['immutable'] !== true) return [];
  const errors: FieldError[] = [];
  if (object['immutable'] !== true) errors.push(fieldForbidden('immutable', IMMUTABLE_MESSAGE));
  for (const field of payloadFields) {
    if (!jsonEqual(emptyAsAbsent(object[field]), emptyAsAbsent(old[field]))) errors.push(fieldForbidden(field, IMMUTABLE_MESSAGE));
  }
  return errors;
}

/** An empty map and an absent one are the same payload, as in upstream's typed comparison. */
function emptyAsAbsent(value: unknown): unknown {
  if (value === null) return undefined;
  if (typeof value === 'object' && !Array.isArray(value) && Object.keys(value as object).length === 0) return undefined;
  return value;
}
