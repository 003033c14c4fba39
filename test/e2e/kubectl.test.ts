/**
 * Drives the real server with a real kubectl client (the newest pinned one on the machine): the
 * everyday commands a user runs. Skips with a printed reason where kubectl is absent.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { pinnedKubectl, startServer, type TestServer } from './harness.js';

const kubectlPath = pinnedKubectl();
if (!kubectlPath) console.log('# skipping kubectl end-to-end tests: no kubectl under /usr/lib/google-cloud-sdk/bin');

describe('kubectl against capstan', { skip: kubectlPath === undefined }, () => {
  let server: TestServer;
  const work = mkdtempSync(join(tmpdir(), 'capstan-kubectl-'));
  const ok = (args: string[], input?: string): string => {
    const r = server.kubectl(args, input === undefined ? {} : { input });
    assert.equal(r.code, 0, `kubectl ${args.join(' ')} failed:\n${r.stderr}\n${r.stdout}`);
    return r.stdout;
  };

  before(async () => {
    server = await startServer();
    ok(['apply', '-f', '-'], 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: e2e\n');
  });
  after(async () => server?.stop());

  it('lists the system namespaces', () => {
    const out = ok(['get', 'namespaces', '-o', 'name']);
    for (const ns of ['default', 'kube-system', 'kube-public', 'kube-node-lease', 'e2e']) assert.match(out, new RegExp(`namespace/${ns}\\b`));
  });

  it('creates, gets and deletes a configmap', () => {
    ok(['-n', 'e2e', 'create', 'configmap', 'cm1', '--from-literal=a=b']);
    const cm = JSON.parse(ok(['-n', 'e2e', 'get', 'configmap', 'cm1', '-o', 'json']));
    assert.equal(cm.data.a, 'b');
    assert.equal(cm.metadata.namespace, 'e2e');
    assert.match(cm.metadata.uid, /^[0-9a-f-]{36}$/);
    assert.match(ok(['-n', 'e2e', 'delete', 'configmap', 'cm1']), /configmap "cm1" deleted/);
    const missing = server.kubectl(['-n', 'e2e', 'get', 'configmap', 'cm1']);
    assert.notEqual(missing.code, 0);
    assert.match(missing.stderr, /configmaps "cm1" not found/);
  });

  it('applies new objects from a file, then replaces one', () => {
    const file = join(work, 'objects.yaml');
    writeFileSync(file, [
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: applied\n  namespace: e2e\ndata:\n  k: v1\n',
      'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  namespace: e2e\nspec:\n  selector:\n    matchLabels: {app: web}\n  template:\n    metadata:\n      labels: {app: web}\n    spec:\n      containers:\n      - name: c\n        image: nginx\n',
    ].join('---\n'));
    const out = ok(['apply', '-f', file]);
    assert.match(out, /configmap\/applied created/);
    assert.match(out, /deployment.apps\/web created/);
    const d = JSON.parse(ok(['-n', 'e2e', 'get', 'deployment', 'web', '-o', 'json']));
    assert.equal(d.metadata.generation, 1);
    const replacement = join(work, 'replace.yaml');
    writeFileSync(replacement, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: applied\n  namespace: e2e\ndata:\n  k: v2\n');
    assert.match(ok(['replace', '-f', replacement]), /configmap\/applied replaced/);
    assert.equal(JSON.parse(ok(['-n', 'e2e', 'get', 'cm', 'applied', '-o', 'json'])).data.k, 'v2');
  });

  it('scales a deployment through the scale subresource', () => {
    assert.match(ok(['-n', 'e2e', 'scale', 'deployment', 'web', '--replicas=3']), /deployment.apps\/web scaled/);
    const d = JSON.parse(ok(['-n', 'e2e', 'get', 'deployment', 'web', '-o', 'json']));
    assert.equal(d.spec.replicas, 3);
    assert.equal(d.metadata.generation, 2);
  });

  it('gives every namespace its default service account and root CA', async () => {
    for (let i = 0; i < 50; i++) {
      if (server.kubectl(['-n', 'e2e', 'get', 'serviceaccount', 'default']).code === 0) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    ok(['-n', 'e2e', 'get', 'serviceaccount', 'default']);
    const ca = JSON.parse(ok(['-n', 'e2e', 'get', 'configmap', 'kube-root-ca.crt', '-o', 'json']));
    assert.match(ca.data['ca.crt'], /BEGIN CERTIFICATE/);
  });

  it('labels, annotates and patches with json and merge patches', () => {
    ok(['-n', 'e2e', 'create', 'configmap', 'patched', '--from-literal=x=1']);
    ok(['-n', 'e2e', 'label', 'configmap', 'patched', 'tier=db']);
    ok(['-n', 'e2e', 'annotate', 'configmap', 'patched', 'note=hello']);
    ok(['-n', 'e2e', 'patch', 'configmap', 'patched', '--type=json', '-p', '[{"op":"add","path":"/data/y","value":"2"}]']);
    ok(['-n', 'e2e', 'patch', 'configmap', 'patched', '--type=merge', '-p', '{"data":{"x":null,"z":"3"}}']);
    const cm = JSON.parse(ok(['-n', 'e2e', 'get', 'configmap', 'patched', '-o', 'json']));
    assert.deepEqual(cm.metadata.labels, { tier: 'db' });
    assert.equal(cm.metadata.annotations.note, 'hello');
    assert.deepEqual(cm.data, { y: '2', z: '3' });
    assert.match(ok(['-n', 'e2e', 'get', 'configmaps', '-l', 'tier=db', '-o', 'name']), /configmap\/patched/);
  });

  it('edits an object through EDITOR', () => {
    ok(['-n', 'e2e', 'create', 'configmap', 'edited', '--from-literal=color=red']);
    const editor = join(work, 'editor.sh');
    writeFileSync(editor, '#!/bin/sh\nsed -i "s/color: red/color: blue/" "$1"\n');
    chmodSync(editor, 0o755);
    const r = server.kubectl(['-n', 'e2e', 'edit', 'configmap', 'edited'], { env: { EDITOR: editor, KUBE_EDITOR: editor } });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(JSON.parse(ok(['-n', 'e2e', 'get', 'cm', 'edited', '-o', 'json'])).data.color, 'blue');
  });

  it('creates with --dry-run=server without storing anything', () => {
    const out = JSON.parse(ok(['-n', 'e2e', 'create', 'configmap', 'dry', '--from-literal=a=b', '--dry-run=server', '-o', 'json']));
    assert.equal(out.metadata.name, 'dry');
    assert.notEqual(server.kubectl(['-n', 'e2e', 'get', 'cm', 'dry']).code, 0);
  });

  it('waits for a delete that a finalizer holds until the finalizer is removed', async () => {
    ok(['-n', 'e2e', 'apply', '-f', '-'], 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: held\n  finalizers: [example.com/hold]\n');
    const waiting = spawn(kubectlPath!, ['--kubeconfig', server.kubeconfig, '-n', 'e2e', 'delete', 'configmap', 'held', '--wait=true', '--timeout=60s']);
    let waitingOut = '';
    waiting.stdout.on('data', (d: Buffer) => (waitingOut += d.toString()));
    const done = new Promise<number>((r) => waiting.on('exit', (code) => r(code ?? -1)));
    // The object stays, marked for deletion, while the finalizer holds it.
    for (let i = 0; i < 100; i++) {
      const cm = JSON.parse(ok(['-n', 'e2e', 'get', 'cm', 'held', '-o', 'json']));
      if (cm.metadata.deletionTimestamp) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.ok(JSON.parse(ok(['-n', 'e2e', 'get', 'cm', 'held', '-o', 'json'])).metadata.deletionTimestamp);
    ok(['-n', 'e2e', 'patch', 'configmap', 'held', '--type=merge', '-p', '{"metadata":{"finalizers":null}}']);
    assert.equal(await done, 0);
    assert.match(waitingOut, /deleted/);
    assert.notEqual(server.kubectl(['-n', 'e2e', 'get', 'cm', 'held']).code, 0);
  });

  it('follows changes with get -w', async () => {
    ok(['-n', 'e2e', 'create', 'configmap', 'watched', '--from-literal=v=0']);
    const watcher = spawn(kubectlPath!, ['--kubeconfig', server.kubeconfig, '-n', 'e2e', 'get', 'configmap', 'watched', '-w', '-o', 'jsonpath={.data.v}{"\\n"}']);
    let seen = '';
    watcher.stdout.on('data', (d: Buffer) => (seen += d.toString()));
    try {
      for (let i = 0; i < 100 && !seen.includes('0'); i++) await new Promise((r) => setTimeout(r, 50));
      ok(['-n', 'e2e', 'patch', 'configmap', 'watched', '--type=merge', '-p', '{"data":{"v":"1"}}']);
      for (let i = 0; i < 100 && !seen.includes('1'); i++) await new Promise((r) => setTimeout(r, 50));
      assert.deepEqual(seen.trim().split('\n'), ['0', '1']);
    } finally {
      watcher.kill();
    }
  });

  it('pages lists with --chunk-size', () => {
    ok(['create', 'namespace', 'paged']);
    for (let i = 0; i < 5; i++) ok(['-n', 'paged', 'create', 'configmap', `c${i}`]);
    const out = ok(['-n', 'paged', 'get', 'configmaps', '--chunk-size=2', '-o', 'name', '-v=6']);
    const names = out.split('\n').filter((l) => l.startsWith('configmap/c'));
    assert.deepEqual(names, ['configmap/c0', 'configmap/c1', 'configmap/c2', 'configmap/c3', 'configmap/c4']);
  });

  it('reports api-resources, api-versions and explain', () => {
    const resources = ok(['api-resources']);
    assert.match(resources, /^pods\s+po\s+v1\s+true\s+Pod$/m);
    assert.match(resources, /^deployments\s+deploy\s+apps\/v1\s+true\s+Deployment$/m);
    const versions = ok(['api-versions']).split('\n');
    for (const v of ['v1', 'apps/v1', 'batch/v1', 'rbac.authorization.k8s.io/v1']) assert.ok(versions.includes(v), v);
    assert.match(ok(['explain', 'pods.spec.containers']), /FIELD: containers/);
  });

  it('creates the objects of a List file, validated on the client against /openapi/v2', () => {
    // kubectl validates a List's items with the Swagger 2.0 document, which it reads only as Protobuf.
    const configMap = (name: string, extra: object = {}) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'e2e' }, data: { k: 'v' }, ...extra });
    const list = (...items: object[]) => JSON.stringify({ apiVersion: 'v1', kind: 'List', items });
    const out = ok(['create', '-f', '-'], list(configMap('listed-1'), configMap('listed-2')));
    assert.match(out, /configmap\/listed-1 created/);
    assert.match(out, /configmap\/listed-2 created/);
    const bad = server.kubectl(['create', '-f', '-'], { input: list(configMap('listed-3', { bogus: 1 })) });
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /unknown field "bogus" in io\.k8s\.api\.core\.v1\.ConfigMap/);
  });

  it('lists what the user may do with auth can-i --list (a SelfSubjectRulesReview)', async () => {
    const table = ok(['auth', 'can-i', '--list', '-n', 'e2e']);
    assert.match(table, /^Resources\s+Non-Resource URLs\s+Resource Names\s+Verbs$/m);
    assert.match(table, /^\*\.\*\s+\[\]\s+\[\]\s+\[\*\]$/m, 'AlwaysAllow: every verb on every resource');
    assert.match(table, /^\s+\[\*\]\s+\[\]\s+\[\*\]$/m, 'and on every non-resource URL');
    const review = { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectRulesReview', spec: {} };
    const missing = await server.request('/apis/authorization.k8s.io/v1/selfsubjectrulesreviews', { method: 'POST', body: review });
    assert.equal(missing.status, 400);
    assert.equal(JSON.parse(missing.bytes.toString('utf8')).message, 'no namespace on request');
  });

  it('answers auth whoami with the admin identity', () => {
    const out = ok(['auth', 'whoami', '-o', 'json']);
    const review = JSON.parse(out);
    assert.equal(review.kind, 'SelfSubjectReview');
    assert.ok(review.status.userInfo.groups.includes('system:masters'));
  });
});

const oldestClient = pinnedKubectl(27);

describe('kubectl 1.27 against capstan', { skip: oldestClient === undefined && 'kubectl 1.27 is not installed' }, () => {
  let server: TestServer;
  const ok = (args: string[], input?: string): string => {
    const r = server.kubectl(args, { client: oldestClient, ...(input === undefined ? {} : { input }) });
    assert.equal(r.code, 0, `kubectl 1.27 ${args.join(' ')} failed:\n${r.stderr}\n${r.stdout}`);
    return r.stdout;
  };

  before(async () => {
    server = await startServer();
  });
  after(async () => server?.stop());

  it('applies a Deployment twice with client-side apply, merging containers by name', () => {
    // Client-side apply finds each field's patch strategy in the Protobuf form of /openapi/v2.
    const deployment = (image: string) => [
      'apiVersion: apps/v1', 'kind: Deployment', 'metadata: {name: web, namespace: default}', 'spec:',
      '  selector: {matchLabels: {app: web}}', '  template:', '    metadata: {labels: {app: web}}', '    spec:',
      '      containers:', `      - {name: app, image: ${image}}`, '      - {name: sidecar, image: busybox}', '',
    ].join('\n');
    assert.match(ok(['apply', '-f', '-'], deployment('nginx:1')), /deployment.apps\/web created/);
    assert.match(ok(['apply', '-f', '-'], deployment('nginx:2')), /deployment.apps\/web configured/);
    const images = ok(['get', 'deployment', 'web', '-o', 'jsonpath={.spec.template.spec.containers[*].image}']);
    assert.equal(images, 'nginx:2 busybox');
  });
});
