/**
 * Builders of field errors worded as upstream's field.Error renders them ("Invalid value: "x":
 * detail", "Required value", "Forbidden: detail", ...). Clients and humans read these messages,
 * so the wording and the rendering of the bad value follow upstream exactly.
 */
import type { FieldError } from '../../api/errors.js';

/**
 * A bad value that is already rendered the way upstream prints it (Go's `%#v` of a struct, e.g.
 * `v1.LabelSelector{...}`), printed as is.
 */
export class GoLiteral {
  constructor(readonly text: string) {}
}

/** Renders a bad value as upstream does: strings quoted, numbers and booleans bare, nil as null. */
export function renderValue(value: unknown): string {
  if (value instanceof GoLiteral) return value.text;
  if (value === undefined || value === null) return 'null';
  if (typeof value === 'string') return goQuote(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** Go's strconv.Quote for the strings we meet (JSON escaping differs only in rare control characters). */
export function goQuote(value: string): string {
  return JSON.stringify(value).replace(/\\u007f/g, '\\x7f');
}

function withDetail(head: string, detail: string): string {
  return detail === '' ? head : `${head}: ${detail}`;
}

export function invalidField(field: string, value: unknown, detail: string): FieldError {
  return { type: 'FieldValueInvalid', field, message: withDetail(`Invalid value: ${renderValue(value)}`, detail) };
}

export function requiredField(field: string, detail = ''): FieldError {
  return { type: 'FieldValueRequired', field, message: withDetail('Required value', detail) };
}

export function forbiddenField(field: string, detail: string): FieldError {
  return { type: 'FieldValueForbidden', field, message: withDetail('Forbidden', detail) };
}

export function duplicateField(field: string, value: unknown): FieldError {
  return { type: 'FieldValueDuplicate', field, message: `Duplicate value: ${renderValue(value)}` };
}

export function notSupportedField(field: string, value: unknown, supported: readonly string[]): FieldError {
  const detail = supported.length === 0 ? '' : `supported values: ${supported.map(goQuote).join(', ')}`;
  return { type: 'FieldValueNotSupported', field, message: withDetail(`Unsupported value: ${renderValue(value)}`, detail) };
}

/** Upstream's TooLong: the value itself is never printed. */
export function tooLongField(field: string, maxBytes: number): FieldError {
  return { type: 'FieldValueTooLong', field, message: `Too long: may not be more than ${maxBytes} bytes` };
}

/** Upstream's ValidateImmutableField. */
export function immutableField(field: string, value: unknown): FieldError {
  return invalidField(field, value, 'field is immutable');
}

/** Field path of a map entry: `data[key]`. */
export function keyPath(field: string, key: string): string {
  return `${field}[${key}]`;
}
