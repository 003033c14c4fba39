import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { encodeProtobufObject } from '../../../src/serialization/protobuf/protobuf-object.js';
import { ProtobufSchema } from '../../../src/serialization/protobuf/schema.js';
import { frameProtobufWatchEvent, readProtobufWatchEvent } from '../../../src/serialization/protobuf/watch-event.js';

const schema = new ProtobufSchema();

describe('Protobuf watch events', () => {
  const configMap = { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'a', resourceVersion: '5' }, data: { k: 'v' } };
  const object = encodeProtobufObject(configMap, 'v1', 'ConfigMap', schema);

  it('frames a bare WatchEvent with a big-endian length; the object keeps its envelope', () => {
    const frame = frameProtobufWatchEvent('ADDED', object);
    assert.equal(frame.readUInt32BE(0), frame.length - 4);
    // WatchEvent { 1: "ADDED", 2: RawExtension { 1: <object body> } }: no prefix before it.
    assert.deepEqual([...frame.subarray(4, 11)], [0x0a, 0x05, ...Buffer.from('ADDED')]);
    assert.ok(frame.subarray(frame.length - object.length).equals(object));
  });

  it('reads framed events back from a stream', () => {
    const bookmark = encodeProtobufObject({ metadata: { resourceVersion: '9' } }, 'v1', 'ConfigMap', schema);
    const big = encodeProtobufObject({ ...configMap, data: { k: 'x'.repeat(300) } }, 'v1', 'ConfigMap', schema);
    const stream = Buffer.concat([frameProtobufWatchEvent('ADDED', object), frameProtobufWatchEvent('MODIFIED', big), frameProtobufWatchEvent('BOOKMARK', bookmark)]);
    const events = [];
    let rest: Uint8Array = stream;
    for (let next = readProtobufWatchEvent(rest, schema); next; next = readProtobufWatchEvent(rest, schema)) {
      events.push(next.event);
      rest = next.rest;
    }
    assert.equal(rest.length, 0);
    assert.deepEqual(events, [
      { type: 'ADDED', object: configMap },
      { type: 'MODIFIED', object: { ...configMap, data: { k: 'x'.repeat(300) } } },
      { type: 'BOOKMARK', object: { kind: 'ConfigMap', apiVersion: 'v1', metadata: { resourceVersion: '9' } } },
    ]);
  });

  it('waits for a whole frame', () => {
    const frame = frameProtobufWatchEvent('ADDED', object);
    assert.equal(readProtobufWatchEvent(frame.subarray(0, 3), schema), undefined);
    assert.equal(readProtobufWatchEvent(frame.subarray(0, frame.length - 1), schema), undefined);
  });
});
