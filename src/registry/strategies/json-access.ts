/**
 * Small accessors for the decoded JSON the strategies walk. Objects reach a strategy after schema
 * checks, but a field may still be absent or null, so every accessor tolerates both.
 */

export type JsonRecord = Record<string, unknown>;

/** Whether `value` is a JSON object (not null, not an array). */
export function isRecord(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The object at `parent[key]`, created (replacing a non-object) when absent. Mutates `parent`. */
export function asRecord(parent: JsonRecord, key: string): JsonRecord {
  const value = parent[key];
  if (isRecord(value)) return value;
  const created: JsonRecord = {};
  parent[key] = created;
  return created;
}

/** The object at `parent[key]`, or undefined; never creates. */
export function recordAt(parent: unknown, key: string): JsonRecord | undefined {
  if (!isRecord(parent)) return undefined;
  const value = parent[key];
  return isRecord(value) ? value : undefined;
}

/** The objects of the array at `parent[key]` (non-objects skipped); empty when absent. */
export function recordsAt(parent: unknown, key: string): JsonRecord[] {
  if (!isRecord(parent)) return [];
  const value = parent[key];
  return Array.isArray(value) ? value.filter(isRecord) : [];
}

/** The strings of an array value (a copy); empty when not an array. */
export function asStringArray(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** The string at `parent[key]`, or undefined. */
export function stringAt(parent: unknown, key: string): string | undefined {
  if (!isRecord(parent)) return undefined;
  const value = parent[key];
  return typeof value === 'string' ? value : undefined;
}

/** Sets `record[key] = value` unless a value other than null is already there. */
export function defaultTo(record: JsonRecord, key: string, value: unknown): void {
  if (record[key] === undefined || record[key] === null) record[key] = value;
}
