import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { NAME_SUFFIX_ALPHABET, generateName } from '../../src/validation/generate-name.js';
import { nameIsDnsSubdomain } from '../../src/validation/name-validators.js';

/** Deterministic source: 0, 1, 2, ... modulo max. */
function counter(): (max: number) => number {
  let n = 0;
  return (max) => n++ % max;
}

describe('generateName', () => {
  const cases: { name: string; base: string; want: string }[] = [
    { name: 'appends five characters', base: 'web-', want: 'web-bcdfg' },
    { name: 'empty base', base: '', want: 'bcdfg' },
    { name: 'keeps 58 characters of the base', base: 'x'.repeat(70), want: `${'x'.repeat(58)}bcdfg` },
  ];
  for (const c of cases) it(c.name, () => assert.equal(generateName(c.base, counter()), c.want));

  it('draws every suffix character from upstream alphabet', () => {
    for (let i = 0; i < 200; i++) {
      const suffix = generateName('p-').slice(2);
      assert.equal(suffix.length, 5);
      assert.ok([...suffix].every((ch) => NAME_SUFFIX_ALPHABET.includes(ch)), suffix);
    }
  });

  it('produces valid names from valid prefixes', () => {
    for (const base of ['web-', 'a', 'x'.repeat(62) + '-', 'my.app-']) {
      assert.deepEqual(nameIsDnsSubdomain(generateName(base), false), [], base);
      assert.ok(generateName(base).length <= 63);
    }
  });
});
