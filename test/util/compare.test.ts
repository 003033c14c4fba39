import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { compareCodeUnits, sortCodeUnits } from '../../src/util/compare.js';

describe('sortCodeUnits', () => {
  it('orders as Array.prototype.sort does, by UTF-16 code units, small and large', () => {
    const alphabet = ['a', 'B', 'b', '.', 'f:a', 'f:', 'k:{"name":"x"}', '\u00e9', '\u{1F600}', '\uFFFF', '', 'aa'];
    let seed = 7;
    const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    for (const length of [0, 1, 2, 3, 5, 16, 17, 40]) {
      const names = Array.from({ length }, () => alphabet[Math.floor(random() * alphabet.length)]! + (random() < 0.5 ? 'x' : ''));
      const expected = [...names].sort();
      assert.equal(sortCodeUnits(names), names, 'sorted in place');
      assert.deepEqual(names, expected);
    }
  });

  it('compares by code units, not by locale', () => {
    assert.ok(compareCodeUnits('Z', 'a') < 0);
    assert.ok(compareCodeUnits('\uFFFF', '\u{1F600}') > 0);
    assert.equal(compareCodeUnits('x', 'x'), 0);
  });
});
