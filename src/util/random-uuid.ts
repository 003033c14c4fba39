/**
 * Random (version 4) UUIDs as crypto.randomUUID makes them, in one string allocation.
 *
 * Every request gets one (its Audit-Id), every new object another (its uid). Node's randomUUID
 * builds the 36 characters by concatenating two-digit pieces, ~590 bytes of intermediate strings
 * per call, some 6% of all a GET allocated and so of the young-generation collections it caused
 * (bench/RESULTS.md, twenty-seventh session). Here the digits are written into a reused byte
 * buffer and turned into a string once. The randomness is the same: bytes from the system's
 * CSPRNG, fetched in batches.
 */
import { randomFillSync } from 'node:crypto';

/** UUIDs per fetch of random bytes (16 bytes each). */
const BATCH = 256;

const HEX = Buffer.from('0123456789abcdef', 'latin1');
/** Where each byte's two digits go in `xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx`. */
const DIGIT_AT = [0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34];

const pool = Buffer.alloc(16 * BATCH);
let next = BATCH;
const text = Buffer.from('00000000-0000-0000-0000-000000000000', 'latin1');

export function randomUuid(): string {
  if (next === BATCH) {
    randomFillSync(pool);
    next = 0;
  }
  const at = 16 * next++;
  for (let i = 0; i < 16; i++) {
    let byte = pool[at + i]!;
    // RFC 9562: the version (4) in the high nibble of byte 6, the variant (10) in the top bits of byte 8.
    if (i === 6) byte = (byte & 0x0f) | 0x40;
    else if (i === 8) byte = (byte & 0x3f) | 0x80;
    const to = DIGIT_AT[i]!;
    text[to] = HEX[byte >> 4]!;
    text[to + 1] = HEX[byte & 0x0f]!;
  }
  return text.toString('latin1');
}
