import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUuid } from '../../src/util/random-uuid.js';

describe('randomUuid', () => {
  it('makes version 4, variant 10 UUIDs in lower-case hex, as crypto.randomUUID', () => {
    for (let i = 0; i < 1000; i++) assert.match(randomUuid(), /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('never repeats, across many batches of random bytes', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 20_000; i++) seen.add(randomUuid());
    assert.equal(seen.size, 20_000);
  });

  it('uses every hex digit in every free position (the bytes are random, not a counter)', () => {
    const digitsAt = Array.from({ length: 36 }, () => new Set<string>());
    for (let i = 0; i < 2000; i++) [...randomUuid()].forEach((c, at) => digitsAt[at]!.add(c));
    for (const at of [0, 7, 9, 12, 15, 20, 35]) assert.equal(digitsAt[at]!.size, 16, `position ${at}`);
    assert.deepEqual([...digitsAt[14]!], ['4']);
    assert.deepEqual([...digitsAt[19]!].sort(), ['8', '9', 'a', 'b']);
  });
});
