/**
 * metadata.labels and metadata.annotations: keys are qualified names (annotation keys in any case),
 * label values are restricted, and all annotations together may hold at most 256 KiB. Errors name
 * the map (`metadata.labels`), not the key, as upstream.
 */
import type { FieldError } from '../api/errors.js';
import { fieldInvalid, fieldTooLong } from './field-errors.js';
import { isQualifiedName, isValidLabelValue } from './qualified-names.js';

/** Upstream's limit on the total bytes of annotation keys and values. */
export const TOTAL_ANNOTATION_SIZE_LIMIT_BYTES = 256 * 1024;

export function validateLabels(labels: Readonly<Record<string, string>> | null | undefined, field: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const [key, value] of Object.entries(labels ?? {})) {
    for (const msg of isQualifiedName(key)) errs.push(fieldInvalid(field, key, msg));
    for (const msg of isValidLabelValue(value)) errs.push(fieldInvalid(field, value, msg));
  }
  return errs;
}

export function validateAnnotations(annotations: Readonly<Record<string, string>> | null | undefined, field: string): FieldError[] {
  const errs: FieldError[] = [];
  let total = 0;
  for (const [key, value] of Object.entries(annotations ?? {})) {
    for (const msg of isQualifiedName(key.toLowerCase())) errs.push(fieldInvalid(field, key, msg));
    total += Buffer.byteLength(key) + Buffer.byteLength(value);
  }
  if (total > TOTAL_ANNOTATION_SIZE_LIMIT_BYTES) errs.push(fieldTooLong(field, TOTAL_ANNOTATION_SIZE_LIMIT_BYTES));
  return errs;
}
