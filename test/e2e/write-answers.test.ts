/**
 * A write answers with its object as a GET then returns it, byte for byte: the write's answer is
 * encoded from the object it wrote, a GET's from the watch cache's copy of it (with its kept
 * encoding), and the two must not drift apart in field order, escaping or the revision.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createNamespace, startServer, type TestServer } from './harness.js';

const NS = '/api/v1/namespaces/wa/configmaps';
/** Characters of more than one byte, one outside the Basic Multilingual Plane, and a NUL. */
const AWKWARD = 'caf\u00e9 \u{1F600} "resourceVersion":"\u0000"';
/** Characters Go escapes. */
const ESCAPED = '<a> & \u2028';

describe('the answer to a write', () => {
  let server: TestServer;

  before(async () => {
    server = await startServer();
    await createNamespace(server, 'wa');
  });
  after(async () => server?.stop());

  async function sameAsGet(answer: { status: number; body: string }, name: string): Promise<void> {
    assert.ok(answer.status === 200 || answer.status === 201, answer.body);
    const get = await server.request(`${NS}/${name}`);
    assert.equal(answer.body, get.body);
    assert.match(answer.body, /"uid":"[^"]+","resourceVersion":"\d+","creationTimestamp"/);
  }

  for (const [name, text] of [['one', AWKWARD], ['escaped', ESCAPED]] as const) {
    it(`is the GET of the created, replaced and patched object (${name})`, async () => {
      const labels = { z: 'last', a: 'first' };
      const created = await server.request(NS, { method: 'POST', body: { data: { text }, metadata: { labels, name }, kind: 'ConfigMap', apiVersion: 'v1' } });
      await sameAsGet(created, name);

      const current = created.json();
      const replaced = await server.request(`${NS}/${name}`, { method: 'PUT', body: { ...current, data: { text, more: 'x' } } });
      await sameAsGet(replaced, name);
      assert.notEqual(replaced.json().metadata.resourceVersion, current.metadata.resourceVersion);

      const patched = await server.request(`${NS}/${name}`, {
        method: 'PATCH',
        headers: { 'Content-Type': 'application/merge-patch+json' },
        body: { metadata: { annotations: { note: text } } },
      });
      await sameAsGet(patched, name);
      assert.equal(patched.json().metadata.annotations.note, text);
      if (text === ESCAPED) assert.ok(patched.body.includes('\\u003ca\\u003e \\u0026 \\u2028'), 'escaped as Go escapes');
    });
  }

  it('is indented when asked to be, and answers a dry run without a revision', async () => {
    const pretty = await server.request(`${NS}?pretty=true`, { method: 'POST', body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'two' }, data: { text: AWKWARD } } });
    assert.equal(pretty.status, 201, pretty.body);
    assert.ok(pretty.body.startsWith('{\n  "kind": "ConfigMap",\n'), pretty.body);
    assert.deepEqual(pretty.json(), (await server.request(`${NS}/two`)).json());

    const dryRun = await server.request(`${NS}?dryRun=All`, { method: 'POST', body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'three' } } });
    assert.equal(dryRun.status, 201, dryRun.body);
    assert.equal(dryRun.json().metadata.resourceVersion, undefined);
    assert.equal((await server.request(`${NS}/three`)).status, 404);
  });
});
