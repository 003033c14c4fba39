/** Base-128 varints for the few places that lay out bytes by hand (frames, list headers). */

/** Bytes a varint of `value` (a non-negative safe integer) takes. */
export function varintLength(value: number): number {
  let length = 1;
  while (value >= 0x80) {
    value = Math.floor(value / 128);
    length++;
  }
  return length;
}

/** Writes `value` at `offset`; returns the offset after it. */
export function writeVarint(out: Uint8Array, offset: number, value: number): number {
  while (value >= 0x80) {
    out[offset++] = (value & 0x7f) | 0x80;
    value = Math.floor(value / 128);
  }
  out[offset++] = value;
  return offset;
}

/** `prefix`, then a varint of `value`, as a new buffer (a field's tag and length, say). */
export function withVarint(prefix: readonly number[], value: number): Buffer {
  const out = Buffer.allocUnsafe(prefix.length + varintLength(value));
  out.set(prefix, 0);
  writeVarint(out, prefix.length, value);
  return out;
}
