import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { POD, smp, type Json } from './smp-fixtures.js';

/** A pod whose containers are named `names`; `extra` adds fields to the named container. */
function podWith(names: string[], extra: Record<string, Json> = {}): Json {
  return { spec: { containers: names.map((name) => ({ name, ...extra[name] })) } };
}

const names = (value: unknown): string[] => (value as Json).spec.containers.map((c: Json) => c.name);

interface OrderCase {
  name: string;
  live: string[];
  patch: Json;
  want: string[];
}

// Orders upstream produces: patch elements by the patch (or $setElementOrder), server-only elements
// by the live list, interleaved where the live list had a server element first.
const cases: OrderCase[] = [
  { name: 'patch elements keep the patch order, server elements fill in by live order', live: ['a', 'b', 'c', 'd'], patch: { containers: [{ name: 'd' }, { name: 'a' }] }, want: ['b', 'c', 'd', 'a'] },
  { name: 'a new element goes first when the patch names no live one', live: ['a', 'b'], patch: { containers: [{ name: 'n' }] }, want: ['n', 'a', 'b'] },
  { name: 'a new element follows the live one the patch names before it', live: ['a', 'b'], patch: { containers: [{ name: 'a' }, { name: 'n' }] }, want: ['a', 'n', 'b'] },
  {
    name: '$setElementOrder wins over the patch list order',
    live: ['a', 'b', 'c'],
    patch: { '$setElementOrder/containers': [{ name: 'c' }, { name: 'a' }, { name: 'b' }], containers: [{ name: 'c' }] },
    want: ['c', 'a', 'b'],
  },
  {
    name: '$setElementOrder naming an element no list has',
    live: ['1', '3'],
    patch: { '$setElementOrder/containers': [{ name: '3' }, { name: '2' }, { name: '1' }], containers: [{ name: '3' }, { name: '1' }] },
    want: ['3', '1'],
  },
  {
    name: '$setElementOrder that leaves a live element out keeps it by live order',
    live: ['a', 'b', 'c'],
    patch: { '$setElementOrder/containers': [{ name: 'c' }, { name: 'a' }] },
    want: ['b', 'c', 'a'],
  },
  {
    // Upstream orders the server's elements by the live Go slice after the merge changed it in
    // place: the deletion shifted b and d left and the added c took the freed slot, so d sorts before c.
    name: 'an element added where one was deleted is ordered by the slot it took, as upstream',
    live: ['a', 'b', 'd'],
    patch: { '$setElementOrder/containers': [{ name: 'b' }, { name: 'c' }], containers: [{ name: 'c' }, { name: 'a', $patch: 'delete' }] },
    want: ['b', 'd', 'c'],
  },
  {
    name: 'only the first added element takes a freed slot',
    live: ['a', 'd'],
    patch: { '$setElementOrder/containers': [{ name: 'b' }, { name: 'c' }], containers: [{ name: 'b' }, { name: 'c' }, { name: 'a', $patch: 'delete' }] },
    want: ['d', 'b', 'c'],
  },
  {
    name: 'a deleted element named by $setElementOrder goes nowhere',
    live: ['a', 'b'],
    patch: { '$setElementOrder/containers': [{ name: 'b' }], containers: [{ name: 'a', $patch: 'delete' }] },
    want: ['b'],
  },
];

describe('strategic merge patch: element order', () => {
  for (const c of cases) {
    it(c.name, () => {
      assert.deepEqual(names(smp(POD, podWith(c.live), { spec: c.patch }).value), c.want);
    });
  }

  it('every duplicate of a deleted key goes', () => {
    const value = smp(POD, podWith(['a', 'b', 'a']), { spec: { containers: [{ name: 'a', $patch: 'delete' }] } }).value;
    assert.deepEqual(names(value), ['b']);
  });

  it('patch elements with the same key merge into one', () => {
    const value = smp(POD, podWith([]), { spec: { containers: [{ name: 'n', image: 'x' }, { name: 'n', args: ['y'] }] } }).value as Json;
    assert.deepEqual(value.spec.containers, [{ name: 'n', image: 'x', args: ['y'] }]);
  });
});
