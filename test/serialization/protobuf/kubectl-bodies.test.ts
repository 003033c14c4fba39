/**
 * Bodies real kubectl sends: each Protobuf body must decode to the JSON that older kubectl sent
 * for the same command (same keys, same order), and encoding that JSON must give back kubectl's
 * bytes exactly.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { decodeProtobufObject, encodeProtobufObject } from '../../../src/serialization/protobuf/protobuf-object.js';
import { ProtobufSchema } from '../../../src/serialization/protobuf/schema.js';
import { kubectlBodies, withoutNullCreationTimestamps } from './fixtures.js';

const schema = new ProtobufSchema();

describe('kubectl request bodies', () => {
  for (const body of kubectlBodies()) {
    const bytes = Buffer.from(body.protobuf, 'base64');
    const expected = withoutNullCreationTimestamps(body.json) as Record<string, unknown>;

    it(`${body.command}: decodes to kubectl's JSON`, () => {
      const decoded = decodeProtobufObject(bytes, schema);
      assert.equal(decoded.apiVersion, expected['apiVersion']);
      assert.equal(decoded.kind, expected['kind']);
      assert.deepEqual(decoded.object, expected);
      assert.equal(JSON.stringify(decoded.object), JSON.stringify(expected), 'keys in upstream order');
    });

    it(`${body.command}: encodes back to kubectl's bytes`, () => {
      const encoded = encodeProtobufObject(expected, String(expected['apiVersion']), String(expected['kind']), schema);
      assert.equal(encoded.toString('hex'), bytes.toString('hex'));
    });
  }
});
