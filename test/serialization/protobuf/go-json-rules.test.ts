/**
 * What a zero on the wire becomes in JSON follows the Go field: pointers keep zeros, omitempty
 * non-pointers drop them, non-pointer structs always show, empty pointer structs show as {}.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import protobuf from 'protobufjs/minimal.js';
import { decodeProtobufObject, encodeProtobufObject } from '../../../src/serialization/protobuf/protobuf-object.js';
import { ProtobufSchema } from '../../../src/serialization/protobuf/schema.js';

const schema = new ProtobufSchema();

function roundTrip(object: Record<string, unknown>): Record<string, unknown> {
  const bytes = encodeProtobufObject(object, String(object['apiVersion']), String(object['kind']), schema);
  return decodeProtobufObject(bytes, schema).object;
}

/** A Protobuf body around a message written by `write` (for bytes no Go client would send). */
function body(apiVersion: string, kind: string, write: (w: protobuf.Writer) => void): Uint8Array {
  const inner = protobuf.Writer.create();
  write(inner);
  const w = protobuf.Writer.create();
  w.fixed32(0x0073386b);
  w.uint32(0x0a).fork().uint32(0x0a).string(apiVersion).uint32(0x12).string(kind).ldelim();
  w.uint32(0x12).bytes(inner.finish());
  return w.finish();
}

describe('zero values', () => {
  const pod = {
    kind: 'Pod',
    apiVersion: 'v1',
    metadata: { name: 'p', generation: 0, namespace: '' },
    spec: {
      containers: [{ name: 'c', image: 'i', stdin: false, securityContext: {}, ports: [{ containerPort: 80, hostPort: 0 }] }],
      automountServiceAccountToken: false,
      hostNetwork: false,
      terminationGracePeriodSeconds: 0,
      securityContext: { runAsUser: 0 },
    },
  };

  it('keeps zeros of pointer fields and drops those of omitempty values', () => {
    assert.deepEqual(roundTrip(pod), {
      kind: 'Pod',
      apiVersion: 'v1',
      metadata: { name: 'p' },
      spec: {
        containers: [{ name: 'c', image: 'i', ports: [{ containerPort: 80 }], resources: {}, securityContext: {} }],
        terminationGracePeriodSeconds: 0,
        automountServiceAccountToken: false,
        securityContext: { runAsUser: 0 },
      },
      status: {},
    });
  });

  it('shows absent non-pointer structs as their zero value', () => {
    const decoded = roundTrip({ kind: 'Deployment', apiVersion: 'apps/v1' });
    assert.deepEqual(decoded, {
      kind: 'Deployment',
      apiVersion: 'apps/v1',
      metadata: {},
      spec: { selector: null, template: { metadata: {}, spec: { containers: null } }, strategy: {} },
      status: {},
    });
  });

  it('keeps replicas: 0 and drops an absent replicas', () => {
    const zero = roundTrip({ kind: 'Deployment', apiVersion: 'apps/v1', spec: { replicas: 0 } });
    assert.equal((zero['spec'] as Record<string, unknown>)['replicas'], 0);
    const absent = roundTrip({ kind: 'Deployment', apiVersion: 'apps/v1', spec: {} });
    assert.equal('replicas' in (absent['spec'] as Record<string, unknown>), false);
  });

  it('shows nil fields without omitempty as null', () => {
    const decoded = roundTrip({ kind: 'TokenRequest', apiVersion: 'authentication.k8s.io/v1', spec: {} });
    assert.deepEqual(decoded['spec'], { audiences: null, expirationSeconds: null, boundObjectRef: null });
    assert.deepEqual(decoded['status'], { token: '', expirationTimestamp: null });
  });

  it('accepts packed repeated scalars', () => {
    const bytes = body('v1', 'Pod', (w) => {
      w.uint32(0x12).fork(); // spec
      w.uint32((14 << 3) | 2).fork(); // securityContext
      w.uint32((4 << 3) | 2).fork().int64(1000).int64(2000).ldelim(); // supplementalGroups, packed
      w.ldelim();
      w.ldelim();
    });
    const spec = decodeProtobufObject(bytes, schema).object['spec'] as Record<string, unknown>;
    assert.deepEqual(spec['securityContext'], { supplementalGroups: [1000, 2000] });
  });

  it('skips fields it does not know', () => {
    const bytes = body('v1', 'ConfigMap', (w) => {
      w.uint32((99 << 3) | 2).string('from the future');
      w.uint32((98 << 3) | 0).int32(7);
      w.uint32((2 << 3) | 2).fork().uint32(0x0a).string('k').uint32(0x12).string('v').ldelim();
    });
    assert.deepEqual(decodeProtobufObject(bytes, schema).object, { kind: 'ConfigMap', apiVersion: 'v1', metadata: {}, data: { k: 'v' } });
  });

  it('fills a map entry without a value with the zero value', () => {
    const bytes = body('v1', 'ConfigMap', (w) => {
      w.uint32((2 << 3) | 2).fork().uint32(0x0a).string('k').ldelim();
    });
    assert.deepEqual(decodeProtobufObject(bytes, schema).object['data'], { k: '' });
  });

  it('takes __proto__ as an ordinary map key', () => {
    const bytes = body('v1', 'ConfigMap', (w) => {
      w.uint32((2 << 3) | 2).fork().uint32(0x0a).string('__proto__').uint32(0x12).string('x').ldelim();
    });
    const data = decodeProtobufObject(bytes, schema).object['data'] as Record<string, unknown>;
    assert.deepEqual(Object.keys(data), ['__proto__']);
    assert.equal(Object.getPrototypeOf(data), Object.prototype);
  });

  it('writes map keys sorted, as upstream does', () => {
    const a = encodeProtobufObject({ data: { b: '2', a: '1' } }, 'v1', 'ConfigMap', schema);
    const b = encodeProtobufObject({ data: { a: '1', b: '2' } }, 'v1', 'ConfigMap', schema);
    assert.ok(a.equals(b));
  });
});

