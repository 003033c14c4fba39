/**
 * Lists in Protobuf (as client-go's typed clients ask for them) are written item by item from the
 * items' own encodings: the body must decode to the same list as the JSON one, both when it fits
 * one body and when it is streamed in chunks. A streamed list is gzipped on request too.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { gunzipSync } from 'node:zlib';
import { ProtobufCodec } from '../../src/serialization/protobuf/protobuf-codec.js';
import { createNamespace, startServer, type TestServer } from './harness.js';

const NS = '/api/v1/namespaces/pb/configmaps';
const PROTOBUF = 'application/vnd.kubernetes.protobuf';

describe('Protobuf lists', () => {
  let server: TestServer;
  const codec = new ProtobufCodec();

  const getBytes = async (path: string, accept: string): Promise<{ status: number; type: string; streamed: boolean; body: Buffer }> => {
    const res = await server.request(path, { headers: { Accept: accept } });
    return { status: res.status, type: String(res.headers['content-type']), streamed: res.headers['transfer-encoding'] === 'chunked', body: res.bytes };
  };

  /** Checks the Protobuf list against the JSON one; resolves with its size and whether it was streamed. */
  const sameAsJson = async (query: string): Promise<{ bytes: number; streamed: boolean }> => {
    const pb = await getBytes(`${NS}${query}`, PROTOBUF);
    assert.equal(pb.status, 200);
    assert.equal(pb.type, PROTOBUF);
    const decoded = codec.decode(pb.body).value as { kind: string; metadata: { resourceVersion: string }; items: { metadata: { name: string; resourceVersion: string }; data?: Record<string, string> }[] };
    const json = (await server.request(`${NS}${query}`)).json();
    assert.equal(decoded.kind, 'ConfigMapList');
    assert.equal(decoded.metadata.resourceVersion, json.metadata.resourceVersion);
    assert.deepEqual(
      decoded.items.map((i) => [i.metadata.name, i.metadata.resourceVersion, i.data?.['d']?.length]),
      json.items.map((i: any) => [i.metadata.name, i.metadata.resourceVersion, i.data?.['d']?.length]),
    );
    return { bytes: pb.body.length, streamed: pb.streamed };
  };

  before(async () => {
    server = await startServer();
    await createNamespace(server, 'pb');
    const data = { d: 'x'.repeat(1024) };
    for (let i = 0; i < 1100; i += 50) {
      const batch = Array.from({ length: 50 }, (_, j) =>
        server.request(NS, { method: 'POST', body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${String(i + j).padStart(4, '0')}` }, data } }),
      );
      for (const res of await Promise.all(batch)) assert.equal(res.status, 201, res.body);
    }
  });
  after(async () => server?.stop());

  it('a page that fits one body decodes to the JSON page', async () => {
    const page = await sameAsJson('?limit=10');
    assert.ok(page.bytes < 1024 * 1024);
    assert.equal(page.streamed, false, 'one body, with its length');
  });

  it('a list larger than a chunk, streamed, decodes to the JSON list', async () => {
    const list = await sameAsJson('');
    assert.ok(list.bytes > 1024 * 1024);
    assert.equal(list.streamed, true, 'written in chunks');
  });

  it('a streamed list is gzipped for a client that accepts it (JSON here)', async () => {
    const zipped = await server.request(NS, { headers: { 'Accept-Encoding': 'gzip' } });
    assert.equal(zipped.headers['content-encoding'], 'gzip');
    assert.equal(zipped.headers['transfer-encoding'], 'chunked');
    const plain = await server.request(NS);
    assert.deepEqual(JSON.parse(gunzipSync(zipped.bytes).toString('utf8')), plain.json());
  });
});
