/**
 * The document a JSON patch edits, addressed as upstream's JSON-patch library (evanphx/json-patch
 * v4) addresses it. Its rules differ from a strict reading of RFC 6901/6902 in ways clients may rely
 * on, so they are kept: negative array indices count from the end, indices are read as Go's Atoi
 * reads them (`+1`, `01`), the first segment of a path is never looked at (`a/b` means `/b`), and an
 * object member holding null is treated as missing.
 *
 * Members are set with defineProperty for `__proto__`, so a patch can never reach a prototype.
 */
import { INT64_MAX, INT64_MIN, parseGoInt } from '../serialization/go-int.js';

export type Container = Record<string, unknown> | unknown[];

/** Why an operation cannot apply; becomes the cause of the 422 upstream answers with. */
export class PatchFailure extends Error {
  override readonly name = 'PatchFailure';
}

export function isContainer(value: unknown): value is Container {
  return typeof value === 'object' && value !== null;
}

/** An array index read as Go's strconv.Atoi reads it: the index, or strconv's error text. */
function atoi(key: string): { readonly index: bigint; readonly error?: string } {
  const { value, error } = parseGoInt(key, 'Atoi', INT64_MIN, INT64_MAX);
  return { index: value, ...(error !== undefined ? { error } : {}) };
}

function invalidIndex(index: bigint): PatchFailure {
  return new PatchFailure(`Unable to access invalid index: ${index}: invalid index referenced`);
}

/** An existing element's position; negative indices count from the end. */
function existingIndex(array: readonly unknown[], key: string): number {
  const { index, error } = atoi(key);
  if (error !== undefined) throw new PatchFailure(error);
  const length = BigInt(array.length);
  const at = index < 0n ? index + length : index;
  if (at < 0n || at >= length) throw invalidIndex(index);
  return Number(at);
}

/** RFC 6901 unescaping: `~1` is `/`, `~0` is `~`, read left to right. */
function unescapeToken(token: string): string {
  return token.replace(/~[01]/g, (m) => (m === '~1' ? '/' : '~'));
}

/** Sets an object member; `__proto__` becomes an own member, never the prototype. */
export function defineMember(obj: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
  else obj[key] = value;
}

/**
 * A member's value: undefined when an object has no such member. Throws PatchFailure for an array
 * index that is malformed or out of range.
 */
export function getMember(container: Container, key: string): unknown {
  if (Array.isArray(container)) return container[existingIndex(container, key)];
  return Object.hasOwn(container, key) ? container[key] : undefined;
}

/** Replaces a member (an array element must exist). Throws PatchFailure for a bad array index. */
export function setMember(container: Container, key: string, value: unknown): void {
  if (Array.isArray(container)) container[existingIndex(container, key)] = value;
  else defineMember(container, key, value);
}

/**
 * Adds a member: an object member is set; an array element is inserted before `key`, or appended
 * for `-` or an index equal to the length. Throws PatchFailure for an index out of range.
 */
export function addMember(container: Container, key: string, value: unknown): void {
  if (!Array.isArray(container)) {
    defineMember(container, key, value);
    return;
  }
  if (key === '-') {
    container.push(value);
    return;
  }
  const { index, error } = atoi(key);
  if (error !== undefined) throw new PatchFailure(`value was not a proper array index: '${key}': ${error}`);
  const size = BigInt(container.length + 1);
  if (index >= size || index < -size) throw invalidIndex(index);
  container.splice(Number(index < 0n ? index + size : index), 0, value);
}

/** Removes a member. Throws PatchFailure when there is none. */
export function removeMember(container: Container, key: string): void {
  if (Array.isArray(container)) {
    container.splice(existingIndex(container, key), 1);
    return;
  }
  if (!Object.hasOwn(container, key)) throw new PatchFailure(`Unable to remove nonexistent key: ${key}: missing value`);
  delete container[key];
}

/**
 * The container a path's last token is in, and that token; undefined when the path has no `/` or a
 * container on the way is missing, null or not a container.
 */
export function locate(doc: Container, path: string): { container: Container; key: string } | undefined {
  const tokens = path.split('/');
  if (tokens.length < 2) return undefined;
  let container = doc;
  for (const token of tokens.slice(1, -1)) {
    let next: unknown;
    try {
      next = getMember(container, unescapeToken(token));
    } catch {
      return undefined;
    }
    if (!isContainer(next)) return undefined;
    container = next;
  }
  return { container, key: unescapeToken(tokens[tokens.length - 1]!) };
}
