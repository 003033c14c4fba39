/** Types whose JSON is not a plain object: times, int-or-string, quantities, embedded JSON. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { decodeProtobufObject, encodeProtobufObject } from '../../../src/serialization/protobuf/protobuf-object.js';
import { ProtobufSchema } from '../../../src/serialization/protobuf/schema.js';

const schema = new ProtobufSchema();

function roundTrip(object: Record<string, unknown>): Record<string, unknown> {
  const bytes = encodeProtobufObject(object, String(object['apiVersion']), String(object['kind']), schema);
  return decodeProtobufObject(bytes, schema).object;
}

describe('special types', () => {
  it('Time: seconds only; MicroTime: six fractional digits', () => {
    const event = {
      kind: 'Event',
      apiVersion: 'v1',
      metadata: { name: 'e', namespace: 'd', creationTimestamp: '2026-11-21T08:42:17Z', deletionTimestamp: '2026-11-21T09:00:00+01:00' },
      involvedObject: { kind: 'Pod', name: 'p' },
      reason: 'Started',
      firstTimestamp: '2026-11-21T08:42:17.999Z',
      lastTimestamp: null,
      count: 1,
      eventTime: '2026-11-21T08:42:17.123456789Z',
      series: { count: 2, lastObservedTime: '1970-01-01T00:00:00.000001Z' },
    };
    assert.deepEqual(roundTrip(event), {
      kind: 'Event',
      apiVersion: 'v1',
      metadata: { name: 'e', namespace: 'd', creationTimestamp: '2026-11-21T08:42:17Z', deletionTimestamp: '2026-11-21T08:00:00Z' },
      involvedObject: { kind: 'Pod', name: 'p' },
      reason: 'Started',
      source: {},
      firstTimestamp: '2026-11-21T08:42:17Z',
      lastTimestamp: null,
      count: 1,
      eventTime: '2026-11-21T08:42:17.123456Z',
      series: { count: 2, lastObservedTime: '1970-01-01T00:00:00.000001Z' },
      reportingComponent: '',
      reportingInstance: '',
    });
  });

  it('IntOrString: numbers and strings', () => {
    const service = roundTrip({ kind: 'Service', apiVersion: 'v1', spec: { ports: [{ port: 80, targetPort: 'http' }, { port: 81 }] } });
    const ports = (service['spec'] as { ports: Record<string, unknown>[] }).ports;
    assert.equal(ports[0]!['targetPort'], 'http');
    assert.equal(ports[1]!['targetPort'], 0, 'a non-pointer IntOrString shows its zero');
    const ds = roundTrip({ kind: 'DaemonSet', apiVersion: 'apps/v1', spec: { updateStrategy: { rollingUpdate: { maxUnavailable: 1, maxSurge: '10%' } } } });
    assert.deepEqual((ds['spec'] as Record<string, Record<string, unknown>>)['updateStrategy'], { rollingUpdate: { maxUnavailable: 1, maxSurge: '10%' } });
  });

  it('Quantity: strings pass through; JSON numbers become strings', () => {
    const pod = roundTrip({
      kind: 'Pod',
      apiVersion: 'v1',
      spec: { containers: [{ name: 'c', resources: { requests: { cpu: '100m', memory: '1Gi' }, limits: { cpu: 2 } } }] },
    });
    const container = (pod['spec'] as { containers: Record<string, unknown>[] }).containers[0]!;
    assert.deepEqual(container['resources'], { limits: { cpu: '2' }, requests: { cpu: '100m', memory: '1Gi' } });
  });

  it('bytes: base64 in JSON, raw on the wire', () => {
    const binary = Buffer.from([0, 1, 2, 254, 255]).toString('base64');
    const secret = { kind: 'Secret', apiVersion: 'v1', metadata: { name: 's' }, data: { bin: binary, empty: '' }, type: 'Opaque' };
    const bytes = encodeProtobufObject(secret, 'v1', 'Secret', schema);
    assert.ok(bytes.includes(Buffer.from([0, 1, 2, 254, 255])));
    assert.deepEqual(decodeProtobufObject(bytes, schema).object, secret);
    const cm = roundTrip({ kind: 'ConfigMap', apiVersion: 'v1', binaryData: { b: binary } });
    assert.deepEqual(cm['binaryData'], { b: binary });
  });

  it('FieldsV1 and RawExtension: embedded JSON', () => {
    const revision = {
      kind: 'ControllerRevision',
      apiVersion: 'apps/v1',
      metadata: {
        name: 'r',
        managedFields: [
          {
            manager: 'kubectl',
            operation: 'Apply',
            apiVersion: 'apps/v1',
            time: '2026-11-21T08:42:17Z',
            fieldsType: 'FieldsV1',
            fieldsV1: { 'f:data': { '.': {}, 'f:x': {} } },
          },
        ],
      },
      data: { spec: { template: { '$patch': 'replace' } }, n: [1, 'two', null, true] },
      revision: 3,
    };
    assert.deepEqual(roundTrip(revision), revision);
    const empty = roundTrip({ kind: 'ControllerRevision', apiVersion: 'apps/v1' });
    assert.equal(empty['data'], null);
  });

  it('authorization extra: map of string lists', () => {
    const review = {
      kind: 'SubjectAccessReview',
      apiVersion: 'authorization.k8s.io/v1',
      metadata: {},
      spec: { user: 'u', extra: { scopes: ['a', 'b'], none: [] } },
      status: { allowed: true },
    };
    assert.deepEqual(roundTrip(review), review);
  });

  it('APIResourceList: verbs as a list', () => {
    const list = {
      kind: 'APIResourceList',
      apiVersion: 'v1',
      groupVersion: 'v1',
      resources: [{ name: 'pods', singularName: 'pod', namespaced: true, kind: 'Pod', verbs: ['get', 'list'], shortNames: ['po'] }],
    };
    assert.deepEqual(roundTrip(list), list);
  });

  it('CustomResourceDefinition schemas', () => {
    const schemaProps = {
      type: 'object',
      description: 'd',
      'x-kubernetes-preserve-unknown-fields': true,
      required: ['spec'],
      properties: {
        spec: {
          type: 'object',
          properties: {
            size: { type: 'integer', format: 'int32', minimum: 1, maximum: 10.5, default: 3 },
            mode: { type: 'string', enum: ['a', 'b', null] },
            tags: { type: 'array', items: { type: 'string' } },
            pair: { type: 'array', items: [{ type: 'string' }, { type: 'integer' }] },
            labels: { type: 'object', additionalProperties: { type: 'string' } },
            open: { type: 'object', additionalProperties: false },
            link: { $ref: '#/definitions/x' },
          },
          'x-kubernetes-validations': [{ rule: 'self.size > 0', message: 'positive' }],
        },
      },
      dependencies: { a: ['b'], c: { required: ['d'] } },
    };
    const crd = {
      kind: 'CustomResourceDefinition',
      apiVersion: 'apiextensions.k8s.io/v1',
      metadata: { name: 'widgets.example.com' },
      spec: {
        group: 'example.com',
        names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
        scope: 'Namespaced',
        versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: schemaProps } }],
        conversion: { strategy: 'None' },
      },
      status: { conditions: [], acceptedNames: { plural: '', kind: '' }, storedVersions: ['v1'] },
    };
    const decoded = roundTrip(crd);
    const version = (decoded['spec'] as { versions: { schema: { openAPIV3Schema: unknown } }[] }).versions[0]!;
    assert.deepEqual(version.schema.openAPIV3Schema, schemaProps);
    assert.deepEqual(decoded['status'], { conditions: null, acceptedNames: { plural: '', kind: '' }, storedVersions: ['v1'] });
  });
});
