/**
 * Go's strconv.ParseInt / ParseUint as parseGoInt gives them: the value, or strconv's error text
 * with what Go returns beside it (0 for bad syntax, the nearest bound when out of range).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { INT64_MAX, INT64_MIN, parseGoInt, type GoIntParser } from '../../src/serialization/go-int.js';

describe('parseGoInt', () => {
  const table: Array<[string, GoIntParser, bigint, bigint, { value: bigint; error?: string }]> = [
    ['42', 'ParseInt', INT64_MIN, INT64_MAX, { value: 42n }],
    ['+7', 'ParseInt', INT64_MIN, INT64_MAX, { value: 7n }],
    ['-7', 'ParseInt', INT64_MIN, INT64_MAX, { value: -7n }],
    ['9223372036854775807', 'ParseInt', INT64_MIN, INT64_MAX, { value: INT64_MAX }],
    ['9223372036854775808', 'ParseInt', INT64_MIN, INT64_MAX, { value: INT64_MAX, error: 'strconv.ParseInt: parsing "9223372036854775808": value out of range' }],
    ['-9223372036854775809', 'ParseInt', INT64_MIN, INT64_MAX, { value: INT64_MIN, error: 'strconv.ParseInt: parsing "-9223372036854775809": value out of range' }],
    ['1.5', 'ParseInt', INT64_MIN, INT64_MAX, { value: 0n, error: 'strconv.ParseInt: parsing "1.5": invalid syntax' }],
    ['', 'ParseInt', INT64_MIN, INT64_MAX, { value: 0n, error: 'strconv.ParseInt: parsing "": invalid syntax' }],
    // Quoted as Go's %q quotes: a control character as \x01, not JSON's \u0001.
    ['\u0001', 'ParseInt', INT64_MIN, INT64_MAX, { value: 0n, error: 'strconv.ParseInt: parsing "\\x01": invalid syntax' }],
    ['-1', 'ParseUint', 0n, 65535n, { value: 0n, error: 'strconv.ParseUint: parsing "-1": invalid syntax' }],
    ['70000', 'ParseUint', 0n, 65535n, { value: 65535n, error: 'strconv.ParseUint: parsing "70000": value out of range' }],
  ];
  for (const [text, parser, min, max, want] of table) {
    it(`${parser} ${JSON.stringify(text)}`, () => assert.deepEqual(parseGoInt(text, parser, min, max), want));
  }
});
