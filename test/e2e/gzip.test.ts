/**
 * Large complete responses are gzipped for clients that accept it (client-go and kubectl always
 * do), as upstream does above 128 KiB; small ones and clients without Accept-Encoding get them
 * plain. (Streamed lists: protobuf-lists.test.ts, which has one.)
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { gunzipSync } from 'node:zlib';
import { startServer, type TestServer } from './harness.js';

describe('gzip', () => {
  let server: TestServer;

  const get = async (path: string, headers: Record<string, string>): Promise<{ status: number; encoding: string | undefined; body: Buffer }> => {
    const res = await server.request(path, { headers });
    return { status: res.status, encoding: res.headers['content-encoding'] as string | undefined, body: res.bytes };
  };

  before(async () => {
    server = await startServer();
  });
  after(async () => server?.stop());

  it('compresses a large complete body (the OpenAPI document) for a client that accepts gzip', async () => {
    const zipped = await get('/openapi/v2', { 'Accept-Encoding': 'gzip', Accept: 'application/json' });
    assert.equal(zipped.status, 200);
    assert.equal(zipped.encoding, 'gzip');
    const plain = await get('/openapi/v2', { Accept: 'application/json' });
    assert.equal(plain.encoding, undefined);
    assert.ok(plain.body.length > 128 * 1024);
    assert.deepEqual(gunzipSync(zipped.body), plain.body);
    // A second request gets the same compressed bytes (that they are made once: openapi-routes.test.ts).
    const again = await get('/openapi/v2', { 'Accept-Encoding': 'gzip', Accept: 'application/json' });
    assert.equal(again.encoding, 'gzip');
    assert.deepEqual(again.body, zipped.body);
  });

  it('sends a small body plain even to a client that accepts gzip', async () => {
    const res = await get('/api/v1/namespaces/default', { 'Accept-Encoding': 'gzip' });
    assert.equal(res.status, 200);
    assert.equal(res.encoding, undefined);
    assert.equal(JSON.parse(res.body.toString()).metadata.name, 'default');
  });
});
