/**
 * metadata.managedFields entries, as upstream checks them on every write: operation Apply or
 * Update, fieldsType FieldsV1, a printable manager of at most 128 bytes, a subresource of at most
 * 256 bytes.
 */
import type { FieldError } from '../api/errors.js';
import { isGoPrintable } from '../serialization/go-format.js';
import { fieldInvalid, fieldTooLong } from './field-errors.js';

export const FIELD_MANAGER_MAX_LENGTH = 128;
export const MAX_SUBRESOURCE_NAME_LENGTH = 256;

function stringField(entry: unknown, name: string): string {
  const v = typeof entry === 'object' && entry !== null ? (entry as Record<string, unknown>)[name] : undefined;
  return typeof v === 'string' ? v : '';
}

/** A code point as Go's %#U prints it: `U+0007`, or `U+0078 'x'` when printable. */
function goCodePoint(cp: number): string {
  const hex = `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
  return isGoPrintable(cp) ? `${hex} '${String.fromCodePoint(cp)}'` : hex;
}

/** Names found valid, so that the few managers of a cluster are checked once, not on every write. */
const validNames = new Set<string>();
const MAX_VALID_NAMES = 1024;

/** Checks a field manager name (also used for the fieldManager query parameter). */
export function validateFieldManager(manager: string, field: string): FieldError[] {
  if (validNames.has(manager)) return [];
  const errs: FieldError[] = [];
  if (Buffer.byteLength(manager) > FIELD_MANAGER_MAX_LENGTH) errs.push(fieldTooLong(field, FIELD_MANAGER_MAX_LENGTH));
  let bytePosition = 0;
  for (const ch of manager) {
    const cp = ch.codePointAt(0)!;
    if (!isGoPrintable(cp)) errs.push(fieldInvalid(field, manager, `invalid character ${goCodePoint(cp)} (at position ${bytePosition})`));
    bytePosition += Buffer.byteLength(ch);
  }
  if (errs.length === 0 && validNames.size < MAX_VALID_NAMES) validNames.add(manager);
  return errs;
}

export function validateManagedFields(entries: readonly unknown[] | null | undefined, field: string): FieldError[] {
  const errs: FieldError[] = [];
  (entries ?? []).forEach((entry, i) => {
    const path = `${field}[${i}]`;
    const operation = stringField(entry, 'operation');
    if (operation !== 'Apply' && operation !== 'Update') errs.push(fieldInvalid(`${path}.operation`, operation, 'must be `Apply` or `Update`'));
    const fieldsType = stringField(entry, 'fieldsType');
    if (fieldsType !== '' && fieldsType !== 'FieldsV1') errs.push(fieldInvalid(`${path}.fieldsType`, fieldsType, 'must be `FieldsV1`'));
    errs.push(...validateFieldManager(stringField(entry, 'manager'), `${path}.manager`));
    if (Buffer.byteLength(stringField(entry, 'subresource')) > MAX_SUBRESOURCE_NAME_LENGTH) {
      errs.push(fieldTooLong(`${path}.subresource`, MAX_SUBRESOURCE_NAME_LENGTH));
    }
  });
  return errs;
}
