/**
 * Keys as etcd sees them: byte strings, ranges as [key, rangeEnd).
 */

/** The UTF-8 bytes of a key. */
export function keyBytes(key: string): Buffer {
  return Buffer.from(key, 'utf8');
}

/**
 * The first key after every key that starts with `prefix`: the prefix with its last byte that is
 * not 0xff increased by one and the rest cut off (etcd's `clientv3.GetPrefixRangeEnd`). For a
 * prefix of only 0xff bytes (or an empty one) the end is "\0", which etcd reads as "no end".
 *
 * Example: "/registry/pods/" -> "/registry/pods0" (since '/' + 1 = '0').
 */
export function prefixEnd(prefix: Buffer): Buffer {
  for (let i = prefix.length - 1; i >= 0; i--) {
    if (prefix[i]! < 0xff) {
      const end = Buffer.from(prefix.subarray(0, i + 1));
      end[i] = prefix[i]! + 1;
      return end;
    }
  }
  return Buffer.from([0]);
}
