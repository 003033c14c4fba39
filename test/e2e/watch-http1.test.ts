/**
 * Watch streams over HTTP/1.1, where the server writes the chunked encoding itself: bursts of
 * events that share one socket write, Table events, and the end of the stream after
 * timeoutSeconds must all arrive as valid chunks that Node's HTTP parser accepts. (Bookmarks over
 * HTTP/1.1 are checked by resource-versions.test.ts.)
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createNamespace, startServer, type TestServer } from './harness.js';

const NS = '/api/v1/namespaces/chunks/configmaps';
const AS_TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io';

describe('watch over HTTP/1.1', () => {
  let server: TestServer;

  before(async () => {
    server = await startServer();
    await createNamespace(server, 'chunks');
  });
  after(async () => server?.stop());

  it('delivers bursts and Table rows as valid chunks and ends the stream after timeoutSeconds', async () => {
    const created = await server.request(NS, { method: 'POST', body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'before' } } });
    const from = created.json().metadata.resourceVersion as string;
    const watch = `${NS}?watch=1&resourceVersion=${from}&allowWatchBookmarks=true&timeoutSeconds=2`;
    const objects = server.request(watch);
    const rows = server.request(watch, { headers: { Accept: AS_TABLE } });
    // Let both watches start, then write in bursts, so that several events share a flush.
    await new Promise((r) => setTimeout(r, 200));
    const names = Array.from({ length: 30 }, (_, i) => `cm-${String(i).padStart(2, '0')}`);
    for (let i = 0; i < names.length; i += 10) {
      const burst = names.slice(i, i + 10).map((name) => server.request(NS, { method: 'POST', body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { k: 'v'.repeat(i * 100) } } }));
      for (const res of await Promise.all(burst)) assert.equal(res.status, 201, res.body);
    }

    const lines = (body: string) => body.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));
    const [plain, table] = await Promise.all([objects, rows]);
    assert.equal(plain.status, 200);
    assert.equal(plain.headers['transfer-encoding'], 'chunked');
    const events = lines(plain.body).filter((e) => e.type !== 'BOOKMARK');
    // On failure the message lists each event with its revision: which one is extra or missing.
    const typeAndName = events.map((e) => `${e.type} ${e.object?.metadata?.name}`);
    const withRevisions = events.map((e, i) => `${typeAndName[i]} ${e.object?.metadata?.resourceVersion}`);
    assert.deepEqual([...typeAndName].sort(), names.map((n) => `ADDED ${n}`), `watch from ${from} got:\n${withRevisions.join('\n')}`);

    assert.equal(table.status, 200);
    const tableEvents = lines(table.body).filter((e) => e.type !== 'BOOKMARK');
    const rowsSeen = tableEvents.map((e) => `${e.type} ${e.object.rows?.[0]?.cells?.[0]}`);
    assert.equal(tableEvents.length, names.length, `Table watch from ${from} got:\n${rowsSeen.join('\n')}`);
    assert.equal(tableEvents[0].object.kind, 'Table');
    assert.ok(tableEvents[0].object.columnDefinitions.length > 0, 'the first Table event carries the columns');
    assert.deepEqual(tableEvents.map((e) => e.object.rows[0].cells[0]).sort(), names);
  });
});
