import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SortedMap } from '../../../src/storage/cacher/sorted-map.js';

/** A deterministic pseudo-random sequence, so a failure can be replayed. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function entries<V>(map: SortedMap<V>, from = ''): [string, V][] {
  const out: [string, V][] = [];
  for (const c = map.cursor(from); c.key !== undefined; c.advance()) out.push([c.key, c.value!]);
  return out;
}

function sortedEntries<V>(reference: Map<string, V>, from = ''): [string, V][] {
  return [...reference].filter(([k]) => k >= from).sort(([a], [b]) => (a < b ? -1 : 1));
}

const key = (n: number): string => `k${String(n).padStart(5, '0')}`;

describe('SortedMap', () => {
  it('matches a reference map under random sets, edits and deletes, keeping every old version intact', () => {
    const next = random(7);
    let map = SortedMap.empty<number>();
    const reference = new Map<string, number>();
    const versions: { map: SortedMap<number>; expected: [string, number][] }[] = [];
    for (let step = 0; step < 20_000; step++) {
      const k = key(Math.floor(next() * 3000));
      if (next() < 0.3) {
        map = map.set(k, step);
        reference.set(k, step);
      } else if (next() < 0.6) {
        const editor = map.edit();
        assert.equal(editor.put(k, step), reference.get(k));
        map = editor.seal();
        reference.set(k, step);
      } else {
        map = map.delete(k);
        reference.delete(k);
      }
      if (step % 2000 === 0) versions.push({ map, expected: sortedEntries(reference) });
    }
    assert.equal(map.size, reference.size);
    assert.deepEqual(entries(map), sortedEntries(reference));
    for (const v of versions) assert.deepEqual(entries(v.map), v.expected, 'an old version did not change');
  });

  it('an editor matches a reference map across seals, and leaves every map it started from or sealed intact', () => {
    const next = random(11);
    let map = SortedMap.fromSorted([key(1), key(2)], [1, 2]);
    const reference = new Map<string, number>([[key(1), 1], [key(2), 2]]);
    const versions: { map: SortedMap<number>; expected: [string, number][] }[] = [{ map, expected: sortedEntries(reference) }];
    for (let run = 0; run < 300; run++) {
      const editor = map.edit();
      const puts = Math.floor(next() * 200);
      for (let p = 0; p < puts; p++) {
        const k = key(Math.floor(next() * 5000));
        const step = run * 1000 + p;
        assert.equal(editor.put(k, step), reference.get(k));
        reference.set(k, step);
      }
      map = editor.seal();
      assert.throws(() => editor.put(key(0), 0), /after seal/);
      assert.equal(map.size, reference.size);
      // Persistent changes of a sealed map must not disturb it either.
      if (next() < 0.3) {
        const k = key(Math.floor(next() * 5000));
        map = next() < 0.5 ? map.delete(k) : map.set(k, -run);
        if (map.has(k)) reference.set(k, -run);
        else reference.delete(k);
      }
      versions.push({ map, expected: sortedEntries(reference) });
    }
    assert.deepEqual(entries(map), sortedEntries(reference));
    for (const v of versions) {
      assert.deepEqual(entries(v.map), v.expected, 'an earlier version did not change');
      // Branch sizes: countBefore sums them along the path to a key.
      for (let n = 0; n < 5000; n += 499) assert.equal(v.map.countBefore(key(n)), v.expected.filter(([k]) => k < key(n)).length);
    }
  });

  it('empties completely and grows again', () => {
    let map = SortedMap.empty<number>();
    for (let i = 0; i < 5000; i++) map = map.set(key(i), i);
    for (let i = 0; i < 5000; i++) map = map.delete(key((i * 7919) % 5000));
    assert.equal(map.size, 0);
    assert.deepEqual(entries(map), []);
    map = map.set('a', 1);
    assert.deepEqual(entries(map), [['a', 1]]);
  });

  const lookups: { name: string; from: string; count: number }[] = [
    { name: 'before every key', from: '', count: 0 },
    { name: 'at an existing key', from: key(500), count: 250 },
    { name: 'between two keys', from: `${key(500)}x`, count: 251 },
    { name: 'after every key', from: 'z', count: 1000 },
  ];
  for (const l of lookups) {
    it(`countBefore and cursor agree ${l.name}`, () => {
      const keys = Array.from({ length: 1000 }, (_, i) => key(i * 2));
      const map = SortedMap.fromSorted(keys, keys.map((_, i) => i));
      assert.equal(map.countBefore(l.from), l.count);
      assert.equal(entries(map, l.from).length, 1000 - l.count);
      assert.equal(map.countBefore(undefined), 1000);
    });
  }

  it('fromSorted builds a valid tree of any size that later writes keep valid', () => {
    for (const n of [0, 1, 31, 32, 33, 64, 65, 1000, 1057]) {
      const keys = Array.from({ length: n }, (_, i) => key(i));
      let map = SortedMap.fromSorted(keys, keys);
      const reference = new Map(keys.map((k) => [k, k]));
      for (let i = 0; i < n; i += 3) {
        map = map.delete(key(i));
        reference.delete(key(i));
      }
      map = map.set('a', 'a');
      reference.set('a', 'a');
      assert.deepEqual(entries(map), sortedEntries(reference), `n=${n}`);
      assert.equal(map.size, reference.size);
    }
  });

  it('fromSorted rejects unsorted input', () => {
    assert.throws(() => SortedMap.fromSorted(['b', 'a'], [1, 2]), RangeError);
  });

  it('get, has and delete of absent keys', () => {
    const map = SortedMap.empty<number>().set('b', 1);
    assert.equal(map.get('a'), undefined);
    assert.equal(map.has('b'), true);
    assert.equal(map.delete('a'), map, 'deleting an absent key returns the same map');
  });
});
