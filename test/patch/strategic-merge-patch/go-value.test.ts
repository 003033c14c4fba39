import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../../../src/api/errors.js';
import { formatGo, goEqual, goHashKey, goTypeOf, reflectTypeName } from '../../../src/patch/strategic-merge-patch/go-value.js';

describe('Go view of decoded JSON', () => {
  const formats: { name: string; value: unknown; verb?: 'v' | 's'; want: string }[] = [
    { name: 'a map, keys sorted', value: { name: 'a', image: 'x' }, want: 'map[image:x name:a]' },
    { name: 'a nested map and list', value: { b: [1, 'two', null], a: { c: true } }, want: 'map[a:map[c:true] b:[1 two <nil>]]' },
    { name: 'keys sorted by bytes ($ before letters, upper before lower)', value: { name: 1, $patch: 'x', Z: 2 }, want: 'map[$patch:x Z:2 name:1]' },
    { name: 'an empty map and list', value: { a: {}, b: [] }, want: 'map[a:map[] b:[]]' },
    { name: 'a float as %v prints it', value: [1.5, 1e-7, 2.5e21], want: '[1.5 1e-07 2.5e+21]' },
    { name: 'a string with %s', value: 'merge', verb: 's', want: 'merge' },
    { name: 'an int with %s', value: 7, verb: 's', want: '%!s(int64=7)' },
    { name: 'a bool with %s', value: false, verb: 's', want: '%!s(bool=false)' },
    { name: 'nil with %s', value: null, verb: 's', want: '%!s(<nil>)' },
    { name: 'a map with %s', value: { a: 1, b: 'x' }, verb: 's', want: 'map[a:%!s(int64=1) b:x]' },
  ];
  for (const c of formats) {
    it(`formats ${c.name}`, () => assert.equal(formatGo(c.value, c.verb), c.want));
  }

  it('names types as reflect does', () => {
    assert.deepEqual(
      [{}, [], 's', 1, 1.5, 2 ** 63, true, null].map(goTypeOf),
      ['map[string]interface {}', '[]interface {}', 'string', 'int64', 'float64', 'float64', 'bool', 'nil'],
    );
    assert.equal(reflectTypeName(null), '%!s(<nil>)');
  });

  it('compares as Go == on interfaces: same type and value', () => {
    assert.equal(goEqual('80', 80), false);
    assert.equal(goEqual(80, 80), true);
    assert.equal(goEqual(1, 1.5), false);
    assert.equal(goEqual(null, null), true);
    assert.equal(goEqual({}, 'x'), false);
  });

  const panics = (fn: () => unknown) =>
    assert.throws(fn, (err: unknown) => err instanceof ApiError && err.code === 500 && err.reason === 'InternalError' && err.cause instanceof Error);

  it('panics, as Go does, comparing two maps or hashing a list', () => {
    panics(() => goEqual({ a: 1 }, { a: 1 }));
    panics(() => goEqual([], []));
    panics(() => goHashKey({}));
    assert.equal(goHashKey('x'), 'x');
  });
});
