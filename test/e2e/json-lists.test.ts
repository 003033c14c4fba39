/**
 * JSON list items are views of their objects' kept encodings (made once per encoding): a list
 * read again must be the same bytes, and every item must be its object as a GET returns it,
 * without kind and apiVersion.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createNamespace, startServer, type TestServer } from './harness.js';

const NS = '/api/v1/namespaces/jl/configmaps';

describe('JSON lists from kept encodings', () => {
  let server: TestServer;

  before(async () => {
    server = await startServer();
    await createNamespace(server, 'jl');
    const created = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        server.request(NS, { method: 'POST', body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${i}`, labels: { i: String(i) } }, data: { text: `<${i}> & \u2028 caf\u00e9` } } }),
      ),
    );
    for (const res of created) assert.equal(res.status, 201, res.body);
  });
  after(async () => server?.stop());

  it('lists the same bytes twice, each item being the GET of its object without kind and apiVersion', async () => {
    const first = await server.request(NS);
    const second = await server.request(NS);
    assert.equal(first.status, 200);
    assert.ok(first.bytes.equals(second.bytes), 'the second list, from the kept views, is byte for byte the first');
    const items = first.json<{ items: { metadata: { name: string } }[] }>().items;
    assert.equal(items.filter((i) => i.metadata.name.startsWith('cm-')).length, 20);
    for (const item of items) {
      const get = await server.request(`${NS}/${item.metadata.name}`);
      const { kind: _kind, apiVersion: _apiVersion, ...rest } = get.json();
      assert.deepEqual(item, rest);
      // Bytes too: the item is the GET's JSON with its first two members cut (Go's escaping kept).
      const raw = get.body.trimEnd();
      assert.ok(first.body.includes(`{${raw.slice(raw.indexOf('"metadata"'))}`), `${item.metadata.name} appears as its GET's bytes`);
    }
  });
});
