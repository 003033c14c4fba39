/**
 * The OpenAPI documents over HTTPS: /openapi/v2's two forms, JSON and the Protobuf kubectl and
 * client-go ask for (what the bytes hold: test/openapi/openapi-v2-protobuf.test.ts; kubectl reading
 * them: kubectl.test.ts), and /openapi/v3's documents fetched by their hash.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { gunzipSync } from 'node:zlib';
import { startServer, type TestServer } from './harness.js';
import { entriesOf, onlyBytes, textOf } from '../openapi/protobuf-fields.js';

const PROTOBUF = 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf';
const PROTOBUF_NEW_NAME = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';

describe('/openapi/v2 content negotiation', () => {
  let server: TestServer;
  const get = (headers: Record<string, string>) => server.request('/openapi/v2', { headers });

  before(async () => {
    server = await startServer();
  });
  after(async () => server?.stop());

  it('answers JSON without an Accept header, for */* and for application/json', async () => {
    for (const headers of [{} as Record<string, string>, { Accept: '*/*' }, { Accept: 'application/json' }, { Accept: `${PROTOBUF};q=0.5, application/json` }]) {
      const res = await get(headers);
      assert.equal(res.status, 200, JSON.stringify(headers));
      assert.equal(res.headers['content-type'], 'application/json', JSON.stringify(headers));
      assert.equal(JSON.parse(res.bytes.toString('utf8')).swagger, '2.0');
    }
  });

  it('answers Protobuf to either of its names, under the newer one', async () => {
    for (const accept of [PROTOBUF, PROTOBUF_NEW_NAME, `application/yaml, ${PROTOBUF}`]) {
      const res = await get({ Accept: accept });
      assert.equal(res.status, 200, accept);
      assert.equal(res.headers['content-type'], PROTOBUF_NEW_NAME, accept);
      assert.equal(res.headers.vary, 'Accept');
      assert.equal(textOf(res.bytes, 1), '2.0');
      const definitions = entriesOf(onlyBytes(res.bytes, 9), 1);
      assert.ok(definitions.has('io.k8s.api.core.v1.ConfigMap'), 'the built-in definitions are there');
    }
  });

  it('gives each form its own ETag and revalidates each', async () => {
    const json = await get({ Accept: 'application/json' });
    const protobuf = await get({ Accept: PROTOBUF });
    const [jsonTag, protobufTag] = [json.headers.etag as string, protobuf.headers.etag as string];
    assert.match(protobufTag, /^"[0-9A-F]{128}"$/);
    assert.notEqual(protobufTag, jsonTag, 'a cache holding the JSON form must not be told it is still good for Protobuf');
    assert.equal((await get({ Accept: PROTOBUF, 'If-None-Match': protobufTag })).status, 304);
    assert.equal((await get({ Accept: PROTOBUF, 'If-None-Match': jsonTag })).status, 200);
  });

  it('gzips the Protobuf form for a client that accepts it', async () => {
    const plain = await get({ Accept: PROTOBUF });
    const zipped = await get({ Accept: PROTOBUF, 'Accept-Encoding': 'gzip' });
    assert.equal(zipped.headers['content-encoding'], 'gzip');
    assert.deepEqual(gunzipSync(zipped.bytes), plain.bytes);
  });

  it('refuses other media types with 406 and a Status', async () => {
    const res = await get({ Accept: 'application/yaml' });
    assert.equal(res.status, 406);
    const status = JSON.parse(res.bytes.toString('utf8'));
    assert.equal(status.kind, 'Status');
    assert.equal(status.reason, 'NotAcceptable');
    assert.match(status.message, /only the following media types are accepted: application\/json, application\/com\.github\.proto-openapi/);
  });
});

describe('/openapi/v3 documents by hash', () => {
  let server: TestServer;
  let appsUrl: string;

  before(async () => {
    server = await startServer();
    const index = JSON.parse((await server.request('/openapi/v3')).bytes.toString('utf8'));
    appsUrl = index.paths['apis/apps/v1'].serverRelativeURL;
  });
  after(async () => server?.stop());

  it('lets a client keep a document fetched by its current hash', async () => {
    assert.match(appsUrl, /^\/openapi\/v3\/apis\/apps\/v1\?hash=[0-9A-F]{128}$/);
    const res = await server.request(appsUrl, { headers: { Accept: 'application/json' } });
    assert.equal(res.status, 200);
    assert.equal(res.headers['cache-control'], 'public, immutable');
    assert.ok(Date.parse(res.headers.expires as string) > Date.now() + 300 * 86_400_000, 'expires in about a year');
    assert.equal(JSON.parse(res.bytes.toString('utf8')).openapi, '3.0.0');
    const unhashed = await server.request('/openapi/v3/apis/apps/v1');
    assert.equal(unhashed.headers['cache-control'], 'no-cache, private', 'without a hash the document may change');
  });

  it('redirects a stale hash to the current one', async () => {
    const res = await server.request('/openapi/v3/apis/apps/v1?hash=0123');
    assert.equal(res.status, 301);
    assert.equal(res.headers.location, appsUrl);
  });

  it('refuses a media type it cannot give with 406 and a Status', async () => {
    const res = await server.request(appsUrl, { headers: { Accept: 'application/com.github.proto-openapi.spec.v3@v1.0+protobuf' } });
    assert.equal(res.status, 406);
    assert.equal(JSON.parse(res.bytes.toString('utf8')).reason, 'NotAcceptable');
  });
});
