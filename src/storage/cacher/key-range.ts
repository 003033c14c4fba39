/** The keys a read or watch covers: every key under a prefix, or exactly one key. */
export class KeyRange {
  constructor(
    readonly prefix: string,
    /** When set, only this key (which lies under the prefix). */
    readonly key?: string,
  ) {}

  covers(key: string): boolean {
    return this.key === undefined ? key.startsWith(this.prefix) : key === this.key;
  }

  /** The first key a scan of the range starts at. */
  get first(): string {
    return this.key ?? this.prefix;
  }
}

/**
 * The smallest string above every string that starts with `prefix` (undefined for the empty
 * prefix, which has no such bound): where a count of the prefix's keys stops.
 */
export function prefixEnd(prefix: string): string | undefined {
  for (let i = prefix.length - 1; i >= 0; i--) {
    const code = prefix.charCodeAt(i);
    if (code < 0xffff) return prefix.slice(0, i) + String.fromCharCode(code + 1);
  }
  return undefined;
}

const ABOVE_BMP_ORDER = /[\uD800-\uFFFF]/;

/**
 * The form of a key the cache's sorted map orders by. The store orders keys by their UTF-8 bytes,
 * which is code point order; JavaScript compares UTF-16 code units, which differs only where a
 * surrogate (an astral character) meets a unit in U+E000..U+FFFF. Moving surrogates above that
 * range (and that range down by 0x800) makes code unit order equal code point order. The mapping is
 * per code unit, so it keeps prefixes: `sortKey(k).startsWith(sortKey(p))` iff `k.startsWith(p)`.
 * ASCII keys, i.e. every key the API server writes, come back unchanged.
 */
export function sortKey(key: string): string {
  if (!ABOVE_BMP_ORDER.test(key)) return key;
  let out = '';
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    out += String.fromCharCode(c < 0xd800 ? c : c <= 0xdfff ? c + 0x2000 : c - 0x800);
  }
  return out;
}
