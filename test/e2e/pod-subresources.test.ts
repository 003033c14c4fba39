/**
 * The subresources that bind a pod to a node or reach past the API server to a kubelet or a pod,
 * against the real server: pods/binding and the bindings collection, pods/log, exec, attach,
 * portforward and the pod, node and service proxies. With no kubelets and no network to pods,
 * each answers as upstream does up to where upstream would connect, and then as upstream answers a
 * connection that fails. Also kubectl logs and exec on a pod no node runs yet.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { pinnedKubectl, startServer, type HttpResponse, type TestServer } from './harness.js';

const NS = '/api/v1/namespaces/podsub';
const MERGE = { 'Content-Type': 'application/merge-patch+json' };
const UPGRADE = { Connection: 'Upgrade', Upgrade: 'SPDY/3.1' };
const UNREACHABLE_KUBELET = 'dial tcp 10.0.0.5:10250: connect: network is unreachable';

const pod = (name: string, extra: { containers?: string[]; spec?: Record<string, unknown>; metadata?: Record<string, unknown> } = {}) => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name, ...extra.metadata },
  spec: { containers: (extra.containers ?? ['c']).map((c) => ({ name: c, image: 'nginx', ports: [{ containerPort: 8080 }] })), ...extra.spec },
});
const binding = (name: string, target: Record<string, unknown> = { kind: 'Node', name: 'node-1' }, metadata: Record<string, unknown> = {}) => ({
  apiVersion: 'v1', kind: 'Binding', metadata: { name, ...metadata }, target,
});
const SUCCESS = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 };

/** The Status of a failed request: its code, reason and message, checked together. */
function assertStatus(res: HttpResponse, code: number, message: string, reason?: string): void {
  assert.equal(res.status, code, res.body);
  const status = res.json();
  assert.equal(status.kind, 'Status');
  assert.equal(status.message, message);
  assert.equal(status.reason, reason);
}

