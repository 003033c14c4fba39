import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { YamlSyntaxError, decodeYaml } from '../../src/serialization/yaml-decode.js';
import { formatGoFloat } from '../../src/serialization/go-format.js';
import { encodeYaml } from '../../src/serialization/yaml-encode.js';
import { sortYamlKeys } from '../../src/serialization/yaml-key-order.js';

const y = (s: string): Buffer => Buffer.from(s, 'utf8');

describe('decodeYaml reads as go-yaml v2 does', () => {
  const cases: { name: string; body: string; want: unknown }[] = [
    { name: 'YAML 1.1 booleans', body: 'a: yes\nb: off\nc: y\nd: "yes"\n', want: { a: true, b: false, c: true, d: 'yes' } },
    { name: 'timestamps stay strings', body: 'a: 2001-12-14\nb: 2026-11-21T08:42:17Z\n', want: { a: '2001-12-14', b: '2026-11-21T08:42:17Z' } },
    { name: 'base-60 numbers stay strings', body: 'a: 190:20:30\n', want: { a: '190:20:30' } },
    { name: 'octal integers', body: 'a: 0777\n', want: { a: 511 } },
    { name: 'non-string keys become strings', body: '1: one\ntrue: t\n', want: { '1': 'one', true: 't' } },
    { name: 'merge keys', body: 'base: &b {x: 1}\nm:\n  <<: *b\n  w: 2\n', want: { base: { x: 1 }, m: { x: 1, w: 2 } } },
    { name: 'y is a boolean key too', body: 'y: 1\n', want: { true: 1 } },
    { name: 'JSON is YAML', body: '{"a": [1, {"b": null}]}', want: { a: [1, { b: null }] } },
    { name: 'only the first document', body: 'a: 1\n---\nb: 2\n', want: { a: 1 } },
    { name: 'empty body', body: '', want: null },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(decodeYaml(y(c.body)).value, c.want));

  it('reports every duplicate key with its line, in document order', () => {
    const { strictErrors, value } = decodeYaml(y('a: 1\nm:\n  x: 1\n  x:\n    z: 2\na: 2\n1: p\n1: q\n'));
    assert.deepEqual(strictErrors, [
      'yaml: unmarshal errors:\n  line 5: key "x" already set in map\n  line 6: key "a" already set in map\n  line 8: key 1 already set in map',
    ]);
    assert.deepEqual(value, { '1': 'q', a: 2, m: { x: { z: 2 } } });
  });

  it('has no strict errors without duplicates', () => {
    assert.deepEqual(decodeYaml(y('a: 1\nb: [1, 1]\n')).strictErrors, []);
  });

  it('rejects malformed YAML with the line', () => {
    assert.throws(() => decodeYaml(y('a: 1\nb: [1, 2\n')), (e: unknown) => e instanceof YamlSyntaxError && /^yaml: line \d+: /.test(e.message));
  });

  it('rejects nesting deeper than JSON bodies may be', () => {
    let block = '';
    for (let i = 0; i < 1000; i++) block += `${' '.repeat(i)}a:\n`;
    block += `${' '.repeat(1000)}b: 1\n`;
    // Depending on the stack left, the YAML parser's own recursion may give out first; either way
    // it is a syntax error (a 400), never an escaping RangeError.
    assert.throws(() => decodeYaml(y(block)), YamlSyntaxError);
    assert.throws(() => decodeYaml(y('['.repeat(1001) + ']'.repeat(1001))), YamlSyntaxError);
  });

  it('rejects alias bombs', () => {
    const bomb = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
    for (let i = 0; i < 8; i++) bomb.push(`${'bcdefghi'[i]}: &${'bcdefghi'[i]} [${Array(9).fill(`*${'abcdefgh'[i]}`).join(',')}]`);
    assert.throws(() => decodeYaml(y(bomb.join('\n'))), YamlSyntaxError);
  });
});

