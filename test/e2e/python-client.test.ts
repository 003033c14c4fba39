/**
 * The official Kubernetes Python client (Debian's python3-kubernetes, which .ci/run installs)
 * against the real server: version, namespaces, create, label selection, patch, replace and its
 * conflict, a Deployment with defaults and its scale subresource, a watch, pages, delete, the
 * dynamic client (which goes through discovery), create_from_dict, and an access review. The steps are in python/client_checks.py; this test asserts on what it printed.
 * Skips with a printed reason where that client is not installed.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT, startServer, type TestServer } from './harness.js';

/** Debian's interpreter: the client is a Debian package, installed for it. */
const PYTHON = '/usr/bin/python3';
const SCRIPT = join(ROOT, 'test/e2e/python/client_checks.py');

function pythonClientInstalled(): boolean {
  return spawnSync(PYTHON, ['-c', 'import kubernetes'], { encoding: 'utf8' }).status === 0;
}

const installed = pythonClientInstalled();
if (!installed) console.log('# skipping the Python client tests: no python3-kubernetes for /usr/bin/python3');

describe('the Python client against capstan', { skip: !installed }, () => {
  let server: TestServer;
  let seen: Record<string, unknown>;

  before(async () => {
    server = await startServer();
    const run = spawnSync(PYTHON, [SCRIPT, server.kubeconfig, 'python'], { encoding: 'utf8', timeout: 60_000 });
    assert.equal(run.status, 0, `client_checks.py failed:\n${run.stderr}\n${run.stdout}`);
    seen = JSON.parse(run.stdout) as Record<string, unknown>;
  });
  after(async () => server?.stop());

  it('reads the version at /version/, where this client asks', () => {
    assert.equal(seen.version, 'v1.35.0');
  });

  it('creates, selects, patches and replaces a ConfigMap, and reports a stale replace as 409 Conflict', () => {
    assert.ok((seen.namespaces as string[]).includes('python'));
    const created = seen.created as { name: string; uid: string; created_at: string };
    assert.equal(created.name, 'c1');
    assert.match(created.uid, /^[0-9a-f-]{36}$/);
    assert.match(created.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/, 'creationTimestamp parses as a UTC time');
    assert.deepEqual(seen.selected, ['c1']);
    assert.deepEqual(seen.patched, { a: 'b', c: 'd' });
    assert.deepEqual(seen.replaced, { z: '1' });
    assert.deepEqual(seen.conflict, { status: 409, reason: 'Conflict' });
  });

  it('defaults a Deployment and scales it through its scale subresource', () => {
    assert.deepEqual(seen.deployment, { generation: 1, strategy: 'RollingUpdate', pull_policy: 'Always' });
    assert.equal(seen.scaled, 3);
  });

  it('watches from a resourceVersion, pages a list and deletes', () => {
    assert.deepEqual(seen.watched, [['ADDED', 'w0'], ['ADDED', 'w1'], ['ADDED', 'w2']]);
    assert.deepEqual(seen.page, { items: 2, has_continue: true });
    assert.equal(seen.rest, (seen.total as number) - 2, 'the second page holds the rest');
    assert.equal(seen.after_delete, 404);
  });

  it('serves the dynamic client, which finds resources through discovery', () => {
    const dynamic = seen.dynamic as { resource: string; namespaced: boolean; data: object; pod_subresources: string[] };
    assert.deepEqual([dynamic.resource, dynamic.namespaced, dynamic.data], ['configmaps', true, { k: 'v' }]);
    for (const sub of ['status', 'log', 'exec', 'eviction', 'binding']) assert.ok(dynamic.pod_subresources.includes(sub), sub);
    assert.match(seen.cluster_ip as string, /^10\.0\.\d+\.\d+$/, 'create_from_dict made a Service with a cluster IP');
  });

  it('answers a self subject access review', () => {
    assert.equal(seen.allowed, true);
  });
});
