import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { goStableSort } from '../../../src/patch/strategic-merge-patch/go-stable-sort.js';

/** A deterministic pseudo-random sequence, so failures reproduce. */
function* numbers(seed: number): Generator<number> {
  let x = seed;
  for (;;) {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    yield x;
  }
}

/** Go's insertion sort, which is all sort.SliceStable does for up to 20 elements. */
function insertionSort<T>(data: T[], less: (a: T, b: T) => boolean): T[] {
  const out = [...data];
  for (let i = 1; i < out.length; i++) {
    for (let j = i; j > 0 && less(out[j]!, out[j - 1]!); j--) [out[j], out[j - 1]] = [out[j - 1]!, out[j]!];
  }
  return out;
}

describe('Go stable sort', () => {
  it('sorts stably with a consistent comparator, at every size', () => {
    const random = numbers(7);
    for (const size of [0, 1, 2, 19, 20, 21, 39, 40, 41, 64, 100, 257, 1000]) {
      const data = Array.from({ length: size }, (_, id) => ({ key: random.next().value! % 10, id }));
      const want = [...data].sort((a, b) => a.key - b.key);
      goStableSort(data, (a, b) => a.key < b.key);
      assert.deepEqual(data, want, `size ${size}`);
    }
  });

  it("matches Go's order for upstream's inconsistent comparator (unknown elements count as less)", () => {
    // Elements absent from the reference order (negative rank) compare as "less" both ways.
    const less = (a: number, b: number) => (a >= 0 && b >= 0 ? a < b : true);
    const random = numbers(11);
    for (let round = 0; round < 200; round++) {
      const size = 1 + (random.next().value! % 20);
      const data = Array.from({ length: size }, () => (random.next().value! % 4 === 0 ? -1 : random.next().value! % 8));
      const want = insertionSort(data, less);
      goStableSort(data, less);
      assert.deepEqual(data, want);
    }
  });

  it('moves unknown elements to the front in reverse, as Go does', () => {
    const data = ['k1', 'u1', 'u2'];
    goStableSort(data, (a, b) => !(a.startsWith('k') && b.startsWith('k')) || a < b);
    assert.deepEqual(data, ['u2', 'u1', 'k1']);
  });
});
