/** strconv.ParseFloat(s, 64) as pflag's float flags read it. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseGoFloat } from '../../src/serialization/go-float.js';

describe('parseGoFloat', () => {
  const values: Array<[string, number]> = [
    ['0.02', 0.02], ['1', 1], ['-1.5e-3', -0.0015], ['.5', 0.5], ['5.', 5], ['+2E2', 200], ['1_000.5', 1000.5],
    ['0x1p-2', 0.25], ['0x1.8p1', 3], ['0X_1P4', 16], ['inf', Infinity], ['-Infinity', -Infinity], ['1e-400', 0],
  ];
  for (const [text, want] of values) it(`reads ${text}`, () => assert.deepEqual(parseGoFloat(text), { value: want }));
  it('reads NaN', () => assert.ok(Number.isNaN(parseGoFloat('nan').value) && parseGoFloat('NaN').error === undefined));

  const invalid = ['', ' 1', '1 ', 'abc', '0x10', '1e', '1__0', '_1', '1_', '1._5', '+nan', '0.0.1', '1,5', 'Infinityx'];
  for (const text of invalid) {
    it(`refuses ${JSON.stringify(text)}`, () => assert.deepEqual(parseGoFloat(text), { value: 0, error: `strconv.ParseFloat: parsing ${JSON.stringify(text)}: invalid syntax` }));
  }
  it('says when a value is out of range', () => {
    assert.deepEqual(parseGoFloat('1e400'), { value: Infinity, error: 'strconv.ParseFloat: parsing "1e400": value out of range' });
    assert.deepEqual(parseGoFloat('-1e400'), { value: -Infinity, error: 'strconv.ParseFloat: parsing "-1e400": value out of range' });
  });
});
