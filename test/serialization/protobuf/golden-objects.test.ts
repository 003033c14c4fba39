/** Objects as upstream stores and serves them survive JSON -> Protobuf -> JSON unchanged. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { decodeProtobufObject, encodeProtobufObject } from '../../../src/serialization/protobuf/protobuf-object.js';
import { ProtobufSchema } from '../../../src/serialization/protobuf/schema.js';
import { goldenObjects, withoutNullCreationTimestamps } from './fixtures.js';

const schema = new ProtobufSchema();

describe('upstream objects round trip', () => {
  for (const { file, object } of goldenObjects()) {
    it(file, () => {
      const bytes = encodeProtobufObject(object, String(object['apiVersion']), String(object['kind']), schema);
      const decoded = decodeProtobufObject(bytes, schema);
      assert.deepEqual(decoded.object, withoutNullCreationTimestamps(object));
      const again = encodeProtobufObject(decoded.object, decoded.apiVersion, decoded.kind, schema);
      assert.ok(again.equals(bytes), 'stable bytes');
    });
  }
});
