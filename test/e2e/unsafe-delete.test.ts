/**
 * The force delete of a corrupt object with the real binary: a ConfigMap's row in the embedded
 * store is overwritten while the server is stopped, and after a restart only a DELETE with
 * ignoreStoreReadErrorWithClusterBreakingPotential (AllowUnsafeMalformedObjectDeletion on) removes it.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { startServer, type TestServer } from './harness.js';

const GATE = ['--feature-gates', 'AllowUnsafeMalformedObjectDeletion=true'];
const PATH = '/api/v1/namespaces/default/configmaps/broken';

/** Replaces the stored bytes of `key`'s current row (the server must be stopped). */
function corruptRow(dataDir: string, key: string): void {
  const db = new Database(join(dataDir, 'store', 'state.db'));
  try {
    const changed = db
      .prepare('UPDATE kv SET value = ? WHERE revision = (SELECT MAX(revision) FROM kv WHERE key = ?) AND deleted = 0')
      .run(Buffer.from('{"kind":"ConfigMap",'), key).changes;
    assert.equal(changed, 1, `a live row of ${key}`);
  } finally {
    db.close();
  }
}

describe('force delete of a corrupt object', () => {
  it('a row that no longer decodes is a 500 until a DELETE with the option removes it, finalizers and all', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'capstan-e2e-corrupt-'));
    let server: TestServer | undefined;
    try {
      server = await startServer(GATE, dataDir);
      const body = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'broken', finalizers: ['example.com/hold'] }, data: { k: 'v' } };
      assert.equal((await server.request('/api/v1/namespaces/default/configmaps', { method: 'POST', body })).status, 201);
      await server.stop();
      server = undefined;
      corruptRow(dataDir, '/registry/configmaps/default/broken');

      server = await startServer(GATE, dataDir);
      const read = await server.request(PATH);
      assert.equal(read.status, 500, read.body);
      assert.match(read.json().message, /^Internal error occurred: object stored at \/registry\/configmaps\/default\/broken cannot be decoded: /);
      assert.equal((await server.request(PATH, { method: 'DELETE' })).status, 500);

      const forced = await server.request(PATH, { method: 'DELETE', body: { ignoreStoreReadErrorWithClusterBreakingPotential: true } });
      assert.equal(forced.status, 200, forced.body);
      assert.deepEqual(forced.json(), { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details: { name: 'broken', kind: 'ConfigMap' }, code: 200 });
      assert.equal((await server.request(PATH)).status, 404);
      const list = (await server.request('/api/v1/namespaces/default/configmaps')).json<{ items: { metadata: { name: string } }[] }>();
      assert.ok(!list.items.some((item) => item.metadata.name === 'broken'));
    } finally {
      await server?.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
