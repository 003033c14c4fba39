/**
 * Key ranges as SQL bounds. Keys are stored as TEXT compared with SQLite's BINARY collation, which
 * is memcmp over UTF-8: the byte order etcd uses. A prefix's keys are exactly those `k` with
 * `prefix <= k < end`, where `end` is the prefix's UTF-8 bytes with the last byte increased by one.
 * Example: '/registry/pods/' covers ['/registry/pods/', '/registry/pods0').
 *
 * The end bound is usually not valid UTF-8 (incrementing 0xBF gives 0xC0), so it is passed to SQL
 * as a BLOB and cast to TEXT there, which keeps the bytes as they are.
 */

/** An SQL-ready half-open key range [start, end). */
export interface KeyRange {
  readonly start: string;
  /** UTF-8 bytes of the exclusive upper bound. */
  readonly end: Buffer;
}

/** UTF-8 never contains the byte 0xFF, so this bound lies above every key. */
const ABOVE_EVERY_KEY = Buffer.from([0xff]);

/**
 * The range of keys under `prefix`, starting at `startKey` when given. A start key before the
 * prefix is clamped to the prefix; one after the prefix's keys yields an empty range.
 */
export function prefixRange(prefix: string, startKey?: string): KeyRange {
  const end = prefixEnd(prefix);
  const startsLater = startKey !== undefined && Buffer.compare(Buffer.from(startKey), Buffer.from(prefix)) > 0;
  return { start: startsLater ? startKey : prefix, end };
}

/** The exclusive upper bound of the keys that begin with `prefix`. */
export function prefixEnd(prefix: string): Buffer {
  const bytes = Buffer.from(prefix, 'utf8');
  if (bytes.length === 0) return ABOVE_EVERY_KEY;
  // Text ends in an ASCII byte or a continuation byte (at most 0xBF): no overflow.
  bytes[bytes.length - 1]! += 1;
  return bytes;
}
