/**
 * The type rules users rely on, against the real server: status and spec kept apart, generation,
 * immutable ConfigMaps, Service address and port allocation, the scale subresource's selector,
 * generated names and their per-type prefix rule, per-type field selectors, watches of one object
 * and with a timeout, graceful deletion of scheduled pods.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from './harness.js';

const NS = '/api/v1/namespaces/rules';
const DEPLOYMENTS = '/apis/apps/v1/namespaces/rules/deployments';

const deployment = (name: string, image = 'nginx') => ({
  apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name },
  spec: { selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image }] } } },
});

describe('type rules', () => {
  let server: TestServer;
  const send = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
    server.request(path, { method, ...(body !== undefined ? { body } : {}), ...(headers ? { headers } : {}) });

  before(async () => {
    server = await startServer(['--service-cluster-ip-range=10.96.0.0/24', '--service-node-port-range=31000-31010']);
    assert.equal((await send('POST', '/api/v1/namespaces', { metadata: { name: 'rules' } })).status, 201);
  });
  after(async () => server?.stop());

  it('keeps status and spec apart, and counts generation on spec changes only', async () => {
    const created = await send('POST', DEPLOYMENTS, { ...deployment('split'), status: { replicas: 7 } });
    assert.equal(created.status, 201);
    assert.deepEqual(created.json().status, {}, 'status is not set by a create');
    assert.equal(created.json().metadata.generation, 1);

    const withStatus = { ...created.json(), status: { replicas: 3, observedGeneration: 1 } };
    const statusPut = await send('PUT', `${DEPLOYMENTS}/split/status`, { ...withStatus, spec: { ...withStatus.spec, replicas: 9 } });
    assert.equal(statusPut.status, 200, statusPut.body);
    assert.equal(statusPut.json().status.replicas, 3, 'the status subresource writes status');
    assert.equal(statusPut.json().spec.replicas, 1, 'and nothing else');
    assert.equal(statusPut.json().metadata.generation, 1);

    const stored: any = statusPut.json();
    const mainPut = await send('PUT', `${DEPLOYMENTS}/split`, { ...stored, spec: { ...stored.spec, replicas: 4 }, status: { replicas: 99 } });
    assert.equal(mainPut.status, 200, mainPut.body);
    assert.equal(mainPut.json().spec.replicas, 4);
    assert.equal(mainPut.json().status.replicas, 3, 'the main resource ignores status');
    assert.equal(mainPut.json().metadata.generation, 2);

    const labelOnly = await send('PATCH', `${DEPLOYMENTS}/split`, { metadata: { labels: { a: 'b' } } }, { 'Content-Type': 'application/merge-patch+json' });
    assert.equal(labelOnly.json().metadata.generation, 2, 'metadata changes leave generation alone');
  });

  it('refuses changes to an immutable ConfigMap', async () => {
    const created = await send('POST', `${NS}/configmaps`, { metadata: { name: 'frozen' }, data: { a: '1' }, immutable: true });
    assert.equal(created.status, 201);
    const changed = await send('PATCH', `${NS}/configmaps/frozen`, { data: { a: '2' } }, { 'Content-Type': 'application/merge-patch+json' });
    assert.equal(changed.status, 422, changed.body);
    assert.match(changed.json().message, /field is immutable when `immutable` is set/);
  });

  it('allocates Service cluster IPs and node ports from the configured ranges, and frees them', async () => {
    const svc = (name: string, extra: Record<string, unknown> = {}) => ({ metadata: { name }, spec: { type: 'NodePort', selector: { app: 'x' }, ports: [{ port: 80, ...extra }] } });
    const a = await send('POST', `${NS}/services`, svc('a'));
    assert.equal(a.status, 201, a.body);
    assert.match(a.json().spec.clusterIP, /^10\.96\.0\.\d+$/);
    const port = a.json().spec.ports[0].nodePort;
    assert.ok(port >= 31000 && port <= 31010, `node port ${port} in range`);
    const taken = await send('POST', `${NS}/services`, svc('b', { nodePort: port }));
    assert.equal(taken.status, 422);
    assert.match(taken.json().message, /provided port is already allocated/);
    assert.equal((await send('DELETE', `${NS}/services/a`)).status, 200);
    const reused = await send('POST', `${NS}/services`, svc('c', { nodePort: port }));
    assert.equal(reused.status, 201, 'a deleted Service gives its port back');
  });

  it('generates names from generateName', async () => {
    const res = await send('POST', `${NS}/configmaps`, { metadata: { generateName: 'gen-' } });
    assert.equal(res.status, 201);
    assert.match(res.json().metadata.name, /^gen-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
  });

  it('the scale subresource prints the selector as upstream does', async () => {
    const body = deployment('scaled');
    body.spec.selector = { matchLabels: { tier: 'web', app: 'scaled' }, matchExpressions: [{ key: 'env', operator: 'In', values: ['prod', 'dev'] }] } as never;
    body.spec.template.metadata.labels = { app: 'scaled', tier: 'web', env: 'prod' } as never;
    assert.equal((await send('POST', DEPLOYMENTS, body)).status, 201);
    const scale = await send('GET', `${DEPLOYMENTS}/scaled/scale`);
    assert.equal(scale.status, 200, scale.body);
    assert.equal(scale.json().status.selector, 'app=scaled,env in (dev,prod),tier=web');
  });

  it('checks a generateName by the type\'s own rule for prefixes', async () => {
    const roles = '/apis/rbac.authorization.k8s.io/v1/namespaces/rules/roles';
    const generated = await send('POST', roles, { metadata: { generateName: 'reader-' }, rules: [] });
    assert.equal(generated.status, 201, generated.body);
    assert.match(generated.json().metadata.name, /^reader-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    // As upstream's ValidateRBACName: a prefix is held to the full rule, so ".." is refused either way.
    const dots = await send('POST', roles, { metadata: { generateName: '..' }, rules: [] });
    assert.equal(dots.status, 422, dots.body);
    assert.match(dots.json().message, /metadata.generateName: Invalid value: "\.\.": may not be '\.\.'/);
    assert.equal((await send('POST', roles, { metadata: { name: '..' }, rules: [] })).status, 422);
    const slash = await send('POST', roles, { metadata: { generateName: 'a/' }, rules: [] });
    assert.equal(slash.status, 422);
    assert.match(slash.json().message, /metadata.generateName: Invalid value: "a\/": may not contain '\/'/);
  });

  it('selects by the per-type fields upstream supports, and refuses others', async () => {
    await send('POST', `${NS}/secrets`, { metadata: { name: 'opaque' }, stringData: { a: 'b' } });
    await send('POST', `${NS}/secrets`, { metadata: { name: 'tls' }, type: 'kubernetes.io/tls', data: { 'tls.crt': '', 'tls.key': '' } });
    const tls = await send('GET', `${NS}/secrets?fieldSelector=type%3Dkubernetes.io%2Ftls`);
    assert.deepEqual(tls.json().items.map((i: any) => i.metadata.name), ['tls']);
    const byName = await send('GET', `${NS}/secrets?fieldSelector=metadata.name%3Dopaque`);
    assert.deepEqual(byName.json().items.map((i: any) => i.metadata.name), ['opaque']);
    assert.equal(byName.json().items[0].data.a, 'Yg==', 'stringData is stored as base64 data');
    const unsupported = await send('GET', `${NS}/secrets?fieldSelector=spec.nope%3Dx`);
    assert.equal(unsupported.status, 400);
    assert.match(unsupported.json().message, /field label not supported: spec.nope/);
  });

  it('watches one object by name, and ends a watch after timeoutSeconds', async () => {
    await send('POST', `${NS}/configmaps`, { metadata: { name: 'one' } });
    await send('POST', `${NS}/configmaps`, { metadata: { name: 'other' } });
    const began = Date.now();
    const res = await send('GET', `${NS}/configmaps?watch=1&fieldSelector=metadata.name%3Done&timeoutSeconds=1`);
    assert.equal(res.status, 200);
    const events = res.body.trim().split('\n').map((l) => JSON.parse(l));
    assert.deepEqual(events.map((e) => `${e.type} ${e.object.metadata.name}`), ['ADDED one']);
    assert.ok(Date.now() - began >= 900, 'the watch lasted about timeoutSeconds');
  });

  it('deletes a scheduled pod gracefully and an unscheduled one at once', async () => {
    const pod = (name: string, nodeName?: string) => ({ metadata: { name }, spec: { ...(nodeName ? { nodeName } : {}), containers: [{ name: 'c', image: 'nginx' }] } });
    await send('POST', `${NS}/pods`, pod('pending'));
    await send('POST', `${NS}/pods`, pod('scheduled', 'node-1'));
    const now = await send('DELETE', `${NS}/pods/pending`);
    assert.equal(now.status, 200);
    assert.equal((await send('GET', `${NS}/pods/pending`)).status, 404);
    const graceful = await send('DELETE', `${NS}/pods/scheduled`);
    assert.equal(graceful.status, 200);
    assert.equal(graceful.json().metadata.deletionGracePeriodSeconds, 30);
    assert.ok(graceful.json().metadata.deletionTimestamp);
    const forced = await send('DELETE', `${NS}/pods/scheduled?gracePeriodSeconds=0`);
    assert.equal(forced.status, 200);
    assert.equal((await send('GET', `${NS}/pods/scheduled`)).status, 404);
  });
});
