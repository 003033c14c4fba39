/**
 * Reads a JSON Patch (RFC 6902) body as upstream does. With fieldValidation Warn or Strict the body
 * is first decoded strictly into `{op, path, from, value}` records, so type errors are 400s
 * prefixed `error decoding patch:` and unknown or duplicate fields become strict errors
 * (`json patch unknown field "[0].foo"`). With Ignore only the JSON-patch library's decode runs,
 * whose errors are bare. Operations stay raw: a wrong `op` or missing `path` fails at apply time.
 */
import { cannotUnmarshal, cannotUnmarshalField } from '../serialization/go-json-errors.js';
import { goQuote } from '../serialization/go-format.js';
import { JsonSyntaxError, decodeJson } from '../serialization/json-decode.js';
import type { DecodedJson } from '../serialization/json-decode.js';
import { MAX_JSON_PATCH_OPERATIONS, invalidPatch, tooManyOperations } from './patch-errors.js';
import type { FieldValidation } from './patch-request.js';

/** One operation's members as sent; `null` for a `null` element (an operation of unknown kind). */
export type RawOperation = Readonly<Record<string, unknown>> | null;

export interface DecodedJsonPatch {
  readonly operations: readonly RawOperation[];
  readonly strictErrors: readonly string[];
}

const KNOWN_FIELDS = ['op', 'path', 'from', 'value'];
const STRING_FIELDS = ['op', 'path', 'from'];

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parse(body: Uint8Array, prefix: string): DecodedJson {
  try {
    return decodeJson(body);
  } catch (err) {
    if (err instanceof JsonSyntaxError) throw invalidPatch(`${prefix}${err.message}`);
    throw err;
  }
}

/** The element's top-level field a strict-error path falls under, for ordering. */
function fieldPosition(element: Record<string, unknown>, index: number, path: string): number {
  const keys = Object.keys(element);
  let best = -1;
  let bestLength = -1;
  keys.forEach((key, position) => {
    const base = `[${index}].${key}`;
    const under = path === base || path.startsWith(`${base}.`) || path.startsWith(`${base}[`);
    if (under && key.length > bestLength) [best, bestLength] = [position, key.length];
  });
  return best;
}

function elementIndex(path: string): number {
  return Number(/^\[(\d+)\]/.exec(path)?.[1] ?? -1);
}

/**
 * Unknown and duplicate fields of the operations, per operation in the order their fields were
 * written, as upstream's single strict pass reports them.
 */
function strictErrorsOf(elements: readonly unknown[], duplicates: readonly string[]): string[] {
  const found: { index: number; position: number; message: string }[] = [];
  for (const path of duplicates) {
    const index = elementIndex(path);
    const element = elements[index];
    const position = isObject(element) ? fieldPosition(element, index, path) : -1;
    found.push({ index, position, message: `json patch duplicate field ${goQuote(path)}` });
  }
  elements.forEach((element, index) => {
    if (!isObject(element)) return;
    Object.keys(element).forEach((key, position) => {
      if (!KNOWN_FIELDS.includes(key)) found.push({ index, position, message: `json patch unknown field ${goQuote(`[${index}].${key}`)}` });
    });
  });
  return found.sort((a, b) => a.index - b.index || a.position - b.position).map((f) => f.message);
}

/** Upstream's strict decode into its `jsonPatchOp` records: the first type error is fatal. */
function checkStrictTypes(elements: readonly unknown[]): void {
  for (const element of elements) {
    if (element === null) continue;
    if (!isObject(element)) {
      throw invalidPatch(`error decoding patch: ${cannotUnmarshal(element, 'handlers.jsonPatchOp')}`);
    }
    for (const key of Object.keys(element)) {
      const v = element[key];
      if (STRING_FIELDS.includes(key) && v !== null && typeof v !== 'string') {
        throw invalidPatch(`error decoding patch: ${cannotUnmarshalField(v, 'jsonPatchOp', key, 'string')}`);
      }
    }
  }
}

/**
 * Decodes a JSON Patch body. Throws a 400 ApiError with upstream's message for a body that is not
 * JSON or not a list of operation objects, and a 413 for more than 10000 operations.
 */
export function decodeJsonPatch(body: Uint8Array, fieldValidation: FieldValidation): DecodedJsonPatch {
  const strict = fieldValidation !== 'Ignore';
  const decoded = parse(body, strict ? 'error decoding patch: ' : '');
  const value = decoded.value;
  if (value !== null && !Array.isArray(value)) {
    throw invalidPatch(
      strict ? `error decoding patch: ${cannotUnmarshal(value, '[]handlers.jsonPatchOp')}` : cannotUnmarshal(value, 'jsonpatch.Patch'),
    );
  }
  const elements: readonly unknown[] = value ?? [];
  if (strict) checkStrictTypes(elements);
  const bad = elements.find((e) => e !== null && !isObject(e));
  if (bad !== undefined) throw invalidPatch(cannotUnmarshal(bad, 'jsonpatch.Operation'));
  if (elements.length > MAX_JSON_PATCH_OPERATIONS) throw tooManyOperations(elements.length);
  return {
    operations: elements as RawOperation[],
    strictErrors: strict ? strictErrorsOf(elements, decoded.duplicateFields) : [],
  };
}
