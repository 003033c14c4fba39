/**
 * Go's strconv.ParseInt / ParseUint as parseGoInt gives them: the value, or strconv's error text
 * with what Go returns beside it (0 for bad syntax, the nearest bound when out of range).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { INT32_MAX, INT32_MIN, INT64_MAX, INT64_MIN, parseGoInt, type GoIntParser, type GoIntResult } from '../../src/serialization/go-int.js';

describe('parseGoInt', () => {
  const table: Array<[string, GoIntParser, bigint, bigint, GoIntResult]> = [
    ['42', 'ParseInt', INT64_MIN, INT64_MAX, { value: 42n }],
    ['+7', 'ParseInt', INT64_MIN, INT64_MAX, { value: 7n }],
    ['-7', 'ParseInt', INT64_MIN, INT64_MAX, { value: -7n }],
    ['9223372036854775807', 'ParseInt', INT64_MIN, INT64_MAX, { value: INT64_MAX }],
    ['9223372036854775808', 'ParseInt', INT64_MIN, INT64_MAX, { value: INT64_MAX, error: 'strconv.ParseInt: parsing "9223372036854775808": value out of range', outOfRange: true }],
    ['-9223372036854775809', 'ParseInt', INT64_MIN, INT64_MAX, { value: INT64_MIN, error: 'strconv.ParseInt: parsing "-9223372036854775809": value out of range', outOfRange: true }],
    ['1.5', 'ParseInt', INT64_MIN, INT64_MAX, { value: 0n, error: 'strconv.ParseInt: parsing "1.5": invalid syntax' }],
    ['', 'ParseInt', INT64_MIN, INT64_MAX, { value: 0n, error: 'strconv.ParseInt: parsing "": invalid syntax' }],
    // Quoted as Go's %q quotes: a control character as \x01, not JSON's \u0001.
    ['\u0001', 'ParseInt', INT64_MIN, INT64_MAX, { value: 0n, error: 'strconv.ParseInt: parsing "\\x01": invalid syntax' }],
    ['-1', 'ParseUint', 0n, 65535n, { value: 0n, error: 'strconv.ParseUint: parsing "-1": invalid syntax' }],
    ['70000', 'ParseUint', 0n, 65535n, { value: 65535n, error: 'strconv.ParseUint: parsing "70000": value out of range', outOfRange: true }],
  ];
  for (const [text, parser, min, max, want] of table) {
    it(`${parser} ${JSON.stringify(text)}`, () => assert.deepEqual(parseGoInt(text, parser, min, max), want));
  }
});

describe('parseGoInt with base 0 (Go literals, as pflag reads int flags)', () => {
  const ok = (text: string, value: bigint) => [text, { value }] as const;
  const syntax = (text: string) => [text, { value: 0n, error: `strconv.ParseInt: parsing ${JSON.stringify(text)}: invalid syntax` }] as const;
  const table: ReadonlyArray<readonly [string, GoIntResult]> = [
    ok('6443', 6443n), ok('-12', -12n), ok('+12', 12n), ok('0', 0n), ok('-0', 0n),
    ok('0x1F', 31n), ok('0X1f', 31n), ok('0o17', 15n), ok('0O17', 15n), ok('017', 15n), ok('0b101', 5n), ok('-0x10', -16n),
    ok('1_000', 1000n), ok('0x_1F', 31n), ok('0_17', 15n), ok('0b1_0', 2n),
    syntax('08'), syntax('0x'), syntax('0b'), syntax('0x1g'), syntax('0b102'), syntax('abc'), syntax(''), syntax('-'),
    syntax('_1'), syntax('1_'), syntax('1__0'), syntax('0x__1'), syntax('1.0'), syntax('1e3'), syntax(' 1'),
    ['0x80000000', { value: INT32_MAX, error: 'strconv.ParseInt: parsing "0x80000000": value out of range', outOfRange: true }],
    ['-0x80000001', { value: INT32_MIN, error: 'strconv.ParseInt: parsing "-0x80000001": value out of range', outOfRange: true }],
  ];
  for (const [text, want] of table) {
    it(JSON.stringify(text), () => assert.deepEqual(parseGoInt(text, 'ParseInt', INT32_MIN, INT32_MAX, 0), want));
  }

  it('keeps base 10 strict: no prefixes, underscores or leading-zero octal', () => {
    assert.deepEqual(parseGoInt('017', 'ParseInt', INT64_MIN, INT64_MAX), { value: 17n });
    for (const text of ['0x1F', '1_000']) assert.equal(parseGoInt(text, 'ParseInt', INT64_MIN, INT64_MAX).value, 0n);
  });
});

describe('parseGoInt as Atoi', () => {
  it("names Atoi in its errors and takes ParseInt's syntax", () => {
    assert.deepEqual(parseGoInt('-3', 'Atoi', INT64_MIN, INT64_MAX), { value: -3n });
    assert.deepEqual(parseGoInt('x', 'Atoi', INT64_MIN, INT64_MAX), { value: 0n, error: 'strconv.Atoi: parsing "x": invalid syntax' });
    assert.deepEqual(parseGoInt('99999999999999999999', 'Atoi', INT64_MIN, INT64_MAX),
      { value: INT64_MAX, error: 'strconv.Atoi: parsing "99999999999999999999": value out of range', outOfRange: true });
  });
});
