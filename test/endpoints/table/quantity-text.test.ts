import { test } from 'node:test';
import assert from 'node:assert/strict';
import { canonicalQuantity } from '../../../src/endpoints/table/quantity-text.js';
import { quantityText } from '../../../src/endpoints/table/cell-format.js';

const cases: readonly [input: string, expected: string][] = [
  ['0', '0'],
  ['0Gi', '0'],
  ['1Gi', '1Gi'],
  ['10Gi', '10Gi'],
  ['1024Mi', '1Gi'],
  ['1.5Gi', '1536Mi'],
  ['1536Mi', '1536Mi'],
  ['0.5Ki', '512'],
  ['1Ki', '1Ki'],
  ['1000Mi', '1000Mi'],
  ['100m', '100m'],
  ['1.5', '1500m'],
  ['0.1', '100m'],
  ['2000m', '2'],
  ['1000', '1k'],
  ['1200', '1200'],
  ['12000', '12k'],
  ['5G', '5G'],
  ['1e3', '1e3'],
  ['1.5e3', '1500'],
  ['1000e0', '1e3'],
  ['0.0000000001', '1n'],
  ['-1.5', '-1500m'],
  ['-2Gi', '-2Gi'],
  ['+3', '3'],
  ['1e21', '1e21'],
];

for (const [input, expected] of cases) {
  test(`canonical quantity ${input} → ${expected}`, () => {
    assert.equal(canonicalQuantity(input), expected);
  });
}

test('text that is not a quantity is left alone', () => {
  for (const input of ['', 'abc', '1.2.3', '5 Gi', 'Gi']) assert.equal(canonicalQuantity(input), undefined, input);
  assert.equal(quantityText('lots'), 'lots');
  assert.equal(quantityText(undefined), '0');
  assert.equal(quantityText(2048), '2048');
});
