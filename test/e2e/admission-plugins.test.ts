/**
 * --enable-admission-plugins and --disable-admission-plugins on the real binary, driven by kubectl
 * where it is installed (else by plain requests): NamespaceAutoProvision, NamespaceLifecycle
 * disabled, AlwaysDeny; and a configuration file that cannot be read stopping the start.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAIN, pinnedKubectl, startServer, type TestServer } from './harness.js';

const kubectlPath = pinnedKubectl();
if (!kubectlPath) console.log('# skipping the kubectl admission tests: no kubectl under /usr/lib/google-cloud-sdk/bin');
const DENIED = 'admission control is denying all modifications';

function ok(server: TestServer, args: string[]): string {
  const r = server.kubectl(args);
  assert.equal(r.code, 0, `kubectl ${args.join(' ')} failed:\n${r.stderr}\n${r.stdout}`);
  return r.stdout;
}

describe('--enable-admission-plugins NamespaceAutoProvision', { skip: kubectlPath === undefined }, () => {
  let server: TestServer;
  before(async () => {
    server = await startServer(['--enable-admission-plugins', 'NamespaceAutoProvision']);
  });
  after(async () => server?.stop());

  it('lets kubectl create in a missing namespace, which then exists', () => {
    assert.match(ok(server, ['-n', 'made-for-me', 'create', 'configmap', 'cm1', '--from-literal=a=b']), /configmap\/cm1 created/);
    assert.match(ok(server, ['get', 'namespace', 'made-for-me', '-o', 'jsonpath={.status.phase}']), /^Active$/);
  });
});

describe('--disable-admission-plugins NamespaceLifecycle', { skip: kubectlPath === undefined }, () => {
  let server: TestServer;
  before(async () => {
    server = await startServer(['--disable-admission-plugins', 'NamespaceLifecycle']);
  });
  after(async () => server?.stop());

  it('stores a configmap in a namespace that does not exist, creating no namespace', () => {
    assert.match(ok(server, ['-n', 'nowhere', 'create', 'configmap', 'cm1', '--from-literal=a=b']), /configmap\/cm1 created/);
    assert.match(ok(server, ['-n', 'nowhere', 'get', 'configmap', 'cm1', '-o', 'name']), /configmap\/cm1/);
    const missing = server.kubectl(['get', 'namespace', 'nowhere']);
    assert.notEqual(missing.code, 0);
    assert.match(missing.stderr, /namespaces "nowhere" not found/);
  });
});

describe('--enable-admission-plugins AlwaysDeny', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer(['--enable-admission-plugins', 'AlwaysDeny']);
  });
  after(async () => server?.stop());

  it('refuses a create with upstream\'s 403 and still serves reads', async () => {
    const res = await server.request('/api/v1/namespaces/default/configmaps', { method: 'POST', body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm1' } } });
    assert.equal(res.status, 403, res.body);
    assert.deepEqual(res.json(), {
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
      message: `configmaps "cm1" is forbidden: ${DENIED}`, reason: 'Forbidden', details: { name: 'cm1', kind: 'configmaps' }, code: 403,
    });
    assert.equal((await server.request('/api/v1/namespaces/default')).status, 200);
    assert.equal((await server.request('/api/v1/namespaces/default/configmaps/kube-root-ca.crt')).status, 200);
    const del = await server.request('/api/v1/namespaces/default/configmaps/kube-root-ca.crt', { method: 'DELETE' });
    assert.equal(del.status, 403);
    assert.equal(del.json<{ message: string }>().message, `configmaps "kube-root-ca.crt" is forbidden: ${DENIED}`);
    assert.match(server.output(), /AlwaysDeny admission controller is deprecated/);
  });

  it('answers kubectl create with the message', { skip: kubectlPath === undefined }, () => {
    const r = server.kubectl(['-n', 'default', 'create', 'configmap', 'cm2', '--from-literal=a=b']);
    assert.notEqual(r.code, 0);
    // kubectl create configmap words its own prefix: `error: failed to create configmap: ...`.
    assert.match(r.stderr, new RegExp(`configmaps "cm2" is forbidden: ${DENIED}\n$`));
    assert.match(ok(server, ['get', 'namespaces', '-o', 'name']), /namespace\/default/);
  });
});

describe('admission flags the binary refuses', () => {
  const home = mkdtempSync(join(tmpdir(), 'capstan-admission-flags-'));
  const run = (...args: string[]) => spawnSync(process.execPath, [MAIN, '--data-dir', home, '--secure-port', '0', ...args], { encoding: 'utf8', timeout: 20_000 });

  it('exits 1 for an unknown plugin, in upstream\'s words', () => {
    const r = run('--enable-admission-plugins', 'Foo');
    assert.equal(r.status, 1);
    assert.equal(r.stderr, 'capstan: enable-admission-plugins plugin "Foo" is unknown\n');
  });

  it('exits 1 for a configuration file it cannot read', () => {
    const r = run('--admission-control-config-file', '/no/such/admission.yaml');
    assert.equal(r.status, 1);
    assert.equal(r.stderr, 'capstan: failed to start: failed to read plugin config: unable to read admission control configuration from "/no/such/admission.yaml" [open /no/such/admission.yaml: no such file or directory]\n');
  });
});
