import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { BodyDecodeError, CodecRegistry } from '../../../src/serialization/codec.js';
import { ProtobufEncodeError } from '../../../src/serialization/protobuf/errors.js';
import { ProtobufCodec } from '../../../src/serialization/protobuf/protobuf-codec.js';
import { kubectlBodies } from './fixtures.js';

describe('ProtobufCodec', () => {
  const codec = new ProtobufCodec();

  it('answers to both spellings of the media type', () => {
    const registry = new CodecRegistry([codec]);
    assert.equal(registry.lookup('application/vnd.kubernetes.protobuf'), codec);
    assert.equal(registry.lookup('application/vnd.cluster.protobuf'), codec);
  });

  it('decodes a request body to the object model', () => {
    const body = kubectlBodies().find((b) => b.name === 'configmap')!;
    const decoded = codec.decode(Buffer.from(body.protobuf, 'base64'));
    assert.deepEqual(decoded.strictErrors, []);
    assert.deepEqual(decoded.value, {
      kind: 'ConfigMap',
      apiVersion: 'v1',
      metadata: { name: 'cm1', namespace: 'default' },
      data: { a: 'b', empty: '' },
    });
  });

  it('fails on JSON with a BodyDecodeError', () => {
    assert.throws(() => codec.decode(Buffer.from('{}')), BodyDecodeError);
  });

  it('encodes by the object own apiVersion and kind', () => {
    const body = kubectlBodies().find((b) => b.name === 'configmap')!;
    const object = codec.decode(Buffer.from(body.protobuf, 'base64')).value;
    assert.equal(codec.encode(object).toString('base64'), body.protobuf);
    assert.throws(() => codec.encode({ metadata: {} }), ProtobufEncodeError);
  });
});
