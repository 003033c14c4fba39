/**
 * The pods/ephemeralcontainers subresource against the real server: the one way to add ephemeral
 * containers (what `kubectl debug` does), which changes nothing else of the pod and never changes or
 * removes an ephemeral container once added.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { pinnedKubectl, startServer, type TestServer } from './harness.js';

const PODS = '/api/v1/namespaces/default/pods';
const SMP = { 'Content-Type': 'application/strategic-merge-patch+json' };

describe('pods/ephemeralcontainers', () => {
  let server: TestServer;
  const send = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
    server.request(path, { method, ...(body !== undefined ? { body } : {}), ...(headers ? { headers } : {}) });
  const addEphemeral = (pod: string, container: Record<string, unknown>) =>
    send('PATCH', `${PODS}/${pod}/ephemeralcontainers`, { spec: { ephemeralContainers: [container] } }, SMP);

  before(async () => {
    server = await startServer();
    const created = await send('POST', PODS, { metadata: { name: 'app', labels: { a: '1' } }, spec: { containers: [{ name: 'main', image: 'nginx:1.27' }] } });
    assert.equal(created.status, 201, created.body);
  });
  after(async () => server?.stop());

  it('may not be set when a pod is created', async () => {
    const refused = await send('POST', PODS, {
      metadata: { name: 'eager' },
      spec: { containers: [{ name: 'main', image: 'nginx' }], ephemeralContainers: [{ name: 'debug', image: 'busybox' }] },
    });
    assert.equal(refused.status, 422, refused.body);
    assert.equal(refused.json().message, 'Pod "eager" is invalid: spec.ephemeralContainers: Forbidden: cannot be set on create');
  });

  it('adds a defaulted ephemeral container and changes nothing else', async () => {
    const patched = await send(
      'PATCH',
      `${PODS}/app/ephemeralcontainers`,
      { metadata: { labels: { a: '2' } }, spec: { containers: [{ name: 'main', image: 'nginx:1.28' }], ephemeralContainers: [{ name: 'debug', image: 'busybox', targetContainerName: 'main', stdin: true, tty: true }] } },
      SMP,
    );
    assert.equal(patched.status, 200, patched.body);
    const pod = patched.json();
    assert.equal(pod.kind, 'Pod');
    assert.equal(pod.spec.ephemeralContainers.length, 1);
    const { name, image, targetContainerName, imagePullPolicy, terminationMessagePath, terminationMessagePolicy } = pod.spec.ephemeralContainers[0];
    assert.deepEqual(
      { name, image, targetContainerName, imagePullPolicy, terminationMessagePath, terminationMessagePolicy },
      { name: 'debug', image: 'busybox', targetContainerName: 'main', imagePullPolicy: 'Always', terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File' },
      'defaulted as any container',
    );
    assert.equal(pod.spec.containers[0].image, 'nginx:1.27', 'the rest of the spec is kept');
    assert.equal(pod.metadata.labels.a, '1', 'and so is metadata');
    assert.equal(pod.metadata.generation, 2, 'a spec change counts');
    const read = await send('GET', `${PODS}/app/ephemeralcontainers`);
    assert.equal(read.status, 200);
    assert.equal(read.json().spec.ephemeralContainers[0].name, 'debug');
  });

  it('never changes or removes one once added', async () => {
    const pod = (await send('GET', `${PODS}/app`)).json();
    const changed = structuredClone(pod);
    changed.spec.ephemeralContainers[0].image = 'alpine';
    const change = await send('PUT', `${PODS}/app/ephemeralcontainers`, changed);
    assert.equal(change.status, 422, change.body);
    assert.match(change.json().message, /spec\.ephemeralContainers: Forbidden: existing ephemeral containers "debug" may not be changed/);
    const removed = structuredClone(pod);
    removed.spec.ephemeralContainers = [];
    const remove = await send('PUT', `${PODS}/app/ephemeralcontainers`, removed);
    assert.equal(remove.status, 422, remove.body);
    assert.match(remove.json().message, /existing ephemeral containers "debug" may not be removed/);
    const mainUpdate = structuredClone(pod);
    mainUpdate.spec.ephemeralContainers.push({ name: 'sneaky', image: 'busybox' });
    assert.equal((await send('PUT', `${PODS}/app`, mainUpdate)).status, 422, 'the main resource cannot add them');
  });

  it('refuses what an ephemeral container may not have', async () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ name: 'main', image: 'busybox' }, /spec\.ephemeralContainers\[\d\]\.name: Duplicate value: "main"/],
      [{ name: 'no-image' }, /spec\.ephemeralContainers\[\d\]\.image: Required value/],
      [{ name: 'aim', image: 'busybox', targetContainerName: 'nope' }, /spec\.ephemeralContainers\[\d\]\.targetContainerName: Not found: "nope"/],
      [{ name: 'ported', image: 'busybox', ports: [{ containerPort: 80 }] }, /spec\.ephemeralContainers\[\d\]\.ports: Forbidden: cannot be set for an Ephemeral Container/],
      [{ name: 'probed', image: 'busybox', readinessProbe: { exec: { command: ['true'] } } }, /readinessProbe: Forbidden: cannot be set for an Ephemeral Container/],
      [{ name: 'sized', image: 'busybox', resources: { limits: { cpu: '1' } } }, /resources: Forbidden: cannot be set for an Ephemeral Container/],
      [{ name: 'Bad_Name', image: 'busybox' }, /spec\.ephemeralContainers\[\d\]\.name: Invalid value: "Bad_Name"/],
    ];
    for (const [container, message] of cases) {
      const refused = await addEphemeral('app', container);
      assert.equal(refused.status, 422, refused.body);
      assert.match(refused.json().message, message);
    }
    assert.equal((await send('GET', `${PODS}/app`)).json().spec.ephemeralContainers.length, 1);
  });

  it('answers 404 for a pod that does not exist', async () => {
    const missing = await addEphemeral('absent', { name: 'debug', image: 'busybox' });
    assert.equal(missing.status, 404, missing.body);
  });

  it('is what kubectl debug writes', { skip: pinnedKubectl() === undefined && 'kubectl is not installed' }, async () => {
    const debug = spawnSync(pinnedKubectl()!, ['--kubeconfig', server.kubeconfig, 'debug', 'app', '--image=busybox', '--container=kubectl-debug', '--', 'sleep', '1'], {
      encoding: 'utf8',
    });
    assert.equal(debug.status, 0, debug.stderr);
    const names = (await send('GET', `${PODS}/app`)).json().spec.ephemeralContainers.map((c: { name: string }) => c.name);
    assert.deepEqual(names, ['debug', 'kubectl-debug']);
  });
});
