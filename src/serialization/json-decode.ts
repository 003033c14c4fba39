/**
 * JSON text to the object model (plain objects, arrays, strings, numbers, booleans, null), with the
 * strictness facts upstream's decoder reports: duplicate keys (the last value is kept, as Go does
 * when decoding into a map or into `interface{}`) and Go's wording for syntax errors.
 */
import { countMembers, scanDuplicatePaths } from './json-duplicates.js';
import { MAX_JSON_DEPTH, findJsonSyntaxError } from './json-syntax.js';

/** A body that is not JSON; the message is Go's (`invalid character 'x' looking for ...`). */
export class JsonSyntaxError extends Error {
  override readonly name = 'JsonSyntaxError';
}

export interface DecodedJson {
  readonly value: unknown;
  /** Paths of duplicate keys in upstream's format (`metadata.labels.a`), document order. */
  readonly duplicateFields: readonly string[];
}

interface TreeFacts {
  members: number;
  depth: number;
}

/** Counts the members of every object and the nesting depth, without recursion. */
export function treeFacts(root: unknown): TreeFacts {
  let members = 0;
  let depth = 0;
  const values: unknown[] = [root];
  const depths: number[] = [1];
  while (values.length > 0) {
    const v = values.pop() as object;
    const d = depths.pop() as number;
    if (typeof v !== 'object' || v === null) continue;
    if (d > depth) depth = d;
    if (Array.isArray(v)) {
      for (const item of v) {
        if (typeof item === 'object' && item !== null) {
          values.push(item);
          depths.push(d + 1);
        }
      }
      continue;
    }
    for (const key in v) {
      members++;
      const item = (v as Record<string, unknown>)[key];
      if (typeof item === 'object' && item !== null) {
        values.push(item);
        depths.push(d + 1);
      }
    }
  }
  return { members, depth };
}

function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * Parses a JSON body. Throws JsonSyntaxError with Go's message when the bytes are not JSON or nest
 * deeper than Go allows; duplicate keys are not an error here but are reported for the caller's
 * field-validation level to judge.
 */
export function decodeJson(bytes: Uint8Array): DecodedJson {
  const text = asBuffer(bytes).toString('utf8');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new JsonSyntaxError(findJsonSyntaxError(bytes) ?? 'unexpected end of JSON input');
  }
  if (typeof value !== 'object' || value === null) return { value, duplicateFields: [] };
  const facts = treeFacts(value);
  if (facts.depth > MAX_JSON_DEPTH) {
    throw new JsonSyntaxError(findJsonSyntaxError(bytes) ?? 'exceeded max depth');
  }
  if (countMembers(bytes) === facts.members) return { value, duplicateFields: [] };
  return { value, duplicateFields: scanDuplicatePaths(text) };
}
