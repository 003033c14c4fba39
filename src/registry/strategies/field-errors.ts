/**
 * The field errors the strategies need beyond src/validation's builders (Invalid, Required,
 * Forbidden, TooLong), worded as upstream's field.Error renders them: Duplicate, NotSupported and
 * ValidateImmutableField, plus the path of a map entry.
 */
import type { FieldError } from '../../api/errors.js';
import { formatGoFloat, goQuote } from '../../serialization/go-format.js';
import { fieldInvalid, GoSyntax } from '../../validation/field-errors.js';

/** A bad value as upstream prints it: strings quoted, numbers and booleans bare, nil as null. */
function renderValue(value: unknown): string {
  if (value instanceof GoSyntax) return value.text;
  if (value === undefined || value === null) return 'null';
  if (typeof value === 'string') return goQuote(value);
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : formatGoFloat(value);
  if (typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

export function fieldDuplicate(field: string, value: unknown): FieldError {
  return { type: 'FieldValueDuplicate', field, message: `Duplicate value: ${renderValue(value)}` };
}

export function fieldNotSupported(field: string, value: unknown, supported: readonly string[]): FieldError {
  const head = `Unsupported value: ${renderValue(value)}`;
  const message = supported.length === 0 ? head : `${head}: supported values: ${supported.map(goQuote).join(', ')}`;
  return { type: 'FieldValueNotSupported', field, message };
}

/** Upstream's ValidateImmutableField. */
export function fieldImmutable(field: string, value: unknown): FieldError {
  return fieldInvalid(field, value, 'field is immutable');
}

/** Field path of a map entry: `data[key]`. */
export function keyPath(field: string, key: string): string {
  return `${field}[${key}]`;
}