describe('lists and shared kinds', () => {
  it('encodes a list with its list metadata; items carry no kind', () => {
    const list = {
      kind: 'ConfigMapList',
      apiVersion: 'v1',
      metadata: { resourceVersion: '42', continue: 'token', remainingItemCount: 0 },
      items: [
        { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'a', resourceVersion: '7' }, data: { x: 'y' } },
        { metadata: { name: 'b' }, immutable: true },
      ],
    };
    assert.deepEqual(roundTrip(list), {
      kind: 'ConfigMapList',
      apiVersion: 'v1',
      metadata: { resourceVersion: '42', continue: 'token', remainingItemCount: 0 },
      items: [
        { metadata: { name: 'a', resourceVersion: '7' }, data: { x: 'y' } },
        { metadata: { name: 'b' }, immutable: true },
      ],
    });
  });

  it('encodes an empty list with items: null, as upstream', () => {
    assert.deepEqual(roundTrip({ kind: 'PodList', apiVersion: 'v1', metadata: { resourceVersion: '1' }, items: [] }), {
      kind: 'PodList',
      apiVersion: 'v1',
      metadata: { resourceVersion: '1' },
      items: null,
    });
  });

  it('encodes Status in any group-version', () => {
    const status = {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'configmaps "x" not found',
      reason: 'NotFound',
      details: { name: 'x', kind: 'configmaps', causes: [{ reason: 'FieldValueInvalid', message: 'bad', field: 'spec' }] },
      code: 404,
    };
    assert.deepEqual(roundTrip(status), status);
    const inApps = roundTrip({ ...status, apiVersion: 'apps/v1' });
    assert.equal(inApps['apiVersion'], 'apps/v1');
    assert.equal(inApps['code'], 404);
  });

  it('decodes DeleteOptions sent in a resource group-version', () => {
    const options = { kind: 'DeleteOptions', apiVersion: 'apps/v1', gracePeriodSeconds: 0, propagationPolicy: 'Foreground', dryRun: ['All'] };
    assert.deepEqual(roundTrip(options), options);
  });

  it('encodes PartialObjectMetadataList of meta.k8s.io', () => {
    const list = {
      kind: 'PartialObjectMetadataList',
      apiVersion: 'meta.k8s.io/v1',
      metadata: { resourceVersion: '9' },
      items: [{ metadata: { name: 'a', labels: { x: 'y' } } }],
    };
    assert.deepEqual(roundTrip(list), list);
  });
});
