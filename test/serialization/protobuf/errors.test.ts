/** Every bad input ends in a typed error with a clear message, never in a crash. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import protobuf from 'protobufjs/minimal.js';
import { BodyDecodeError } from '../../../src/serialization/codec.js';
import { ProtobufDecodeError, ProtobufEncodeError } from '../../../src/serialization/protobuf/errors.js';
import { decodeProtobufObject, encodeProtobufObject } from '../../../src/serialization/protobuf/protobuf-object.js';
import { ProtobufSchema } from '../../../src/serialization/protobuf/schema.js';
import { goldenObjects } from './fixtures.js';

const schema = new ProtobufSchema();

function envelope(apiVersion: string, kind: string, raw: Uint8Array, extra?: (w: protobuf.Writer) => void): Uint8Array {
  const w = protobuf.Writer.create();
  w.fixed32(0x0073386b);
  w.uint32(0x0a).fork().uint32(0x0a).string(apiVersion).uint32(0x12).string(kind).ldelim();
  w.uint32(0x12).bytes(raw);
  extra?.(w);
  return w.finish();
}

function decodeError(bytes: Uint8Array, message: string | RegExp): void {
  assert.throws(
    () => decodeProtobufObject(bytes, schema),
    (error: unknown) => {
      assert.ok(error instanceof ProtobufDecodeError, `not a ProtobufDecodeError: ${String(error)}`);
      assert.ok(error instanceof BodyDecodeError);
      if (typeof message === 'string') assert.equal(error.message, message);
      else assert.match(error.message, message);
      return true;
    },
  );
}

describe('decode errors', () => {
  const cases: { name: string; bytes: Uint8Array; message: string | RegExp }[] = [
    { name: 'empty body', bytes: new Uint8Array(0), message: 'empty data' },
    { name: 'JSON instead of Protobuf', bytes: Buffer.from('{"kind":"ConfigMap"}'), message: 'provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]' },
    { name: 'wrong prefix', bytes: Uint8Array.of(0x6b, 0x38, 0x73, 0x01, 0x0a, 0x00), message: /expected prefix \[107 56 115 0\]/ },
    { name: 'short prefix', bytes: Uint8Array.of(0x6b, 0x38), message: /expected prefix/ },
    { name: 'prefix only', bytes: Uint8Array.of(0x6b, 0x38, 0x73, 0x00), message: 'empty body' },
    { name: 'no kind', bytes: envelope('v1', '', new Uint8Array(0)), message: `Object 'Kind' is missing in 'runtime.TypeMeta{APIVersion:"v1", Kind:""}'` },
    { name: 'no apiVersion', bytes: envelope('', 'ConfigMap', new Uint8Array(0)), message: `Object 'apiVersion' is missing in 'runtime.TypeMeta{APIVersion:"", Kind:"ConfigMap"}'` },
    { name: 'kind without a message', bytes: envelope('v1', 'PodSpec', new Uint8Array(0)), message: 'no kind "PodSpec" is registered for version "v1"' },
    { name: 'kind of another group', bytes: envelope('apps/v1', 'ConfigMap', new Uint8Array(0)), message: 'no kind "ConfigMap" is registered for version "apps/v1"' },
    {
      name: 'custom resource',
      bytes: envelope('example.com/v1', 'Widget', new Uint8Array(0)),
      message: 'no kind "Widget" is registered for version "example.com/v1" (Protobuf is available for built-in types only)',
    },
    { name: 'compressed raw', bytes: envelope('v1', 'ConfigMap', new Uint8Array(0), (w) => w.uint32(0x1a).string('gzip')), message: 'unsupported contentEncoding "gzip" in the Protobuf envelope' },
    { name: 'JSON raw', bytes: envelope('v1', 'ConfigMap', Buffer.from('{}'), (w) => w.uint32(0x22).string('application/json')), message: 'unsupported contentType "application/json" in the Protobuf envelope' },
    { name: 'wrong wire type', bytes: envelope('v1', 'ConfigMap', Uint8Array.of(0x08, 0x01)), message: 'proto: wrong wireType = 0 for field metadata of k8s.io.api.core.v1.ConfigMap' },
    { name: 'field number 0', bytes: envelope('v1', 'ConfigMap', Uint8Array.of(0x00)), message: /illegal tag 0/ },
    { name: 'length past the end', bytes: envelope('v1', 'ConfigMap', Uint8Array.of(0x0a, 0x05, 0x0a)), message: /unexpected EOF/ },
    { name: 'wire type 7', bytes: envelope('v1', 'ConfigMap', Uint8Array.of(0xff, 0x07)), message: /invalid wire type 7/ },
    { name: 'impossible IntOrString', bytes: envelope('v1', 'Service', Uint8Array.of(0x12, 0x08, 0x0a, 0x06, 0x22, 0x04, 0x08, 0x07, 0x10, 0x01)), message: /impossible IntOrString.Type 7/ },
    {
      name: 'RawExtension that is neither JSON nor Protobuf',
      bytes: envelope('apps/v1', 'ControllerRevision', Uint8Array.of(0x12, 0x03, 0x0a, 0x01, 0x01)),
      message: 'cannot convert RawExtension with unrecognized content type to unstructured',
    },
    { name: 'FieldsV1 with bad JSON', bytes: envelope('v1', 'ConfigMap', Buffer.from([0x0a, 0x08, 0x8a, 0x01, 0x05, 0x3a, 0x03, 0x0a, 0x01, 0x7b])), message: /failed to parse FieldsV1 bytes as JSON/ },
  ];
  for (const c of cases) it(c.name, () => decodeError(c.bytes, c.message));

  it('every truncation of a body fails cleanly', () => {
    const object = goldenObjects().find((g) => g.file === 'object-pod-p1.json')!.object;
    const bytes = encodeProtobufObject(object, 'v1', 'Pod', schema);
    // Cut right after the envelope's typeMeta (or after raw) the body is still a valid message;
    // any cut inside the object's bytes must fail.
    const rawStart = bytes.indexOf(Buffer.from('Pod')) + 3 + 3;
    const rawEnd = bytes.length - 4;
    for (let length = 0; length < bytes.length; length++) {
      let failed = false;
      try {
        decodeProtobufObject(bytes.subarray(0, length), schema);
      } catch (error) {
        assert.ok(error instanceof ProtobufDecodeError, `length ${length}: ${String(error)}`);
        failed = true;
      }
      if (length > rawStart && length < rawEnd) assert.ok(failed, `length ${length} decoded`);
    }
  });

  it('caps message nesting', () => {
    // JSONSchemaProps.not -> JSONSchemaProps.not -> ..., 1000 deep inside a CRD.
    let inner: Uint8Array = new Uint8Array(0);
    for (let i = 0; i < 1000; i++) inner = protobuf.Writer.create().uint32((28 << 3) | 2).bytes(inner).finish();
    const validation = protobuf.Writer.create().uint32(0x0a).bytes(inner).finish();
    const version = protobuf.Writer.create().uint32(0x0a).string('v1').uint32((4 << 3) | 2).bytes(validation).finish();
    const spec = protobuf.Writer.create().uint32((7 << 3) | 2).bytes(version).finish();
    const crd = protobuf.Writer.create().uint32(0x12).bytes(spec).finish();
    decodeError(envelope('apiextensions.k8s.io/v1', 'CustomResourceDefinition', crd), /nested deeper than 1000 levels/);
  });
});

describe('encode errors', () => {
  it('names the field that does not fit', () => {
    assert.throws(
      () => encodeProtobufObject({ spec: { template: { spec: { containers: [{ name: 'c', ports: [{ containerPort: '80' }] }] } } } }, 'apps/v1', 'Deployment', schema),
      (error: unknown) =>
        error instanceof ProtobufEncodeError && error.message === 'spec.template.spec.containers.0.ports.0.containerPort: expected an int32, got string "80"',
    );
    assert.throws(() => encodeProtobufObject({ data: { a: 1 } }, 'v1', 'ConfigMap', schema), /^ProtobufEncodeError: data\.a: expected a string, got number 1$/);
    assert.throws(() => encodeProtobufObject({ metadata: [] }, 'v1', 'ConfigMap', schema), /metadata: expected an object, got an array/);
    assert.throws(() => encodeProtobufObject({ metadata: { creationTimestamp: 'yesterday' } }, 'v1', 'ConfigMap', schema), /metadata\.creationTimestamp: expected an RFC 3339 time/);
  });

  it('refuses kinds without a message', () => {
    assert.throws(() => encodeProtobufObject({}, 'example.com/v1', 'Widget', schema), (e: unknown) => e instanceof ProtobufEncodeError && /no Protobuf message for kind "Widget"/.test(e.message));
  });
});
