/**
 * The Swagger 2.0 document as gnostic's openapi.v2 Protobuf. Field numbers in these tests are
 * written out from gnostic-models' openapiv2/OpenAPIv2.proto, not taken from the encoder's table.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { encodeOpenApiV2Protobuf } from '../../src/openapi/openapi-v2-protobuf.js';
import { loadYamlLibrary } from '../../src/serialization/yaml-library.js';
import { bytesOf, entriesOf, fieldsOf, onlyBytes, textOf } from './protobuf-fields.js';

const DOCUMENT = {
  swagger: '2.0',
  info: { title: 'Kubernetes', version: 'v1.35.0' },
  paths: {
    '/api/v1/namespaces/{namespace}/configmaps': {
      get: {
        operationId: 'listCoreV1NamespacedConfigMap',
        responses: { 200: { description: 'OK', schema: { $ref: '#/definitions/io.k8s.api.core.v1.ConfigMapList' } }, 401: { description: 'Unauthorized' } },
        'x-kubernetes-action': 'list',
      },
      post: {
        operationId: 'createCoreV1NamespacedConfigMap',
        parameters: [{ in: 'body', name: 'body', required: true, schema: { $ref: '#/definitions/io.k8s.api.core.v1.ConfigMap' } }],
        responses: { 201: { description: 'Created', schema: { $ref: '#/definitions/io.k8s.api.core.v1.ConfigMap' } } },
      },
      parameters: [
        { in: 'query', name: 'pretty', type: 'string', uniqueItems: true },
        { in: 'path', name: 'namespace', required: true, type: 'string', uniqueItems: true },
        { $ref: '#/parameters/shared' },
      ],
    },
  },
  definitions: {
    'io.k8s.api.core.v1.ConfigMap': {
      type: 'object',
      description: '',
      required: ['metadata'],
      properties: {
        data: { type: 'object', additionalProperties: { type: 'string' } },
        closed: { type: 'object', additionalProperties: false },
        list: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'atomic' },
        level: { type: 'string', enum: ['Low', 'High'], default: 'Low' },
        count: { type: 'integer', minimum: 0, maximum: 5, maxLength: 3 },
        nothing: { type: 'object', properties: {} },
      },
      'x-kubernetes-group-version-kind': [{ group: '', kind: 'ConfigMap', version: 'v1' }],
    },
  },
  securityDefinitions: { BearerToken: { in: 'header', name: 'authorization', type: 'apiKey' } },
  security: [{ BearerToken: [] }],
};

const encoded = Buffer.from(encodeOpenApiV2Protobuf(DOCUMENT));
const numbers = (buf: Buffer) => fieldsOf(buf).map((f) => f.number);
const varint = (buf: Buffer, number: number) => fieldsOf(buf).filter((f) => f.number === number).map((f) => ('varint' in f.value ? f.value.varint : undefined));
/** The YAML text of an Any (its field 2), read back as a value. */
const anyValue = (any: Buffer) => loadYamlLibrary().parse(textOf(any, 2)) as unknown;

