/**
 * Tolerant readers for decoded JSON. Printers run on whatever is stored, including objects a
 * client wrote with missing or mistyped fields, so every reader falls back to the zero value Go
 * would see instead of throwing.
 */

/** A JSON object (never an array). */
export type JsonObject = { readonly [field: string]: unknown };

const EMPTY: JsonObject = Object.freeze({});

/** The value as an object, or an empty object. */
export function objectAt(value: unknown): JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonObject) : EMPTY;
}

/** The value as an object, or undefined (Go's nil pointer). */
export function optionalObject(value: unknown): JsonObject | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonObject) : undefined;
}

/** Follows keys through nested objects; undefined when any step is missing. */
export function path(value: unknown, ...keys: readonly string[]): unknown {
  let current = value;
  for (const key of keys) {
    const next = optionalObject(current);
    if (next === undefined) return undefined;
    current = next[key];
  }
  return current;
}

/** The value as a string, or "". */
export function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** The value as a string, or undefined (Go's nil *string). */
export function optionalText(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** The value as a finite number, or `fallback` (0 unless given). */
export function num(value: unknown, fallback = 0): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}

/** The value as a boolean, or `fallback` (false unless given). */
export function bool(value: unknown, fallback = false): boolean {
  return typeof value === 'boolean' ? value : fallback;
}

/** The value as an array, or an empty array. */
export function list(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}

/** The objects of an array value; non-object entries are skipped. */
export function objects(value: unknown): JsonObject[] {
  return list(value).filter((v): v is JsonObject => optionalObject(v) !== undefined);
}

/** The strings of an array value; other entries are skipped. */
export function strings(value: unknown): string[] {
  return list(value).filter((v): v is string => typeof v === 'string');
}

/** Number of keys of an object value (a Go map's len). */
export function size(value: unknown): number {
  return Object.keys(objectAt(value)).length;
}
