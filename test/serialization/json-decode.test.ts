import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { JsonSyntaxError, decodeJson } from '../../src/serialization/json-decode.js';

const bytes = (s: string): Buffer => Buffer.from(s, 'utf8');

describe('decodeJson duplicate fields', () => {
  const cases: { name: string; body: string; want: string[] }[] = [
    { name: 'none', body: '{"a":1,"b":{"c":[{"d":1},{"d":2}]}}', want: [] },
    { name: 'top level', body: '{"a":1,"a":2}', want: ['a'] },
    { name: 'reported once however often repeated', body: '{"a":1,"a":2,"a":3,"b":4,"b":5}', want: ['a', 'b'] },
    { name: 'nested object', body: '{"metadata":{"labels":{"x":"1","x":"2"}}}', want: ['metadata.labels.x'] },
    { name: 'inside array element', body: '{"e":[{"g":1},{"f":1,"f":1}]}', want: ['e[1].f'] },
    { name: 'nested arrays', body: '{"e":[[{"g":1,"g":2}]]}', want: ['e[0][0].g'] },
    { name: 'top-level array', body: '[{"op":"add"},{"op":"add","op":"remove"}]', want: ['[1].op'] },
    { name: 'inner before outer, in document order', body: '{"a":{"x":1,"x":2},"a":1,"d":{"e":{"f":1,"f":1}}}', want: ['a.x', 'a', 'd.e.f'] },
    { name: 'escaped keys compared decoded', body: '{"a":1,"\\u0061":2}', want: ['a'] },
    { name: 'colons and quotes inside strings ignored', body: '{"a":"x:\\"y\\":z","b":"::"}', want: [] },
    { name: 'same key in sibling objects is fine', body: '[{"a":1},{"a":1}]', want: [] },
    { name: 'golden strict body', body: '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm2","bogus":1},"data":{"a":"b"},"extra":true,"data":{"x":"y"}}', want: ['data'] },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.deepEqual(decodeJson(bytes(c.body)).duplicateFields, c.want);
    });
  }

  it('finds duplicates after long strings whatever escapes sit where the quick skip changes pace', () => {
    // Strings past 24 bytes are skipped differently from short ones: put escaped quotes,
    // backslashes and colons at every offset around that point, in keys and in values.
    for (let length = 18; length <= 40; length++) {
      for (const piece of ['\\"', '\\\\', ':', '\\\\"', '"\\']) {
        for (let at = 0; at + piece.length <= length; at++) {
          const text = 'x'.repeat(at) + piece + 'y'.repeat(length - at - piece.length);
          const string = JSON.stringify(text);
          assert.deepEqual(decodeJson(bytes(`{"a":${string},"b":{${string}:1},"a":2}`)).duplicateFields, ['a'], string);
          assert.deepEqual(decodeJson(bytes(`{"a":${string},"b":{${string}:1},"c":2}`)).duplicateFields, [], string);
        }
      }
    }
  });

  it('keeps the last value, as Go does for maps and interface{}', () => {
    const { value } = decodeJson(bytes('{"data":{"a":"b"},"data":{"x":"y"}}'));
    assert.deepEqual(value, { data: { x: 'y' } });
  });

  it('reports at most 100', () => {
    const members = Array.from({ length: 150 }, (_, i) => `"k${i}":1,"k${i}":2`).join(',');
    assert.equal(decodeJson(bytes(`{${members}}`)).duplicateFields.length, 100);
  });

  it('keeps __proto__ as an ordinary key', () => {
    const { value } = decodeJson(bytes('{"__proto__":{"polluted":true}}'));
    assert.equal(({} as Record<string, unknown>)['polluted'], undefined);
    assert.deepEqual(Object.keys(value as object), ['__proto__']);
  });
});

