/**
 * JSON Merge Patch (RFC 7386) as upstream applies it (evanphx/json-patch v4's MergePatch): members
 * of the patch replace the document's, objects merge recursively, null deletes a member. Where the
 * library departs from the RFC it is followed: a value that replaces a missing, null or non-object
 * member is pruned of nulls at every depth (including objects inside arrays), while an array or
 * scalar replacing an object member is taken as it is.
 */
import { cannotUnmarshal } from '../serialization/go-json-errors.js';
import { duplicateFieldMessage } from '../serialization/json-codec.js';
import { JsonSyntaxError, decodeJson } from '../serialization/json-decode.js';
import { defineMember } from './json-document.js';
import { invalidPatch } from './patch-errors.js';
import type { PatchRequest, PatchResult } from './patch-request.js';

type JsonObject = Record<string, unknown>;

const BAD_PATCH = 'Invalid JSON Patch';

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Removes null members from objects, at any depth and inside arrays; null array elements stay. */
function pruneNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => (v === null ? v : pruneNulls(v)));
  if (!isObject(value)) return value;
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(value)) if (v !== null) defineMember(out, k, pruneNulls(v));
  return out;
}

function mergeValue(current: unknown, patch: unknown): unknown {
  if (!isObject(current)) return pruneNulls(patch);
  if (!isObject(patch)) return patch;
  return mergeInto(current, patch);
}

/** Merges `patch` into `target`, which is modified and returned. */
function mergeInto(target: JsonObject, patch: JsonObject): JsonObject {
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) {
      delete target[k];
      continue;
    }
    const current = Object.hasOwn(target, k) ? target[k] : null;
    defineMember(target, k, current === null ? pruneNulls(v) : mergeValue(current, v));
  }
  return target;
}

/**
 * Merges a decoded patch into a copy of `doc` as the library does and returns the copy; `doc` is
 * not modified. Throws 400 `Invalid JSON Patch` for a null or scalar patch; an array patch replaces
 * the whole document.
 */
export function mergePatchValue(doc: Readonly<JsonObject>, patch: unknown): unknown {
  if (Array.isArray(patch)) return pruneNulls(patch);
  if (!isObject(patch)) throw invalidPatch(BAD_PATCH);
  return mergeInto(structuredClone(doc) as JsonObject, patch);
}

/**
 * The merge-patch applier. With fieldValidation Warn or Strict the body must decode to an object
 * (400 `error decoding patch: ...` otherwise) and duplicate fields are returned as strict errors;
 * with Ignore a body that is not JSON is 400 `Invalid JSON Patch`, as upstream.
 */
export function applyMergePatch(request: PatchRequest): PatchResult {
  const strict = request.fieldValidation !== 'Ignore';
  let decoded;
  try {
    decoded = decodeJson(request.body);
  } catch (err) {
    if (err instanceof JsonSyntaxError) throw invalidPatch(strict ? `error decoding patch: ${err.message}` : BAD_PATCH);
    throw err;
  }
  const patch = decoded.value;
  if (strict && patch !== null && !isObject(patch)) {
    throw invalidPatch(`error decoding patch: ${cannotUnmarshal(patch, 'map[string]interface {}')}`);
  }
  return {
    value: mergePatchValue(request.current, patch),
    strictErrors: strict ? decoded.duplicateFields.map(duplicateFieldMessage) : [],
  };
}