describe('pod subresources', () => {
  let server: TestServer;
  const send = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
    server.request(path, { method, ...(body !== undefined ? { body } : {}), ...(headers ? { headers } : {}) });
  const created = async (path: string, body: unknown) => {
    const res = await send('POST', path, body);
    assert.equal(res.status, 201, res.body);
    return res.json();
  };

  before(async () => {
    server = await startServer();
    await created('/api/v1/namespaces', { metadata: { name: 'podsub' } });
    // A node whose kubelet would be dialled at its InternalIP and the default port.
    await created('/api/v1/nodes', { metadata: { name: 'node-1' } });
    const addressed = await send('PATCH', '/api/v1/nodes/node-1/status', { status: { addresses: [{ type: 'InternalIP', address: '10.0.0.5' }] } }, MERGE);
    assert.equal(addressed.status, 200, addressed.body);
    await created('/api/v1/nodes', { metadata: { name: 'bare' } });
    await created(`${NS}/pods`, pod('running', { spec: { nodeName: 'node-1' } }));
    await created(`${NS}/pods`, pod('pending'));
  });
  after(async () => server?.stop());

  describe('binding', () => {
    it('binds a pod: nodeName, merged annotations and labels, PodScheduled, a success Status', async () => {
      await created(`${NS}/pods`, pod('bind-me', { metadata: { annotations: { keep: 'a' }, labels: { app: 'x' } } }));
      const nominated = await send('PATCH', `${NS}/pods/bind-me/status`, { status: { nominatedNodeName: 'node-1' } }, MERGE);
      assert.equal(nominated.status, 200, nominated.body);
      const before = (await send('GET', `${NS}/pods/bind-me`)).json();

      const res = await send('POST', `${NS}/pods/bind-me/binding`, binding('bind-me', { kind: 'Node', name: 'node-1' }, { annotations: { added: 'b' }, labels: { zone: 'z1' } }));
      assert.equal(res.status, 201, res.body);
      assert.deepEqual(res.json(), SUCCESS);

      const bound = (await send('GET', `${NS}/pods/bind-me`)).json();
      assert.equal(bound.spec.nodeName, 'node-1');
      assert.deepEqual(bound.metadata.annotations, { keep: 'a', added: 'b' });
      assert.deepEqual(bound.metadata.labels, { app: 'x', zone: 'z1' });
      assert.equal(bound.status.nominatedNodeName, undefined, 'a stale nomination is cleared');
      const scheduled = bound.status.conditions.find((c: { type: string }) => c.type === 'PodScheduled');
      assert.equal(scheduled.status, 'True');
      assert.match(scheduled.lastTransitionTime, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      assert.equal(bound.metadata.generation, before.metadata.generation, 'the binding is not a spec change of the user');
      assert.notEqual(bound.metadata.resourceVersion, before.metadata.resourceVersion);
    });

    it('binds through the bindings collection, the pod named by the Binding', async () => {
      await created(`${NS}/pods`, pod('legacy'));
      const res = await send('POST', `${NS}/bindings`, binding('legacy', { name: 'node-1' }));
      assert.equal(res.status, 201, res.body);
      assert.deepEqual(res.json(), SUCCESS);
      assert.equal((await send('GET', `${NS}/pods/legacy`)).json().spec.nodeName, 'node-1');
      assertStatus(await send('POST', `${NS}/bindings`, binding('', { name: 'node-1' })), 400, 'Name parameter required.', 'BadRequest');
    });

    it('writes nothing on a dry run', async () => {
      await created(`${NS}/pods`, pod('dry'));
      const res = await send('POST', `${NS}/pods/dry/binding?dryRun=All`, binding('dry'));
      assert.equal(res.status, 201, res.body);
      assert.deepEqual(res.json(), SUCCESS);
      assert.equal((await send('GET', `${NS}/pods/dry`)).json().spec.nodeName, undefined);
    });

    it('refuses a pod already assigned, being deleted or held by scheduling gates (409 on pods/binding)', async () => {
      const assigned = await send('POST', `${NS}/pods/running/binding`, binding('running', { name: 'node-2' }));
      assertStatus(assigned, 409, 'Operation cannot be fulfilled on pods/binding "running": pod running is already assigned to node "node-1"', 'Conflict');
      assert.deepEqual(assigned.json().details, { name: 'running', kind: 'pods/binding' });

      await created(`${NS}/pods`, pod('going', { metadata: { finalizers: ['example.com/hold'] } }));
      assert.equal((await send('DELETE', `${NS}/pods/going`)).status, 200);
      assertStatus(
        await send('POST', `${NS}/pods/going/binding`, binding('going')),
        409, 'Operation cannot be fulfilled on pods/binding "going": pod going is being deleted, cannot be assigned to a host', 'Conflict',
      );

      await created(`${NS}/pods`, pod('gated', { spec: { schedulingGates: [{ name: 'example.com/wait' }] } }));
      assertStatus(
        await send('POST', `${NS}/pods/gated/binding`, binding('gated')),
        409, 'Operation cannot be fulfilled on pods/binding "gated": pod gated has non-empty .spec.schedulingGates', 'Conflict',
      );
    });

    it("takes the Binding's uid and resourceVersion as preconditions", async () => {
      const target = await created(`${NS}/pods`, pod('precond'));
      const { uid, resourceVersion } = target.metadata;
      const key = '/registry/pods/podsub/precond';
      assertStatus(
        await send('POST', `${NS}/pods/precond/binding`, binding('precond', undefined, { uid: 'other-uid' })),
        409,
        `Operation cannot be fulfilled on pods "precond": StorageError: invalid object, Code: 4, Key: ${key}, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: other-uid, UID in object meta: ${uid}`,
        'Conflict',
      );
      assertStatus(
        await send('POST', `${NS}/pods/precond/binding`, binding('precond', undefined, { uid, resourceVersion: '1' })),
        409,
        `Operation cannot be fulfilled on pods "precond": StorageError: invalid object, Code: 4, Key: ${key}, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: ResourceVersion in precondition: 1, ResourceVersion in object meta: ${resourceVersion}`,
        'Conflict',
      );
      const res = await send('POST', `${NS}/pods/precond/binding`, binding('precond', undefined, { uid, resourceVersion }));
      assert.equal(res.status, 201, res.body);
    });

    it('answers 404 for a missing pod or namespace', async () => {
      assertStatus(await send('POST', `${NS}/pods/ghost/binding`, binding('ghost')), 404, 'pods "ghost" not found', 'NotFound');
      assertStatus(await send('POST', '/api/v1/namespaces/nowhere/pods/p/binding', binding('p')), 404, 'namespaces "nowhere" not found', 'NotFound');
    });

    it('refuses bad Bindings with upstream\'s codes and words', async () => {
      const path = `${NS}/pods/pending/binding`;
      assertStatus(await send('POST', path, binding('other')), 400, 'name in URL does not match name in Binding object', 'BadRequest');
      assertStatus(
        await send('POST', path, binding('pending', undefined, { namespace: 'elsewhere' })),
        400, 'the namespace of the provided object does not match the namespace sent on the request', 'BadRequest',
      );
      const malformed = await send('POST', path, '{"kind": "Binding",');
      assert.equal(malformed.status, 400, malformed.body);
      assert.equal(malformed.json().reason, 'BadRequest');
      const wrongKind = await send('POST', path, { ...binding('pending'), kind: 'Pod' });
      assert.equal(wrongKind.status, 400, wrongKind.body);
      assert.match(wrongKind.json().message, /Pod in version "v1" cannot be handled as a Binding/);
      // ValidatePodBinding's errors leave upstream's BindingREST as a plain error: 500, no reason.
      assertStatus(await send('POST', path, binding('pending', { kind: 'Pod', name: 'node-1' })), 500, 'target.kind: Unsupported value: "Pod": supported values: "Node", "<empty>"');
      assertStatus(await send('POST', path, binding('pending', {})), 500, 'target.name: Required value');
      assertStatus(
        await send('POST', path, binding('pending', { kind: 'Service' })),
        500, '[target.kind: Unsupported value: "Service": supported values: "Node", "<empty>", target.name: Required value]',
      );
      assert.equal((await send('GET', `${NS}/pods/pending`)).json().spec.nodeName, undefined, 'nothing was bound');
      const get = await send('GET', path);
      assertStatus(get, 405, 'get is not supported on resources of kind "pods/binding"', 'MethodNotAllowed');
    });
  });

  describe('log', () => {
    it('answers 204 without a body for a pod no node runs yet', async () => {
      const res = await send('GET', `${NS}/pods/pending/log`);
      assert.equal(res.status, 204);
      assert.equal(res.body, '');
    });

    it('validates the options before looking at the pod (400 unparsable, 422 invalid)', async () => {
      const log = (query: string, name = 'ghost') => send('GET', `${NS}/pods/${name}/log?${query}`);
      assertStatus(await log('tailLines=abc'), 400, 'strconv.ParseInt: parsing "abc": invalid syntax', 'BadRequest');
      assertStatus(await log('sinceTime=yesterday'), 400, 'parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"', 'BadRequest');
      assertStatus(await log('tailLines=-1'), 422, 'PodLogOptions "ghost" is invalid: tailLines: Invalid value: -1: must be greater than or equal to 0', 'Invalid');
      assertStatus(await log('limitBytes=0'), 422, 'PodLogOptions "ghost" is invalid: limitBytes: Invalid value: 0: must be greater than 0', 'Invalid');
      assertStatus(await log('sinceSeconds=-5'), 422, 'PodLogOptions "ghost" is invalid: sinceSeconds: Invalid value: -5: must be greater than 0', 'Invalid');
      assertStatus(
        await log('sinceSeconds=5&sinceTime=2024-01-01T00:00:00Z'),
        422, 'PodLogOptions "ghost" is invalid: : Forbidden: at most one of `sinceTime` or `sinceSeconds` may be specified', 'Invalid',
      );
      assertStatus(await log('stream=Stdout'), 422, 'PodLogOptions "ghost" is invalid: stream: Forbidden: may not be specified', 'Invalid');
      assertStatus(
        await log('tailLines=-1&limitBytes=-1'),
        422, 'PodLogOptions "ghost" is invalid: [tailLines: Invalid value: -1: must be greater than or equal to 0, limitBytes: Invalid value: -1: must be greater than 0]', 'Invalid',
      );
      assertStatus(await log('tailLines=10'), 404, 'pods "ghost" not found', 'NotFound');
    });

    it('checks the container', async () => {
      await created(`${NS}/pods`, pod('multi', { containers: ['a', 'b'], spec: { initContainers: [{ name: 'setup', image: 'busybox' }] } }));
      assertStatus(await send('GET', `${NS}/pods/multi/log`), 400, 'a container name must be specified for pod multi, choose one of: [setup a b]', 'BadRequest');
      assertStatus(await send('GET', `${NS}/pods/multi/log?container=nope`), 400, 'container nope is not valid for pod multi', 'BadRequest');
      assert.equal((await send('GET', `${NS}/pods/multi/log?container=setup`)).status, 204, 'an init container is a valid choice');
    });

    it("reports the node's kubelet as unreachable, as a failed fetch of its log", async () => {
      assertStatus(
        await send('GET', `${NS}/pods/running/log?tailLines=5&follow=true`),
        500, `Get "https://10.0.0.5:10250/containerLogs/podsub/running/c?follow=true&tailLines=5": ${UNREACHABLE_KUBELET}`,
      );
    });

    it('needs the node and an address of it', async () => {
      await created(`${NS}/pods`, pod('orphan', { spec: { nodeName: 'gone' } }));
      assertStatus(await send('GET', `${NS}/pods/orphan/log`), 404, 'nodes "gone" not found', 'NotFound');
      await created(`${NS}/pods`, pod('on-bare', { spec: { nodeName: 'bare' } }));
      assertStatus(await send('GET', `${NS}/pods/on-bare/log`), 500, 'no preferred addresses found; known addresses: []');
    });
  });

  describe('exec, attach, portforward', () => {
    for (const sub of ['exec', 'attach', 'portforward']) {
      it(`${sub}: a pod needs a host, dry runs are refused`, async () => {
        const query = sub === 'exec' ? '?command=ls&stdout=true' : '';
        for (const method of ['GET', 'POST']) {
          assertStatus(await send(method, `${NS}/pods/pending/${sub}${query}`), 400, 'pod pending does not have a host assigned', 'BadRequest');
        }
        assertStatus(await send('POST', `${NS}/pods/pending/${sub}?dryRun=All`), 400, 'dryRun is not supported', 'BadRequest');
        assertStatus(await send('POST', `${NS}/pods/ghost/${sub}`), 404, 'pods "ghost" not found', 'NotFound');
      });

      it(`${sub}: upgrades only, and the kubelet cannot be dialled`, async () => {
        assertStatus(await send('POST', `${NS}/pods/running/${sub}`), 400, 'Upgrade request required', 'BadRequest');
        assertStatus(await send('POST', `${NS}/pods/running/${sub}`, undefined, UPGRADE), 500, `error dialing backend: ${UNREACHABLE_KUBELET}`);
      });
    }

    it('exec and attach check the container; portforward its ports', async () => {
      assertStatus(await send('POST', `${NS}/pods/multi/exec?command=ls`), 400, 'a container name must be specified for pod multi, choose one of: [setup a b]', 'BadRequest');
      assertStatus(await send('POST', `${NS}/pods/running/attach?container=x`), 400, 'container x is not valid for pod running', 'BadRequest');
      assertStatus(
        await send('POST', `${NS}/pods/running/portforward?ports=80,http`),
        400, 'cannot convert to []int32: strconv.ParseUint: parsing "http": invalid syntax', 'BadRequest',
      );
      assertStatus(await send('POST', `${NS}/pods/multi/portforward?ports=80`), 400, 'pod multi does not have a host assigned', 'BadRequest');
    });
  });

  describe('proxy', () => {
    it('pods/proxy: the pod IP and port, a redirect of the bare path, then an unreachable pod', async () => {
      assertStatus(await send('GET', `${NS}/pods/pending/proxy/`), 400, 'address not allowed', 'BadRequest');
      assertStatus(await send('GET', `${NS}/pods/a:b:c:d/proxy/`), 400, 'invalid pod request "a:b:c:d"', 'BadRequest');
      assertStatus(await send('GET', `${NS}/pods/ghost/proxy/`), 404, 'pods "ghost" not found', 'NotFound');
      const ip = await send('PATCH', `${NS}/pods/running/status`, { status: { podIP: '10.1.2.3', podIPs: [{ ip: '10.1.2.3' }] } }, MERGE);
      assert.equal(ip.status, 200, ip.body);
      const bare = await send('GET', `${NS}/pods/running/proxy?x=1`);
      assert.equal(bare.status, 301);
      assert.equal(bare.headers['location'], `${NS}/pods/running/proxy/?x=1`);
      const unreachable = 'error trying to reach service: dial tcp 10.1.2.3:8080: connect: network is unreachable';
      assertStatus(await send('GET', `${NS}/pods/running/proxy/healthz`), 503, unreachable, 'ServiceUnavailable');
      assertStatus(await send('PUT', `${NS}/pods/https:running:9443/proxy/x`, {}), 503, unreachable.replace('8080', '9443'), 'ServiceUnavailable');
      assertStatus(await send('GET', `${NS}/pods/running/proxy/ws`, undefined, UPGRADE), 500, 'error dialing backend: dial tcp 10.1.2.3:8080: connect: network is unreachable');
      assertStatus(await send('GET', `${NS}/pods/running/proxy/?dryRun=All`), 400, 'dryRun is not supported', 'BadRequest');
    });

    it("nodes/proxy: the node's kubelet", async () => {
      assertStatus(await send('GET', '/api/v1/nodes/node-1/proxy/metrics'), 503, `error trying to reach service: ${UNREACHABLE_KUBELET}`, 'ServiceUnavailable');
      assertStatus(
        await send('GET', '/api/v1/nodes/node-1:4194/proxy/'),
        503, 'error trying to reach service: dial tcp 10.0.0.5:4194: connect: network is unreachable', 'ServiceUnavailable',
      );
      assertStatus(await send('GET', '/api/v1/nodes/bare/proxy/'), 500, 'no preferred addresses found; known addresses: []');
      assertStatus(await send('GET', '/api/v1/nodes/gone/proxy/'), 404, 'nodes "gone" not found', 'NotFound');
    });

    it('services/proxy: endpoints backed by pods, else 503', async () => {
      await created(`${NS}/services`, { metadata: { name: 'web' }, spec: { selector: { app: 'web' }, ports: [{ name: 'http', port: 80, targetPort: 8080 }] } });
      assertStatus(await send('GET', `${NS}/services/web/proxy/`), 404, 'endpoints "web" not found', 'NotFound');
      assertStatus(await send('GET', `${NS}/services/web:99/proxy/`), 503, 'no service port 99 found for service "web"', 'ServiceUnavailable');
      await created(`${NS}/endpoints`, { metadata: { name: 'web' } });
      assertStatus(await send('GET', `${NS}/services/web/proxy/`), 503, 'no endpoints available for service "web"', 'ServiceUnavailable');
      const subsets = [{ addresses: [{ ip: '10.1.2.3', targetRef: { kind: 'Pod', namespace: 'podsub', name: 'running' } }], ports: [{ name: 'http', port: 8080 }] }];
      assert.equal((await send('PATCH', `${NS}/endpoints/web`, { subsets }, MERGE)).status, 200);
      assertStatus(await send('GET', `${NS}/services/web/proxy/`), 503, 'no endpoints available for service "web"', 'ServiceUnavailable');
      assertStatus(
        await send('GET', `${NS}/services/web:80/proxy/index.html`),
        503, 'error trying to reach service: dial tcp 10.1.2.3:8080: connect: network is unreachable', 'ServiceUnavailable',
      );
      assertStatus(await send('GET', `${NS}/services/web:http/proxy/`), 503, 'error trying to reach service: dial tcp 10.1.2.3:8080: connect: network is unreachable', 'ServiceUnavailable');
    });
  });

  it('serves every advertised subresource', async () => {
    const discovery = (await send('GET', '/api/v1')).json();
    const names = discovery.resources.map((r: { name: string }) => r.name);
    for (const name of ['bindings', 'pods/binding', 'pods/log', 'pods/exec', 'pods/attach', 'pods/portforward', 'pods/proxy', 'nodes/proxy', 'services/proxy']) {
      assert.ok(names.includes(name), `${name} is advertised`);
    }
    const probes: [string, string][] = [
      ['GET', `${NS}/pods/pending/log`], ['POST', `${NS}/pods/pending/exec`], ['GET', `${NS}/pods/pending/attach`],
      ['POST', `${NS}/pods/pending/portforward`], ['GET', `${NS}/pods/pending/proxy/`], ['GET', '/api/v1/nodes/node-1/proxy/'],
      ['GET', `${NS}/services/web/proxy/`], ['GET', `${NS}/pods/pending/resize`],
    ];
    for (const [method, path] of probes) {
      const res = await send(method, path);
      assert.doesNotMatch(res.body, /not implemented by this server yet/, `${method} ${path}`);
    }
    // The last one to be served (test/e2e/service-account-tokens.test.ts): none is left at 405.
    const token = await send('POST', `${NS}/serviceaccounts/default/token`, {});
    assert.equal(token.status, 201, token.body);
  });

  describe('kubectl', { skip: pinnedKubectl() === undefined }, () => {
    it('kubectl logs prints nothing for a pod no node runs, as upstream answers 204', () => {
      const r = server.kubectl(['-n', 'podsub', 'logs', 'pending']);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, '');
    });

    it("kubectl exec prints upstream's error for a pod without a host", () => {
      const r = server.kubectl(['-n', 'podsub', 'exec', 'pending', '--', 'ls']);
      assert.notEqual(r.code, 0);
      assert.match(r.stderr, /Error from server \(BadRequest\): pod pending does not have a host assigned/);
    });
  });
});
