import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ProtobufEncodeError } from '../../../src/serialization/protobuf/errors.js';
import { encodeProtobufList } from '../../../src/serialization/protobuf/list-encoder.js';
import { decodeProtobufObject, encodeProtobufObject } from '../../../src/serialization/protobuf/protobuf-object.js';
import { ProtobufSchema } from '../../../src/serialization/protobuf/schema.js';
import { goldenObjects } from './fixtures.js';

const schema = new ProtobufSchema();

async function collect(chunks: AsyncIterable<Uint8Array>): Promise<Uint8Array[]> {
  const out: Uint8Array[] = [];
  for await (const chunk of chunks) out.push(chunk);
  return out;
}

describe('encodeProtobufList', () => {
  const pods = Array.from({ length: 50 }, (_, i) => ({
    ...goldenObjects().find((g) => g.file === 'object-pod-p1.json')!.object,
    metadata: { name: `p${i}`, namespace: 'golden', resourceVersion: String(100 + i) },
  }));
  const encodedPods = pods.map((pod) => encodeProtobufObject(pod, 'v1', 'Pod', schema));
  const metadata = { resourceVersion: '200', continue: 'next', remainingItemCount: 7 };

  it('gives the bytes of the whole list, from already-encoded items', async () => {
    const chunks = await collect(encodeProtobufList({ apiVersion: 'v1', kind: 'PodList', metadata }, encodedPods, schema));
    const whole = encodeProtobufObject({ metadata, items: pods }, 'v1', 'PodList', schema);
    assert.ok(Buffer.concat(chunks).equals(whole));
    const decoded = decodeProtobufObject(whole, schema).object;
    assert.equal((decoded['items'] as unknown[]).length, 50);
  });

  it('batches into chunks and passes large items through', async () => {
    async function* items(): AsyncGenerator<Uint8Array> {
      yield* encodedPods;
    }
    const chunks = await collect(encodeProtobufList({ apiVersion: 'v1', kind: 'PodList', metadata }, items(), schema, { chunkBytes: 1024 }));
    assert.ok(chunks.length > 10 && chunks.length < encodedPods.length * 2, `${chunks.length} chunks`);
    assert.ok(chunks.every((c) => c.length <= 1024));
    const large = await collect(encodeProtobufList({ apiVersion: 'v1', kind: 'PodList' }, encodedPods.slice(0, 2), schema, { chunkBytes: 64 }));
    assert.ok(large.some((c) => c.buffer === encodedPods[0]!.buffer && c.length > 64), 'an item larger than a chunk is not copied');
  });

  it('encodes an empty list', async () => {
    const chunks = await collect(encodeProtobufList({ apiVersion: 'v1', kind: 'ConfigMapList', metadata: { resourceVersion: '3' } }, [], schema));
    assert.ok(Buffer.concat(chunks).equals(encodeProtobufObject({ metadata: { resourceVersion: '3' }, items: [] }, 'v1', 'ConfigMapList', schema)));
  });

  it('refuses kinds that are not lists and items that are not Protobuf', async () => {
    await assert.rejects(collect(encodeProtobufList({ apiVersion: 'v1', kind: 'Pod' }, [], schema)), ProtobufEncodeError);
    await assert.rejects(
      collect(encodeProtobufList({ apiVersion: 'v1', kind: 'PodList' }, [Buffer.from('{}')], schema)),
      /item 0 is not a Protobuf object: provided data does not appear to be a protobuf message/,
    );
    await assert.rejects(collect(encodeProtobufList({ apiVersion: 'v1', kind: 'PodList', metadata: { continue: 5 } }, [], schema)), /metadata\.continue: expected a string/);
  });
});
