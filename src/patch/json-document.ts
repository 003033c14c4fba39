/**
 * The document a JSON patch edits, addressed as upstream's JSON-patch library (evanphx/json-patch
 * v4) addresses it. Its rules differ from a strict reading of RFC 6901/6902 in ways clients may rely
 * on, so they are kept: negative array indices count from the end, indices are read as Go's Atoi
 * reads them (`+1`, `01`), the first segment of a path is never looked at (`a/b` means `/b`), and an
 * object member holding null is treated as missing.
 *
 * Members are set with defineProperty for `__proto__`, so a patch can never reach a prototype.
 */

export type Container = Record<string, unknown> | unknown[];

/** Why an operation cannot apply; becomes the cause of the 422 upstream answers with. */
export class PatchFailure extends Error {
  override readonly name = 'PatchFailure';
}

export function isContainer(value: unknown): value is Container {
  return typeof value === 'object' && value !== null;
}

/** Go's strconv.Atoi: an optional sign and decimal digits, within 64 bits. */
function parseIndex(key: string): number | undefined {
  if (!/^[+-]?\d+$/.test(key)) return undefined;
  const n = Number(key);
  return Math.abs(n) < 2 ** 63 ? n : undefined;
}

function indexOrFail(key: string): number {
  const idx = parseIndex(key);
  if (idx === undefined) throw new PatchFailure(`strconv.Atoi: parsing ${JSON.stringify(key)}: invalid syntax`);
  return idx;
}

function invalidIndex(idx: number): PatchFailure {
  return new PatchFailure(`Unable to access invalid index: ${idx}: invalid index referenced`);
}

/** An existing element's position; negative indices count from the end. */
function existingIndex(array: readonly unknown[], key: string): number {
  let idx = indexOrFail(key);
  if (idx < 0) {
    if (idx < -array.length) throw invalidIndex(idx);
    idx += array.length;
  }
  if (idx >= array.length) throw invalidIndex(idx);
  return idx;
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
  let idx = parseIndex(key);
  if (idx === undefined) throw new PatchFailure(`value was not a proper array index: '${key}'`);
  const size = container.length + 1;
  if (idx >= size) throw invalidIndex(idx);
  if (idx < 0) {
    if (idx < -size) throw invalidIndex(idx);
    idx += size;
  }
  container.splice(idx, 0, value);
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
