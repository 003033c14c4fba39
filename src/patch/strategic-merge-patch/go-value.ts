/**
 * Decoded JSON seen as upstream's strategic merge sees it: values of Go's `interface{}`. Upstream
 * compares them with Go's `==`, keys Go maps with them and prints them with `%v` into error
 * messages that clients read, so those three behaviours are reproduced here.
 *
 * Numbers: upstream decodes integers as int64 and other numbers as float64, and `==` never equates
 * the two. JSON.parse keeps no such distinction, so an integral number is taken for an int64 (a
 * patch that writes `80.0` where upstream would see a float64 is the one case this misreads).
 */
import { ApiError } from '../../api/errors.js';
import { formatGoFloat } from '../../serialization/go-format.js';

export type JsonMap = Record<string, unknown>;

/** Go's dynamic type name of a decoded value, as reflect prints it; `nil` for JSON null. */
export type GoType = 'map[string]interface {}' | '[]interface {}' | 'string' | 'int64' | 'float64' | 'bool' | 'nil';

export const MAP_TYPE = 'map[string]interface {}';
export const SLICE_TYPE = '[]interface {}';

const INT64_LIMIT = 2 ** 63;

/**
 * A Go runtime panic inside upstream's merge (comparing or hashing a map). Upstream's panic
 * recovery answers 500 with a fixed text; `reason` is kept as the cause, for the server log.
 */
export function goPanic(reason: string): ApiError {
  const err = new ApiError(500, 'InternalError', 'This request caused apiserver to panic. Look in the logs for details.');
  err.cause = new Error(reason);
  return err;
}

export function isJsonMap(value: unknown): value is JsonMap {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An own member of a decoded object, or undefined: never reaches Object.prototype. */
export function memberOf(map: JsonMap, key: string): unknown {
  return Object.hasOwn(map, key) ? map[key] : undefined;
}

export function goTypeOf(value: unknown): GoType {
  if (value === null || value === undefined) return 'nil';
  if (Array.isArray(value)) return SLICE_TYPE;
  switch (typeof value) {
    case 'string':
      return 'string';
    case 'boolean':
      return 'bool';
    case 'number':
      return Number.isInteger(value) && Math.abs(value) < INT64_LIMIT ? 'int64' : 'float64';
    default:
      return MAP_TYPE;
  }
}

function isUncomparable(type: GoType): boolean {
  return type === MAP_TYPE || type === SLICE_TYPE;
}

/**
 * Go's `==` on two interface values: false for different dynamic types, and a runtime panic (a 500)
 * when both hold the same map or slice type.
 */
export function goEqual(a: unknown, b: unknown): boolean {
  const type = goTypeOf(a);
  if (type !== goTypeOf(b)) return false;
  if (isUncomparable(type)) throw goPanic(`runtime error: comparing uncomparable type ${type}`);
  return type === 'nil' || a === b;
}

/**
 * A value as a key of a Go `map[interface{}]...`, usable as a JavaScript Map/Set key with the same
 * identity. Throws Go's runtime panic (a 500) for maps and slices, which cannot be hashed.
 */
export function goHashKey(value: unknown): unknown {
  const type = goTypeOf(value);
  if (isUncomparable(type)) throw goPanic(`runtime error: hash of unhashable type ${type}`);
  return value ?? null;
}

/** Go's ordering of string map keys when printing: by UTF-8 bytes, which is code point order. */
function compareKeys(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i]!.codePointAt(0)! - y[i]!.codePointAt(0)!;
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

function formatScalar(value: unknown, type: GoType): string {
  if (type === 'nil') return '<nil>';
  if (type === 'float64') return formatGoFloat(value as number);
  return String(value);
}

/**
 * A value as fmt prints it with `%v` (`map[image:nginx name:a]`, `[a b]`, `<nil>`) or `%s`, which
 * wraps anything that is not a string, map or slice as `%!s(int64=1)`.
 */
export function formatGo(value: unknown, verb: 'v' | 's' = 'v'): string {
  const type = goTypeOf(value);
  if (type === SLICE_TYPE) return `[${(value as unknown[]).map((v) => formatGo(v, verb)).join(' ')}]`;
  if (type === MAP_TYPE) {
    const map = value as JsonMap;
    const members = Object.keys(map)
      .sort(compareKeys)
      .map((k) => `${k}:${formatGo(map[k], verb)}`);
    return `map[${members.join(' ')}]`;
  }
  const text = formatScalar(value, type);
  if (verb === 'v' || type === 'string') return text;
  return type === 'nil' ? '%!s(<nil>)' : `%!s(${type}=${text})`;
}

/** reflect.TypeOf(value) as `%s` prints it in upstream's "expected a X, but received a Y". */
export function reflectTypeName(value: unknown): string {
  const type = goTypeOf(value);
  return type === 'nil' ? '%!s(<nil>)' : type;
}
