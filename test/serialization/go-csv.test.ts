/** One CSV record as Go's encoding/csv reads it, which is how pflag reads string-slice flags. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readGoCsvRecord } from '../../src/serialization/go-csv.js';

describe('readGoCsvRecord', () => {
  const records: Array<[string, string[]]> = [
    ['a', ['a']],
    ['a,b', ['a', 'b']],
    [' a , b ', [' a ', ' b ']],
    ['a,,b,', ['a', '', 'b', '']],
    [',', ['', '']],
    ['"b,c",d', ['b,c', 'd']],
    ['"say ""hi"""', ['say "hi"']],
    ['""', ['']],
    ['a\nb,c', ['a']],
    ['a\r\n', ['a']],
    ['"x\ny",z\nw', ['x\ny', 'z']],
  ];
  for (const [text, want] of records) it(`reads ${JSON.stringify(text)}`, () => assert.deepEqual(readGoCsvRecord(text), want));

  const errors: Array<[string, string]> = [
    ['a"b', 'parse error on line 1, column 2: bare " in non-quoted-field'],
    ['ok,ü"', 'parse error on line 1, column 6: bare " in non-quoted-field'],
    ['"a"b', 'parse error on line 1, column 3: extraneous or missing " in quoted-field'],
    ['"abc', 'parse error on line 1, column 5: extraneous or missing " in quoted-field'],
    ['"ab\ncd', 'record on line 1; parse error on line 2, column 3: extraneous or missing " in quoted-field'],
  ];
  for (const [text, message] of errors) it(`refuses ${JSON.stringify(text)}`, () => assert.throws(() => readGoCsvRecord(text), { message }));
});
