import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatDuration, parseDuration } from '../../src/server/duration.js';
import { firstAddress, parseCidr } from '../../src/server/cidr.js';

describe('parseDuration', () => {
  const good: Array<[string, number]> = [
    ['0', 0], ['1m0s', 60_000], ['300ms', 300], ['2h', 7_200_000], ['1.5h', 5_400_000], ['-2s', -2000], ['1h2m3s4ms', 3_723_004], ['1us', 0.001], ['.5s', 500],
    ['5.s', 5000], ['+3ms', 3], ['1µs', 0.001], ['1μs', 0.001],
    // An int64 of nanoseconds reaches 2^63 only when negative.
    ['-9223372036854775808ns', -9223372036854.775], ['9223372036854775807ns', 9223372036854.775], ['2562047h', 9_223_369_200_000],
  ];
  for (const [text, ms] of good) it(`parses ${text}`, () => assert.equal(parseDuration(text), ms));
  const bad: Array<[string, string]> = [
    ['', 'time: invalid duration ""'], ['abc', 'time: invalid duration "abc"'], ['10', 'time: missing unit in duration "10"'], ['5x', 'time: unknown unit "x" in duration "5x"'], ['1m-2s', 'time: unknown unit "m-" in duration "1m-2s"'],
    ['.s', 'time: invalid duration ".s"'], ['-', 'time: invalid duration "-"'],
    ['9223372036854775808ns', 'time: invalid duration "9223372036854775808ns"'],
    ['2562048h', 'time: invalid duration "2562048h"'], ['99999999999999999999s', 'time: invalid duration "99999999999999999999s"'],
    // Go's time package writes each byte of a control or non-ASCII character as \xNN.
    ['5\u00e9', 'time: unknown unit "\\xc3\\xa9" in duration "5\\xc3\\xa9"'], ['\u0007', 'time: invalid duration "\\x07"'], ['"1"s', 'time: invalid duration "\\"1\\"s"'],
  ];
  for (const [text, message] of bad) it(`refuses ${JSON.stringify(text)}`, () => assert.throws(() => parseDuration(text), { message }));
  const formats: Array<[number, string]> = [[0, '0s'], [60_000, '1m0s'], [300, '300ms'], [7_200_000, '2h0m0s'], [2000, '2s'], [90_500, '1m30.5s']];
  for (const [ms, text] of formats) it(`formats ${ms} as ${text}`, () => assert.equal(formatDuration(ms), text));
});

describe('cidr', () => {
  const table: Array<[string, string]> = [['10.0.0.0/24', '10.0.0.1'], ['10.96.5.7/12', '10.96.0.1'], ['fd00::/108', 'fd00::1'], ['2001:db8:0:0:1::/112', '2001:db8::1:0:0:1']];
  for (const [cidr, first] of table) it(`first address of ${cidr}`, () => assert.equal(firstAddress(parseCidr(cidr)), first));
  for (const bad of ['10.0.0.0', '10.0.0.0/33', 'x/8', '10.0.0.0/a', 'fd00::/129']) it(`refuses ${bad}`, () => assert.throws(() => parseCidr(bad), /invalid CIDR address/));
});
