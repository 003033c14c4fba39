import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { goQuote, goQuoteByte } from '../../src/serialization/go-format.js';

describe('goQuote matches strconv.Quote', () => {
  const cases: { name: string; input: string; want: string }[] = [
    { name: 'plain', input: 'Bad_Name', want: '"Bad_Name"' },
    { name: 'quote and backslash', input: 'a"b\\c', want: '"a\\"b\\\\c"' },
    { name: 'short escapes', input: '\n\t\r\u0007\b\f\v', want: '"\\n\\t\\r\\a\\b\\f\\v"' },
    { name: 'other control characters', input: '\u0001\u007f', want: '"\\x01\\x7f"' },
    { name: 'C1 control and non-printable space', input: '\u0085\u00a0', want: '"\\u0085\\u00a0"' },
    { name: 'printable unicode kept', input: 'héllo 世界 😀', want: '"héllo 世界 😀"' },
    { name: 'lone surrogate as replacement character', input: '\ud800', want: '"\ufffd"' },
  ];
  for (const c of cases) it(c.name, () => assert.equal(goQuote(c.input), c.want));

  it('quotes bytes as the JSON scanner does', () => {
    assert.equal(goQuoteByte(0x27), "'\\''");
    assert.equal(goQuoteByte(0x22), `'"'`);
    assert.equal(goQuoteByte(0x78), "'x'");
    assert.equal(goQuoteByte(0x0a), "'\\n'");
  });
});
