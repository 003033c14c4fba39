/**
 * The pods/resize subresource against the real server: the in-place change of a pod's cpu and
 * memory (what `kubectl patch pod P --subresource resize` writes), which changes nothing else of
 * the pod and refuses what Kubernetes 1.35 refuses, with its messages.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { pinnedKubectl, startServer, type TestServer } from './harness.js';

const PODS = '/api/v1/namespaces/default/pods';
const SMP = { 'Content-Type': 'application/strategic-merge-patch+json' };

const requirements = (cpu: string, memory: string, cpuLimit: string, memoryLimit: string) => ({
  requests: { cpu, memory },
  limits: { cpu: cpuLimit, memory: memoryLimit },
});

describe('pods/resize', () => {
  let server: TestServer;
  const send = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
    server.request(path, { method, ...(body !== undefined ? { body } : {}), ...(headers ? { headers } : {}) });
  const resize = (pod: string, resources: Record<string, unknown>, container = 'c') =>
    send('PATCH', `${PODS}/${pod}/resize`, { spec: { containers: [{ name: container, resources }] } }, SMP);
  const stored = async (pod: string) => (await send('GET', `${PODS}/${pod}`)).json();
  const create = async (name: string, resources: Record<string, unknown>) => {
    const created = await send('POST', PODS, { metadata: { name, labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx:1.27', resources }] } });
    assert.equal(created.status, 201, created.body);
  };

  before(async () => {
    server = await startServer();
    await create('web', requirements('100m', '64Mi', '200m', '128Mi'));
    await create('sure', { limits: { cpu: '500m', memory: '256Mi' } });
  });
  after(async () => server?.stop());

  it('GET answers the pod', async () => {
    const read = await send('GET', `${PODS}/web/resize`);
    assert.equal(read.status, 200, read.body);
    assert.equal(read.json().kind, 'Pod');
    assert.equal(read.json().spec.containers[0].resources.limits.cpu, '200m');
  });

  it('a strategic merge patch, as kubectl sends it, resizes requests and limits and ignores the rest', async () => {
    const patched = await send(
      'PATCH',
      `${PODS}/web/resize`,
      {
        metadata: { labels: { app: 'other' } },
        spec: { containers: [{ name: 'c', image: 'nginx:1.28', resources: requirements('150m', '96Mi', '300m', '192Mi') }], activeDeadlineSeconds: 5 },
      },
      SMP,
    );
    assert.equal(patched.status, 200, patched.body);
    const pod = patched.json();
    assert.deepEqual(pod.spec.containers[0].resources, requirements('150m', '96Mi', '300m', '192Mi'));
    assert.equal(pod.spec.containers[0].image, 'nginx:1.27', 'the image is not the resize subresource’s to change');
    assert.equal(pod.spec.activeDeadlineSeconds, undefined);
    assert.equal(pod.metadata.labels.app, 'web', 'nor is metadata');
    assert.equal(pod.metadata.generation, 2, 'a resize changes the spec, so it counts');
    assert.equal(pod.status.qosClass, 'Burstable');
    assert.deepEqual((await stored('web')).spec.containers[0].resources, pod.spec.containers[0].resources);
  });

  it('PUT resizes too, keeping everything but resources and resizePolicy', async () => {
    const pod = await stored('web');
    pod.spec.containers[0].resources = requirements('120m', '80Mi', '250m', '160Mi');
    pod.spec.containers[0].image = 'busybox';
    pod.metadata.annotations = { note: 'x' };
    pod.status.phase = 'Running';
    const put = await send('PUT', `${PODS}/web/resize`, pod);
    assert.equal(put.status, 200, put.body);
    const after = put.json();
    assert.deepEqual(after.spec.containers[0].resources, requirements('120m', '80Mi', '250m', '160Mi'));
    assert.equal(after.spec.containers[0].image, 'nginx:1.27');
    assert.equal(after.metadata.annotations, undefined);
    assert.equal(after.status.phase, 'Pending');
    assert.equal(after.metadata.generation, 3);
  });

  it('a write that changes no resource keeps the generation', async () => {
    const same = await resize('web', requirements('120m', '80Mi', '250m', '160Mi'));
    assert.equal(same.status, 200, same.body);
    assert.equal(same.json().metadata.generation, 3);
  });

  it('lowers a memory limit whatever the resizePolicy (since 1.34 the kubelet decides)', async () => {
    const lowered = await resize('web', { limits: { memory: '100Mi' } });
    assert.equal(lowered.status, 200, lowered.body);
    assert.equal(lowered.json().spec.containers[0].resources.limits.memory, '100Mi');
  });

  it('dry run answers the resized pod and stores nothing', async () => {
    const dry = await send('PATCH', `${PODS}/web/resize?dryRun=All`, { spec: { containers: [{ name: 'c', resources: { requests: { cpu: '50m' } } }] } }, SMP);
    assert.equal(dry.status, 200, dry.body);
    assert.equal(dry.json().spec.containers[0].resources.requests.cpu, '50m');
    assert.equal((await stored('web')).spec.containers[0].resources.requests.cpu, '120m');
  });

  it('refuses a change of the QoS class', async () => {
    const refused = await resize('sure', { requests: { cpu: '250m' } });
    assert.equal(refused.status, 422, refused.body);
    assert.equal(refused.json().message, 'Pod "sure" is invalid: spec: Invalid value: "Guaranteed": Pod QOS Class may not change as a result of resizing');
    assert.equal((await resize('sure', requirements('1', '512Mi', '1', '512Mi'))).status, 200, 'a Guaranteed pod stays Guaranteed');
  });

  it('refuses to change any resource but cpu and memory', async () => {
    const refused = await resize('web', { limits: { 'ephemeral-storage': '1Gi' } });
    assert.equal(refused.status, 422, refused.body);
    assert.equal(refused.json().message, 'Pod "web" is invalid: spec: Forbidden: only cpu and memory resources are mutable');
  });

  it('refuses to remove a request or a limit', async () => {
    const refused = await resize('web', { limits: { cpu: null } });
    assert.equal(refused.status, 422, refused.body);
    assert.equal(refused.json().message, 'Pod "web" is invalid: spec.containers[0].resources.limits: Forbidden: resource limits cannot be removed');
  });

  it('refuses a request above its limit', async () => {
    const refused = await resize('web', { requests: { cpu: '400m' } });
    assert.equal(refused.status, 422, refused.body);
    assert.equal(refused.json().message, 'Pod "web" is invalid: spec.containers[0].resources.requests: Invalid value: "400m": must be less than or equal to cpu limit of 250m');
  });

  it('refuses a container name that does not exist, and a renamed container', async () => {
    const unknown = await resize('web', { requests: { cpu: '110m' } }, 'nope');
    assert.equal(unknown.status, 422, unknown.body);
    assert.match(unknown.json().message, /spec\.containers: Forbidden: containers may not be added or removed on resize/);
    const pod = await stored('web');
    pod.spec.containers[0].name = 'renamed';
    const renamed = await send('PUT', `${PODS}/web/resize`, pod);
    assert.equal(renamed.status, 422, renamed.body);
    assert.equal(renamed.json().message, 'Pod "web" is invalid: spec.containers[0].name: Forbidden: containers may not be renamed or reordered on resize');
  });

  it('answers 400 for a malformed body and 404 for a pod that does not exist', async () => {
    const malformed = await send('PATCH', `${PODS}/web/resize`, '{"spec": {', SMP);
    assert.equal(malformed.status, 400, malformed.body);
    assert.equal(malformed.json().reason, 'BadRequest');
    const badPut = await send('PUT', `${PODS}/web/resize`, '{"kind": "Pod",');
    assert.equal(badPut.status, 400, badPut.body);
    assert.equal((await resize('absent', { requests: { cpu: '1' } })).status, 404);
  });

  it('is what kubectl patch --subresource resize writes', { skip: pinnedKubectl() === undefined && 'kubectl is not installed' }, async () => {
    const patch = '{"spec":{"containers":[{"name":"c","resources":{"requests":{"cpu":"130m"}}}]}}';
    const run = spawnSync(pinnedKubectl()!, ['--kubeconfig', server.kubeconfig, 'patch', 'pod', 'web', '--subresource', 'resize', '-p', patch], { encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /pod\/web patched/);
    assert.equal((await stored('web')).spec.containers[0].resources.requests.cpu, '130m');
  });
});