describe('Swagger 2.0 as openapi.v2 Protobuf', () => {
  it('writes the Document fields in field-number order', () => {
    // swagger 1, info 2, paths 8, definitions 9, security 12, securityDefinitions 13.
    assert.deepEqual(numbers(encoded), [1, 2, 8, 9, 12, 13]);
    assert.equal(textOf(encoded, 1), '2.0');
    const info = onlyBytes(encoded, 2);
    assert.equal(textOf(info, 1), 'Kubernetes');
    assert.equal(textOf(info, 2), 'v1.35.0');
  });

  it('writes paths, operations, responses and vendor extensions', () => {
    const paths = entriesOf(onlyBytes(encoded, 8), 2);
    const item = paths.get('/api/v1/namespaces/{namespace}/configmaps')!;
    assert.deepEqual(numbers(item), [2, 4, 9, 9, 9], 'get 2, post 4, then parameters 9');
    const get = onlyBytes(item, 2);
    assert.equal(textOf(get, 5), 'listCoreV1NamespacedConfigMap');
    const responses = entriesOf(onlyBytes(get, 9), 1);
    assert.deepEqual([...responses.keys()], ['200', '401']);
    const ok = onlyBytes(responses.get('200')!, 1);
    assert.equal(textOf(ok, 1), 'OK');
    assert.equal(textOf(onlyBytes(onlyBytes(ok, 2), 1), 1), '#/definitions/io.k8s.api.core.v1.ConfigMapList', 'SchemaItem.schema.$ref');
    const action = entriesOf(get, 13).get('x-kubernetes-action')!;
    assert.equal(anyValue(action), 'list');
  });

  it('tells body, query, path and referenced parameters apart as gnostic does', () => {
    const item = entriesOf(onlyBytes(encoded, 8), 2).get('/api/v1/namespaces/{namespace}/configmaps')!;
    const [query, path, ref] = bytesOf(item, 9);
    const querySchema = onlyBytes(onlyBytes(onlyBytes(query!, 1), 2), 3);
    assert.equal(textOf(querySchema, 4), 'pretty');
    assert.equal(textOf(querySchema, 6), 'string');
    assert.deepEqual(varint(querySchema, 20), [1n], 'uniqueItems');
    const pathSchema = onlyBytes(onlyBytes(onlyBytes(path!, 1), 2), 4);
    assert.deepEqual(varint(pathSchema, 1), [1n], 'required');
    assert.equal(textOf(pathSchema, 4), 'namespace');
    assert.equal(textOf(onlyBytes(ref!, 2), 1), '#/parameters/shared', 'ParametersItem.json_reference');
    const post = onlyBytes(item, 4);
    const body = onlyBytes(onlyBytes(onlyBytes(post, 8), 1), 1);
    assert.equal(textOf(body, 3), 'body');
    assert.equal(textOf(onlyBytes(body, 5), 1), '#/definitions/io.k8s.api.core.v1.ConfigMap');
  });

  it('writes schemas: type, properties, items, additionalProperties, enum, default and extensions', () => {
    const configMap = entriesOf(onlyBytes(encoded, 9), 1).get('io.k8s.api.core.v1.ConfigMap')!;
    assert.deepEqual(numbers(configMap), [19, 22, 25, 31], 'required, type, properties, then the extension; the empty description is dropped');
    assert.deepEqual(bytesOf(onlyBytes(configMap, 22), 1).map(String), ['object']);
    const gvk = entriesOf(configMap, 31).get('x-kubernetes-group-version-kind')!;
    assert.deepEqual(anyValue(gvk), [{ group: '', kind: 'ConfigMap', version: 'v1' }]);
    const properties = entriesOf(onlyBytes(configMap, 25), 1);
    assert.deepEqual([...properties.keys()], ['data', 'closed', 'list', 'level', 'count', 'nothing']);
    const valueSchema = onlyBytes(onlyBytes(properties.get('data')!, 21), 1);
    assert.deepEqual(bytesOf(onlyBytes(valueSchema, 22), 1).map(String), ['string']);
    assert.deepEqual(fieldsOf(onlyBytes(properties.get('closed')!, 21)), [{ number: 2, value: { varint: 0n } }], 'false is written: it is the oneof member');
    const list = properties.get('list')!;
    assert.deepEqual(bytesOf(onlyBytes(onlyBytes(list, 23), 1), 22).map((t) => String(onlyBytes(t, 1))), ['string']);
    assert.equal(anyValue(entriesOf(list, 31).get('x-kubernetes-list-type')!), 'atomic');
    const level = properties.get('level')!;
    assert.deepEqual(bytesOf(level, 20).map(anyValue), ['Low', 'High']);
    assert.equal(anyValue(onlyBytes(level, 5)), 'Low');
    const count = properties.get('count')!;
    assert.deepEqual(numbers(count), [7, 11, 22], 'maximum and maxLength; minimum 0 is a proto3 zero, dropped');
    const maximum = fieldsOf(count).find((f) => f.number === 7)!.value;
    assert.equal('fixed64' in maximum && maximum.fixed64.readDoubleLE(0), 5);
    assert.deepEqual(varint(count, 11), [3n]);
    assert.equal(onlyBytes(properties.get('nothing')!, 25).length, 0, 'an empty properties object is an empty message, still written');
  });

  it('writes the security definitions and requirements', () => {
    const bearer = entriesOf(onlyBytes(encoded, 13), 1).get('BearerToken')!;
    const apiKey = onlyBytes(bearer, 2);
    assert.deepEqual([textOf(apiKey, 1), textOf(apiKey, 2), textOf(apiKey, 3)], ['apiKey', 'authorization', 'header']);
    const requirement = entriesOf(onlyBytes(encoded, 12), 1);
    assert.deepEqual([...requirement.keys()], ['BearerToken']);
    assert.equal(requirement.get('BearerToken')!.length, 0, 'an empty scope list is an empty StringArray');
  });

  it('leaves out values of the wrong JSON type instead of failing', () => {
    const bytes = Buffer.from(encodeOpenApiV2Protobuf({ swagger: 2, info: 'x', paths: { '/a': { get: 'nope' } }, definitions: { s: { type: 7, required: 'no' } } }));
    assert.deepEqual(numbers(bytes), [8, 9]);
    assert.deepEqual(numbers(entriesOf(onlyBytes(bytes, 8), 2).get('/a')!), []);
    assert.deepEqual(numbers(entriesOf(onlyBytes(bytes, 9), 1).get('s')!), []);
  });
});
