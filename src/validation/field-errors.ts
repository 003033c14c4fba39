/**
 * FieldError constructors that word messages as upstream's field.Error does: `Invalid value:
 * "Bad_Name": <detail>`, `Required value: <detail>`, `Forbidden: <detail>`, `Too long: may not be
 * more than 262144 bytes`, `Duplicate value: ...`, `Unsupported value: ...: supported values: ...`,
 * `Not found: ...`. Invalid values are printed as upstream's 1.34+ field.Error prints them: strings
 * quoted with %q, numbers and booleans bare, anything else (lists, maps, structs, null) as
 * encoding/json writes it. A value whose Go rendering the caller must make itself (a type with its
 * own String method, Go syntax inside a detail) is passed in as a {@link GoSyntax}.
 */
import type { FieldError } from '../api/errors.js';
import { formatGoFloat, goQuote } from '../serialization/go-format.js';
import { escapeLikeGo } from '../serialization/json-encode.js';

/** A value already rendered in Go syntax, e.g. `[]string{"a", "b"}`. */
export class GoSyntax {
  constructor(readonly text: string) {}
}

/** A string slice as Go's %#v prints it (`[]string{"a", "b"}`), for details that format with %#v. */
export function goStringSlice(values: readonly string[]): GoSyntax {
  return new GoSyntax(`[]string{${values.map(goQuote).join(', ')}}`);
}

function formatValue(value: unknown): string {
  if (value instanceof GoSyntax) return value.text;
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return goQuote(value);
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : formatGoFloat(value);
  if (typeof value === 'boolean') return String(value);
  return escapeLikeGo(JSON.stringify(value));
}

/** A Go map as encoding/json writes it, keys sorted; `null` for a nil map. */
export function goJsonMap(map: unknown): Record<string, unknown> | null {
  if (typeof map !== 'object' || map === null || Array.isArray(map)) return null;
  const record = map as Record<string, unknown>;
  return Object.fromEntries(Object.keys(record).sort().map((key) => [key, record[key]]));
}

function withDetail(head: string, detail: string): string {
  return detail === '' ? head : `${head}: ${detail}`;
}

export function fieldInvalid(field: string, value: unknown, detail: string): FieldError {
  return { type: 'FieldValueInvalid', field, message: withDetail(`Invalid value: ${formatValue(value)}`, detail) };
}

export function fieldRequired(field: string, detail = ''): FieldError {
  return { type: 'FieldValueRequired', field, message: withDetail('Required value', detail) };
}

export function fieldForbidden(field: string, detail: string): FieldError {
  return { type: 'FieldValueForbidden', field, message: withDetail('Forbidden', detail) };
}

/** The value is never shown, as upstream. */
export function fieldTooLong(field: string, maxBytes: number): FieldError {
  return { type: 'FieldValueTooLong', field, message: `Too long: may not be more than ${maxBytes} bytes` };
}

export function fieldDuplicate(field: string, value: unknown): FieldError {
  return { type: 'FieldValueDuplicate', field, message: `Duplicate value: ${formatValue(value)}` };
}

export function fieldNotSupported(field: string, value: unknown, supported: readonly string[]): FieldError {
  const head = `Unsupported value: ${formatValue(value)}`;
  const message = supported.length === 0 ? head : `${head}: supported values: ${supported.map(goQuote).join(', ')}`;
  return { type: 'FieldValueNotSupported', field, message };
}

export function fieldNotFound(field: string, value: unknown): FieldError {
  return { type: 'FieldValueNotFound', field, message: `Not found: ${formatValue(value)}` };
}

/** Upstream's ValidateImmutableField. */
export function fieldImmutable(field: string, value: unknown): FieldError {
  return fieldInvalid(field, value, 'field is immutable');
}

/** Field path of a map entry: `data[key]`. */
export function keyPath(field: string, key: string): string {
  return `${field}[${key}]`;
}
