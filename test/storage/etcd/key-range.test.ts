import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { prefixEnd } from '../../../src/storage/etcd/key-range.js';

describe('prefixEnd', () => {
  const cases: ReadonlyArray<{ name: string; prefix: number[] | string; end: number[] | string }> = [
    { name: 'a resource prefix', prefix: '/registry/pods/', end: '/registry/pods0' },
    { name: 'a trailing 0xff is dropped and the byte before it increased', prefix: [0x61, 0xff], end: [0x62] },
    { name: 'several trailing 0xff bytes', prefix: [0x61, 0x62, 0xff, 0xff], end: [0x61, 0x63] },
    { name: 'only 0xff bytes: no end ("\\0")', prefix: [0xff, 0xff], end: [0] },
    { name: 'the empty prefix: no end', prefix: [], end: [0] },
    { name: 'a multi-byte UTF-8 character', prefix: '/é', end: [0x2f, 0xc3, 0xaa] },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const bytes = (v: number[] | string) => (typeof v === 'string' ? Buffer.from(v) : Buffer.from(v));
      assert.deepEqual([...prefixEnd(bytes(c.prefix))], [...bytes(c.end)]);
    });
  }

  it('does not modify its argument', () => {
    const prefix = Buffer.from('/a/');
    prefixEnd(prefix);
    assert.equal(prefix.toString(), '/a/');
  });
});