describe('decodeJson syntax errors use Go wording', () => {
  const cases: { name: string; body: string | Buffer; want: string }[] = [
    { name: 'empty body', body: '', want: 'unexpected end of JSON input' },
    { name: 'only whitespace', body: '  \n', want: 'unexpected end of JSON input' },
    { name: 'not JSON', body: 'not json', want: "invalid character 'o' in literal null (expecting 'u')" },
    { name: 'word', body: 'hello', want: "invalid character 'h' looking for beginning of value" },
    { name: 'truncated', body: '{"a":', want: 'unexpected end of JSON input' },
    { name: 'trailing comma in object', body: '{"a":1,}', want: "invalid character '}' looking for beginning of object key string" },
    { name: 'missing colon', body: '{"a" 1}', want: "invalid character '1' after object key" },
    { name: 'missing comma', body: '{"a":1 "b":2}', want: `invalid character '"' after object key:value pair` },
    { name: 'array missing comma', body: '[1 2]', want: "invalid character '2' after array element" },
    { name: 'trailing comma in array', body: '[1,]', want: "invalid character ']' looking for beginning of value" },
    { name: 'leading comma in array', body: '[,]', want: "invalid character ',' looking for beginning of value" },
    { name: 'trailing garbage', body: '{} x', want: "invalid character 'x' after top-level value" },
    { name: 'extra closing bracket', body: '[1,2]]', want: "invalid character ']' after top-level value" },
    { name: 'object closed inside an array', body: '{"a":[1,2}', want: "invalid character '}' after array element" },
    { name: 'array closed inside an object', body: '{"a":1]', want: "invalid character ']' after object key:value pair" },
    { name: 'unterminated string', body: '{"a":"b', want: 'unexpected end of JSON input' },
    { name: 'nested error deep inside', body: '{"a":{"b":[{"c":nul}]}}', want: "invalid character '}' in literal null (expecting 'l')" },
    { name: 'single-quoted key', body: "{'a':1}", want: "invalid character '\\'' looking for beginning of object key string" },
    { name: 'control character in string', body: '{"a":"\u0001"}', want: "invalid character '\\x01' in string literal" },
    { name: 'bad escape', body: '{"a":"\\q"}', want: "invalid character 'q' in string escape code" },
    { name: 'bad unicode escape', body: '{"a":"\\u12g4"}', want: "invalid character 'g' in \\u hexadecimal character escape" },
    { name: 'minus without digits', body: '{"a":-x}', want: "invalid character 'x' in numeric literal" },
    { name: 'decimal point without digits', body: '{"a":1.x}', want: "invalid character 'x' after decimal point in numeric literal" },
    { name: 'exponent without digits', body: '{"a":1ex}', want: "invalid character 'x' in exponent of numeric literal" },
    { name: 'leading zero', body: '{"a":01}', want: "invalid character '1' after object key:value pair" },
    { name: 'broken literal', body: '{"a":tru}', want: "invalid character '}' in literal true (expecting 'e')" },
    { name: 'byte order mark', body: Buffer.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d]), want: "invalid character 'ï' looking for beginning of value" },
    { name: 'too deep', body: '['.repeat(1001) + ']'.repeat(1001), want: "invalid character '[' exceeded max depth" },
    { name: 'too deep in an object', body: '{"a":'.repeat(1001) + '1' + '}'.repeat(1001), want: "invalid character '{' exceeded max depth" },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.throws(
        () => decodeJson(typeof c.body === 'string' ? bytes(c.body) : c.body),
        (err: unknown) => err instanceof JsonSyntaxError && err.message === c.want,
      );
    });
  }

  it('accepts nesting at the limit', () => {
    const { value } = decodeJson(bytes('['.repeat(1000) + ']'.repeat(1000)));
    assert.ok(Array.isArray(value));
  });

  it('decodes a large body with a duplicate deep inside', () => {
    const items = Array.from({ length: 2000 }, (_, i) => ({ metadata: { name: `n${i}`, labels: { a: 'b' } } }));
    const text = JSON.stringify({ items }).replace('"name":"n1500"', '"name":"n1500","name":"again"');
    assert.deepEqual(decodeJson(bytes(text)).duplicateFields, ['items[1500].metadata.name']);
  });
});
