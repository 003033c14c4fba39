import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../../src/api/errors.js';
import { JsonCodec } from '../../src/serialization/json-codec.js';
import { YamlCodec } from '../../src/serialization/yaml-codec.js';
import { apiVersionMismatchError, decodeObject, strictDecodingError } from '../../src/serialization/object-decode.js';
import type { DecodeTarget } from '../../src/serialization/object-decode.js';

const json = new JsonCodec();
const yaml = new YamlCodec();
const configMap: DecodeTarget = { kind: 'ConfigMap', defaults: { group: '', version: 'v1', kind: 'ConfigMap' } };
const widget: DecodeTarget = { kind: 'Widget' };
const TYPE_META = 'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';

function badRequestMessage(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof ApiError, `expected ApiError, got ${String(err)}`);
    assert.equal(err.code, 400);
    assert.equal(err.reason, 'BadRequest');
    return err.message;
  }
  assert.fail('expected a 400');
}

describe('decodeObject errors', () => {
  const cases: { name: string; body: string; codec?: JsonCodec | YamlCodec; target?: DecodeTarget; want: string }[] = [
    {
      name: 'body not JSON',
      body: 'not json',
      want: "the object provided is unrecognized (must be of type ConfigMap): couldn't get version/kind; json parse error: invalid character 'o' in literal null (expecting 'u') (6e6f74206a736f6e)",
    },
    {
      name: 'empty body',
      body: '',
      want: "the object provided is unrecognized (must be of type ConfigMap): couldn't get version/kind; json parse error: unexpected end of JSON input (<empty>)",
    },
    {
      name: 'truncated object summarized as text',
      body: '{"apiVersion":"v1","kind":"ConfigMap","metadata":{',
      want: 'the object provided is unrecognized (must be of type ConfigMap): couldn\'t get version/kind; json parse error: unexpected end of JSON input ({"apiVersion":"v1","kind":"Con ...)',
    },
    {
      name: 'array body',
      body: '[]',
      want: `the object provided is unrecognized (must be of type ConfigMap): couldn't get version/kind; json parse error: json: cannot unmarshal array into Go value of type ${TYPE_META} (5b5d)`,
    },
    {
      name: 'kind not a string',
      body: '{"kind":5}',
      want: 'the object provided is unrecognized (must be of type ConfigMap): couldn\'t get version/kind; json parse error: json: cannot unmarshal number into Go struct field .kind of type string ({"kind":5})',
    },
    {
      name: 'malformed apiVersion',
      body: '{"apiVersion":"a/b/c","kind":"ConfigMap"}',
      want: 'the object provided is unrecognized (must be of type ConfigMap): unexpected GroupVersion string: a/b/c ({"apiVersion":"a/b/c","kind":" ...)',
    },
    {
      name: 'missing kind (custom resource)',
      body: '{"apiVersion":"example.com/v1","metadata":{"name":"w"}}',
      target: widget,
      want: 'the object provided is unrecognized (must be of type Widget): Object \'Kind\' is missing in \'{"apiVersion":"example.com/v1","metadata":{"name":"w"}}\' ({"apiVersion":"example.com/v1" ...)',
    },
    {
      name: 'missing apiVersion (custom resource)',
      body: '{"kind":"Widget"}',
      target: widget,
      want: 'Widget in version "" cannot be handled as a Widget: Object \'apiVersion\' is missing in \'{"kind":"Widget"}\'',
    },
    {
      name: 'YAML syntax error',
      body: 'a: b: c\n',
      codec: yaml,
      want: 'the object provided is unrecognized (must be of type ConfigMap): yaml: line 1: Nested mappings are not allowed in compact mappings (613a20623a20630a)',
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.equal(badRequestMessage(() => decodeObject(Buffer.from(c.body), c.codec ?? json, c.target ?? configMap)), c.want);
    });
  }
});

describe('decodeObject success', () => {
  it('fills missing kind and apiVersion from the defaults of a built-in type', () => {
    const got = decodeObject(Buffer.from('{"metadata":{"name":"x"}}'), json, configMap);
    assert.deepEqual(got.gvk, { group: '', version: 'v1', kind: 'ConfigMap' });
    assert.deepEqual(got.object, { metadata: { name: 'x' } });
  });

  it('reads group and version', () => {
    const got = decodeObject(Buffer.from('{"apiVersion":"apps/v1","kind":"Deployment"}'), json, { kind: 'Deployment' });
    assert.deepEqual(got.gvk, { group: 'apps', version: 'v1', kind: 'Deployment' });
  });

  it('decodes top-level null as an empty object, as Go does', () => {
    assert.deepEqual(decodeObject(Buffer.from('null'), json, configMap).object, {});
  });

  it('reads YAML', () => {
    const got = decodeObject(Buffer.from('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata:\n  on: yes\n'), yaml, configMap);
    assert.deepEqual(got.object, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' }, data: { true: true } });
  });

  it('returns duplicates as strict errors and the golden Strict message', () => {
    const body = '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm2","bogus":1},"data":{"a":"b"},"extra":true,"data":{"x":"y"}}';
    const got = decodeObject(Buffer.from(body), json, configMap);
    assert.deepEqual(got.strictErrors, ['duplicate field "data"']);
    const err = strictDecodingError(got.gvk, 'ConfigMap', ['unknown field "metadata.bogus"', 'unknown field "extra"', ...got.strictErrors]);
    // shared/reference/golden-1.32/http/create-400-strict-unknown.txt
    assert.deepEqual(err.toStatus(), {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message:
        'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "metadata.bogus", unknown field "extra", duplicate field "data"',
      reason: 'BadRequest',
      code: 400,
    });
  });

  it('words a YAML duplicate as go-yaml strict mode', () => {
    const got = decodeObject(Buffer.from('apiVersion: v1\nkind: ConfigMap\ndata:\n  a: b\n  a: c\n'), yaml, configMap);
    assert.deepEqual(got.strictErrors, ['yaml: unmarshal errors:\n  line 5: key "a" already set in map']);
    assert.deepEqual(got.object['data'], { a: 'c' });
  });
});

describe('apiVersionMismatchError', () => {
  it('names both group versions', () => {
    const err = apiVersionMismatchError({ group: 'apps', version: 'v1', kind: 'Deployment' }, { group: '', version: 'v1' });
    assert.equal(err.message, 'the API version in the data (apps/v1) does not match the expected API version (v1)');
    assert.equal(err.code, 400);
  });
});