describe('encodeYaml writes as sigs.k8s.io/yaml does', () => {
  it('a ConfigMap as upstream prints it', () => {
    const cm = {
      kind: 'ConfigMap',
      apiVersion: 'v1',
      metadata: {
        name: 'cm1',
        namespace: 'golden',
        resourceVersion: '211',
        creationTimestamp: '2026-11-21T08:42:17Z',
        finalizers: ['example.com/f'],
        managedFields: [{ manager: 'curl', operation: 'Update', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { '.': {}, 'f:a': {} } } }],
      },
      data: { a: 'b' },
    };
    assert.equal(
      encodeYaml(cm),
      [
        'apiVersion: v1',
        'data:',
        '  a: b',
        'kind: ConfigMap',
        'metadata:',
        '  creationTimestamp: "2026-11-21T08:42:17Z"',
        '  finalizers:',
        '  - example.com/f',
        '  managedFields:',
        '  - fieldsType: FieldsV1',
        '    fieldsV1:',
        '      f:data:',
        '        .: {}',
        '        f:a: {}',
        '    manager: curl',
        '    operation: Update',
        '  name: cm1',
        '  namespace: golden',
        '  resourceVersion: "211"',
        '',
      ].join('\n'),
    );
  });

  const scalars: { name: string; value: unknown; want: string }[] = [
    { name: 'plain string', value: 'nginx:1.25', want: 'v: nginx:1.25\n' },
    { name: 'empty string', value: '', want: 'v: ""\n' },
    { name: 'string that reads as bool', value: 'yes', want: 'v: "yes"\n' },
    { name: 'string that reads as null', value: 'null', want: 'v: "null"\n' },
    { name: 'string that reads as int', value: '123', want: 'v: "123"\n' },
    { name: 'string that reads as float', value: '1e3', want: 'v: "1e3"\n' },
    { name: 'string that reads as base-60', value: '12:30', want: 'v: "12:30"\n' },
    { name: 'string that reads as timestamp', value: '2001-12-14', want: 'v: "2001-12-14"\n' },
    { name: 'not a timestamp', value: '2001-13-14', want: 'v: 2001-13-14\n' },
    { name: 'leading indicator', value: '*x', want: "v: '*x'\n" },
    { name: 'colon space', value: 'a: b', want: "v: 'a: b'\n" },
    { name: 'hash after space', value: 'a #b', want: "v: 'a #b'\n" },
    { name: 'lone dash', value: '-', want: "v: '-'\n" },
    { name: 'single quote doubled', value: "'x'", want: "v: '''x'''\n" },
    { name: 'leading space', value: ' x', want: "v: ' x'\n" },
    { name: 'tab needs escapes', value: 'a\tb', want: 'v: "a\\tb"\n' },
    { name: 'beyond U+FFFF escaped', value: '😀', want: 'v: "\\U0001F600"\n' },
    { name: 'BMP unicode plain', value: 'héllo', want: 'v: héllo\n' },
    { name: 'multi-line literal', value: 'a\nb\n', want: 'v: |\n  a\n  b\n' },
    { name: 'multi-line literal strip', value: 'a\nb', want: 'v: |-\n  a\n  b\n' },
    { name: 'multi-line literal keep', value: 'a\n\n', want: 'v: |+\n  a\n\n' },
    { name: 'multi-line with leading space', value: ' a\nb', want: 'v: |2-\n   a\n  b\n' },
    { name: 'multi-line with trailing space', value: 'a \nb', want: 'v: "a \\nb"\n' },
    { name: 'integer', value: 42, want: 'v: 42\n' },
    { name: 'float', value: 1.5, want: 'v: 1.5\n' },
    { name: 'large float', value: 1234567.5, want: 'v: 1.2345675e+06\n' },
    { name: 'small float', value: 0.00001, want: 'v: 1e-05\n' },
    { name: 'boolean', value: true, want: 'v: true\n' },
    { name: 'null', value: null, want: 'v: null\n' },
    { name: 'empty map', value: {}, want: 'v: {}\n' },
    { name: 'empty list', value: [], want: 'v: []\n' },
    { name: 'nested list', value: [[1, 2], ['a']], want: 'v:\n- - 1\n  - 2\n- - a\n' },
    { name: 'list of maps', value: [{ b: 1, a: 2 }], want: 'v:\n- a: 2\n  b: 1\n' },
  ];
  for (const c of scalars) it(c.name, () => assert.equal(encodeYaml({ v: c.value }), c.want));

  it('quotes keys that need it', () => {
    assert.equal(encodeYaml({ n: 1, 'a: b': 2, '': 3 }), '"": 3\n\'a: b\': 2\n"n": 1\n');
  });

  it('folds long plain scalars after column 80', () => {
    const words = Array(30).fill('word').join(' ');
    const out = encodeYaml({ long: words });
    assert.equal(out, `long: ${Array(16).fill('word').join(' ')}\n  ${Array(14).fill('word').join(' ')}\n`);
  });

  it('writes long keys as complex keys', () => {
    const key = 'k'.repeat(129);
    assert.equal(encodeYaml({ [key]: 'v' }), `? ${key}\n: v\n`);
  });

  it('skips undefined members as JSON does', () => {
    assert.equal(encodeYaml({ a: undefined, b: 1 }), 'b: 1\n');
  });

  it('round-trips through decodeYaml', () => {
    const value = { a: ['x', 'yes', '', '1.5', 'a: b', 'multi\nline', { n: null }], b: { c: true, d: -3.25 } };
    assert.deepEqual(decodeYaml(Buffer.from(encodeYaml(value))).value, value);
  });
});

describe('sortYamlKeys', () => {
  it('orders as go-yaml: digits numerically, letters after other characters', () => {
    assert.deepEqual(sortYamlKeys(['kind', 'apiVersion', 'metadata', 'data']), ['apiVersion', 'data', 'kind', 'metadata']);
    assert.deepEqual(sortYamlKeys(['item10', 'item2', 'item1']), ['item1', 'item2', 'item10']);
    assert.deepEqual(sortYamlKeys(['b', 'B', 'a', '1', '.', 'f:a']), ['.', '1', 'B', 'a', 'b', 'f:a']);
  });
});

describe('formatGoFloat', () => {
  const cases: [number, string][] = [
    [1.5, '1.5'],
    [0.0001, '0.0001'],
    [0.00001, '1e-05'],
    [123456.5, '123456.5'],
    [1234567.5, '1.2345675e+06'],
    [1e21, '1e+21'],
    [-2.5e-7, '-2.5e-07'],
  ];
  for (const [input, want] of cases) it(`${input} -> ${want}`, () => assert.equal(formatGoFloat(input), want));
});
