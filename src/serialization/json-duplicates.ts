/**
 * Duplicate object keys in a JSON text, reported with the paths upstream's strict decoder uses
 * (sigs.k8s.io/json): `data`, `metadata.labels.app`, `items[0].name`, `[1].op` for a top-level
 * array. JSON.parse keeps the last of duplicate keys silently, so the text is scanned as well.
 *
 * Two passes keep the common case cheap: every key of a JSON text is followed by exactly one colon
 * outside strings, so when the colons outside strings equal the keys JSON.parse kept, there is no
 * duplicate and the expensive, path-tracking scan never runs.
 */

/** Upstream stops collecting strict errors after 100. */
const MAX_REPORTED = 100;

/** Index of the quote closing the string whose opening quote is at `open`. */
function stringEnd(text: string, open: number): number {
  let j = open;
  for (;;) {
    j = text.indexOf('"', j + 1);
    if (j === -1) return text.length;
    let backslashes = 0;
    while (text.charCodeAt(j - 1 - backslashes) === 0x5c) backslashes++;
    if (backslashes % 2 === 0) return j;
  }
}

/** A string longer than this is skipped with indexOf instead of byte by byte. */
const SHORT_STRING = 24;

/**
 * Colons outside strings: the number of object members written in a valid JSON text. Strings are
 * skipped byte by byte while short (most keys and values: faster than indexOf's call), and with
 * indexOf past that (a ConfigMap's kilobyte value: 4x faster than the byte loop).
 */
export function countMembers(bytes: Uint8Array): number {
  let count = 0;
  const len = bytes.length;
  for (let i = 0; i < len; i++) {
    const c = bytes[i];
    if (c === 0x3a) count++;
    else if (c === 0x22) {
      const shortEnd = Math.min(len, i + SHORT_STRING);
      let closed = false;
      for (i++; i < shortEnd; i++) {
        const d = bytes[i];
        if (d === 0x22) {
          closed = true;
          break;
        }
        if (d === 0x5c) i++;
      }
      if (!closed) i = longStringEnd(bytes, i);
    }
  }
  return count;
}

/**
 * Index of the quote closing a string, searching from `from` (inside the string, not inside an
 * escape); `bytes.length` when there is none. A quote ends the string when an even run of
 * backslashes precedes it.
 */
function longStringEnd(bytes: Uint8Array, from: number): number {
  for (let q = bytes.indexOf(0x22, from); q >= 0; q = bytes.indexOf(0x22, q + 1)) {
    let before = q - 1;
    while (bytes[before] === 0x5c) before--;
    if ((q - 1 - before) % 2 === 0) return q;
  }
  return bytes.length;
}

interface Frame {
  readonly isObject: boolean;
  readonly path: string;
  readonly seen: Set<string> | undefined;
  /** Array: index of the current element. */
  index: number;
  /** Object: whether the next string is a key. */
  expectKey: boolean;
  /** Object: the key whose value comes next. */
  key: string;
}

function memberPath(containerPath: string, key: string): string {
  return containerPath === '' ? key : `${containerPath}.${key}`;
}

function childPath(top: Frame | undefined): string {
  if (top === undefined) return '';
  return top.isObject ? memberPath(top.path, top.key) : `${top.path}[${top.index}]`;
}

function readKey(text: string, open: number, close: number): string {
  const raw = text.slice(open + 1, close);
  return raw.includes('\\') ? (JSON.parse(text.slice(open, close + 1)) as string) : raw;
}

/**
 * Paths of duplicate keys in `text`, which must be valid JSON, in document order, each once, at
 * most 100.
 */
export function scanDuplicatePaths(text: string): string[] {
  const found = new Set<string>();
  const stack: Frame[] = [];
  for (let i = 0; i < text.length && found.size < MAX_REPORTED; i++) {
    const c = text.charCodeAt(i);
    const top = stack[stack.length - 1];
    if (c === 0x7b || c === 0x5b) {
      const isObject = c === 0x7b;
      stack.push({ isObject, path: childPath(top), seen: isObject ? new Set() : undefined, index: 0, expectKey: isObject, key: '' });
    } else if (c === 0x7d || c === 0x5d) {
      stack.pop();
    } else if (c === 0x2c && top !== undefined) {
      if (top.isObject) top.expectKey = true;
      else top.index++;
    } else if (c === 0x22) {
      const close = stringEnd(text, i);
      if (top?.isObject && top.expectKey) {
        const key = readKey(text, i, close);
        if (top.seen!.has(key)) found.add(memberPath(top.path, key));
        else top.seen!.add(key);
        top.key = key;
        top.expectKey = false;
      }
      i = close;
    }
  }
  return [...found];
}
