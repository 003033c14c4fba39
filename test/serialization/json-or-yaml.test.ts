/**
 * Configuration documents read as upstream's decoders read them (src/serialization/json-or-yaml.ts):
 * JSON when the text opens with `{`, YAML otherwise, and each failure in upstream's words.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { decodeJsonOrYaml, DocumentSyntaxError } from '../../src/serialization/json-or-yaml.js';

describe('decodeJsonOrYaml', () => {
  it('reads JSON, even after leading white space', () => {
    assert.deepEqual(decodeJsonOrYaml(' \n{"kind": "Policy", "n": 1}'), { kind: 'Policy', n: 1 });
  });

  it('reads anything else as YAML, and an empty text as null', () => {
    assert.deepEqual(decodeJsonOrYaml('user: alice\nreadonly: true\n'), { user: 'alice', readonly: true });
    assert.deepEqual(decodeJsonOrYaml('- a\n'), ['a']);
    assert.equal(decodeJsonOrYaml(''), null);
  });

  it('words a JSON syntax error as Go does, and one at the end as the end of input', () => {
    assert.throws(() => decodeJsonOrYaml('{"user": }'), {
      name: 'DocumentSyntaxError',
      message: "couldn't get version/kind; json parse error: invalid character '}' looking for beginning of value",
    });
    assert.throws(() => decodeJsonOrYaml('{"user": '), { message: "couldn't get version/kind; json parse error: unexpected end of JSON input" });
  });

  it('words a YAML syntax error as sigs.k8s.io/yaml does, with its line', () => {
    assert.throws(() => decodeJsonOrYaml('a: b\n c: d\n'), (err: unknown) => err instanceof DocumentSyntaxError && /^error converting YAML to JSON: yaml: line \d+: /.test(err.message));
  });
});
