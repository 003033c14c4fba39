import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { prefixEnd, prefixRange } from '../../../src/storage/sqlite/key-range.js';

describe('key ranges', () => {
  const ends: ReadonlyArray<{ prefix: string; end: number[] }> = [
    { prefix: '/a/', end: [0x2f, 0x61, 0x30] },
    { prefix: 'é', end: [0xc3, 0xaa] },
    { prefix: '\u{10FFFF}', end: [0xf4, 0x8f, 0xbf, 0xc0] },
    { prefix: '', end: [0xff] },
  ];
  for (const c of ends) {
    it(`the keys under ${JSON.stringify(c.prefix)} end before ${Buffer.from(c.end).toString('hex')}`, () => {
      assert.deepEqual([...prefixEnd(c.prefix)], c.end);
    });
  }

  const starts: ReadonlyArray<{ name: string; startKey: string | undefined; start: string }> = [
    { name: 'no start key starts at the prefix', startKey: undefined, start: '/a/' },
    { name: 'a start key under the prefix is kept', startKey: '/a/m', start: '/a/m' },
    { name: 'a start key before the prefix is clamped to it', startKey: '/', start: '/a/' },
    { name: 'a start key after the prefix is kept (the range is empty)', startKey: '/b', start: '/b' },
  ];
  for (const c of starts) {
    it(c.name, () => {
      assert.equal(prefixRange('/a/', c.startKey).start, c.start);
    });
  }
});
