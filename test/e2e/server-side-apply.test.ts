/**
 * Server-side apply and managedFields against the real server: the golden apply responses
 * (201 with the applier's entry, 409 naming the owner), writes recorded as Update entries under
 * the fieldManager or the User-Agent, fields an applier stops setting removed, forced applies
 * taking ownership, `kubectl apply --server-side`, and the requests upstream refuses.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { pinnedKubectl, startServer, type TestServer } from './harness.js';

const NO_KUBECTL = pinnedKubectl() === undefined && 'kubectl is not installed';

const NS = 'ssa';
const CMS = `/api/v1/namespaces/${NS}/configmaps`;
const DEPLOYMENTS = `/apis/apps/v1/namespaces/${NS}/deployments`;
const APPLY = { 'Content-Type': 'application/apply-patch+yaml' };

interface Entry {
  manager?: string;
  operation: string;
  apiVersion: string;
  time?: string;
  fieldsType: string;
  fieldsV1: Record<string, unknown>;
  subresource?: string;
}

describe('server-side apply', () => {
  let server: TestServer;
  const apply = (path: string, body: string | object, query: string) =>
    server.request(`${path}?${query}`, { method: 'PATCH', body, headers: APPLY });
  const managed = (o: { metadata: { managedFields?: Entry[] } }) =>
    (o.metadata.managedFields ?? []).map(({ time, ...rest }) => {
      // An entry whose manager never changed the object (it co-owns what it set) has no time.
      if (time !== undefined) assert.match(time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      return rest;
    });

  before(async () => {
    server = await startServer();
    assert.equal((await server.request('/api/v1/namespaces', { method: 'POST', body: { metadata: { name: NS } } })).status, 201);
  });
  after(async () => server?.stop());

  it('creates an absent object with 201 and the applier entry of the golden response', async () => {
    const res = await apply(`${CMS}/cm4`, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm4\ndata:\n  k: v1\n', 'fieldManager=alice');
    assert.equal(res.status, 201, res.body);
    const o = res.json<any>();
    assert.deepEqual(Object.keys(o.metadata), ['name', 'namespace', 'uid', 'resourceVersion', 'creationTimestamp', 'managedFields']);
    assert.deepEqual(managed(o), [{ manager: 'alice', operation: 'Apply', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'f:k': {} } } }]);
    assert.deepEqual(Object.keys(o.metadata.managedFields[0]), ['manager', 'operation', 'apiVersion', 'time', 'fieldsType', 'fieldsV1']);
    assert.equal(o.metadata.managedFields[0].time, o.metadata.creationTimestamp);
    assert.deepEqual(o.data, { k: 'v1' });
  });

  it('refuses a change to a field another manager owns with the golden 409, and takes it when forced', async () => {
    const bob = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm4\ndata:\n  k: v2\n';
    const refused = await apply(`${CMS}/cm4`, bob, 'fieldManager=bob');
    assert.equal(refused.status, 409, refused.body);
    assert.deepEqual(refused.json(), {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'Apply failed with 1 conflict: conflict with "alice": .data.k',
      reason: 'Conflict',
      details: { causes: [{ reason: 'FieldManagerConflict', message: 'conflict with "alice"', field: '.data.k' }] },
      code: 409,
    });
    const forced = await apply(`${CMS}/cm4`, bob, 'fieldManager=bob&force=true');
    assert.equal(forced.status, 200, forced.body);
    assert.deepEqual(forced.json<any>().data, { k: 'v2' });
    // Alice lost her only field, so her entry is gone.
    assert.deepEqual(managed(forced.json()).map((e) => e.manager), ['bob']);
  });

  it('records creates, updates and patches as Update entries, named by fieldManager or the User-Agent', async () => {
    const created = await server.request(CMS, { method: 'POST', body: { metadata: { name: 'cm1' }, data: { a: 'b' } }, headers: { 'User-Agent': 'curl/8.5.0' } });
    assert.equal(created.status, 201, created.body);
    assert.deepEqual(managed(created.json()), [{ manager: 'curl', operation: 'Update', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { '.': {}, 'f:a': {} } } }]);
    const patched = await server.request(`${CMS}/cm1?fieldManager=labeler`, {
      method: 'PATCH',
      body: { metadata: { labels: { x: 'y' } }, data: { a: 'c' } },
      headers: { 'Content-Type': 'application/merge-patch+json' },
    });
    assert.equal(patched.status, 200, patched.body);
    assert.deepEqual(managed(patched.json()), [
      { manager: 'curl', operation: 'Update', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': {} } },
      { manager: 'labeler', operation: 'Update', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'f:a': {} }, 'f:metadata': { 'f:labels': { '.': {}, 'f:x': {} } } } },
    ].sort((a, b) => (a.manager < b.manager ? -1 : 1)));
    // A PUT without managedFields keeps the recorded ones; an apply of a field an updater owns conflicts.
    const current = patched.json<any>();
    delete current.metadata.managedFields;
    const put = await server.request(`${CMS}/cm1?fieldManager=putter`, { method: 'PUT', body: { ...current, data: { a: 'c', z: '1' } } });
    assert.equal(put.status, 200, put.body);
    assert.deepEqual(managed(put.json()).map((e) => e.manager).sort(), ['curl', 'labeler', 'putter']);
    const conflict = await apply(`${CMS}/cm1`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm1' }, data: { a: 'd' } }, 'fieldManager=app');
    assert.equal(conflict.status, 409, conflict.body);
    assert.match(conflict.json<any>().message, /^Apply failed with 1 conflict: conflict with "labeler" using v1 at \S+: \.data\.a$/);
  });

  it('removes the fields an applier stops setting, keeps what others own, and writes nothing for a repeated apply', async () => {
    const first = await apply(`${CMS}/pruned`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'pruned', labels: { l: '1' } }, data: { a: '1', b: '2' } }, 'fieldManager=m1');
    assert.equal(first.status, 201, first.body);
    const again = await apply(`${CMS}/pruned`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'pruned', labels: { l: '1' } }, data: { a: '1', b: '2' } }, 'fieldManager=m1');
    assert.equal(again.status, 200, again.body);
    assert.equal(again.json<any>().metadata.resourceVersion, first.json<any>().metadata.resourceVersion);
    // m2 co-owns data.b by applying the same value.
    assert.equal((await apply(`${CMS}/pruned`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'pruned' }, data: { b: '2' } }, 'fieldManager=m2')).status, 200);
    const dropped = await apply(`${CMS}/pruned`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'pruned' }, data: { a: '1' } }, 'fieldManager=m1');
    assert.equal(dropped.status, 200, dropped.body);
    const o = dropped.json<any>();
    assert.deepEqual(o.data, { a: '1', b: '2' });
    assert.equal(o.metadata.labels, undefined);
    assert.deepEqual(managed(o).find((e) => e.manager === 'm1')!.fieldsV1, { 'f:data': { 'f:a': {} } });
  });

  it('keys list items by their key fields, defaults included, and merges a Deployment applied twice', async () => {
    const deployment = (image: string) => ({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web' },
      spec: {
        selector: { matchLabels: { app: 'web' } },
        template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image, ports: [{ containerPort: 80 }] }] } },
      },
    });
    const created = await apply(`${DEPLOYMENTS}/web`, deployment('nginx:1.25'), 'fieldManager=kubectl');
    assert.equal(created.status, 201, created.body);
    const fields = managed(created.json())[0]!.fieldsV1 as any;
    assert.deepEqual(fields['f:spec']['f:selector'], {});
    assert.deepEqual(fields['f:spec']['f:template']['f:spec']['f:containers'], {
      'k:{"name":"nginx"}': { '.': {}, 'f:image': {}, 'f:name': {}, 'f:ports': { 'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {} } } },
    });
    const updated = await apply(`${DEPLOYMENTS}/web`, deployment('nginx:1.26'), 'fieldManager=kubectl');
    assert.equal(updated.status, 200, updated.body);
    const containers = updated.json<any>().spec.template.spec.containers;
    assert.equal(containers.length, 1);
    assert.equal(containers[0].image, 'nginx:1.26');
    assert.deepEqual(containers[0].ports, [{ containerPort: 80, protocol: 'TCP' }]);
  });

  it('records a change through the scale subresource as the scaler\'s, with subresource scale', async () => {
    const scaled = await server.request(`${DEPLOYMENTS}/web/scale?fieldManager=scaler`, {
      method: 'PATCH',
      body: { spec: { replicas: 4 } },
      headers: { 'Content-Type': 'application/merge-patch+json' },
    });
    assert.equal(scaled.status, 200, scaled.body);
    const web = (await server.request(`${DEPLOYMENTS}/web`)).json<any>();
    assert.equal(web.spec.replicas, 4);
    const entry = (web.metadata.managedFields as Entry[]).find((e) => e.manager === 'scaler')!;
    assert.deepEqual({ ...entry, time: undefined }, { manager: 'scaler', operation: 'Update', apiVersion: 'apps/v1', time: undefined, fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:replicas': {} } }, subresource: 'scale' });
  });

  it('refuses what upstream refuses', async () => {
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'bad' } };
    const noManager = await apply(`${CMS}/bad`, cm, '');
    assert.equal(noManager.status, 422, noManager.body);
    assert.match(noManager.json<any>().message, /fieldManager: Required value: is required for apply patch/);
    const wrongKind = await apply(`${CMS}/bad`, { ...cm, kind: 'Secret' }, 'fieldManager=x');
    assert.equal(wrongKind.status, 400, wrongKind.body);
    assert.equal(wrongKind.json<any>().message, 'invalid object type: /v1, Kind=Secret');
    const withManaged = await apply(`${CMS}/bad`, { ...cm, metadata: { name: 'bad', managedFields: [] } }, 'fieldManager=x');
    assert.equal(withManaged.status, 400, withManaged.body);
    assert.equal(withManaged.json<any>().message, 'metadata.managedFields must be nil');
    const notYaml = await apply(`${CMS}/bad`, 'a: [', 'fieldManager=x');
    assert.equal(notYaml.status, 400, notYaml.body);
    assert.match(notYaml.json<any>().message, /^error decoding YAML: /);
    const otherName = await apply(`${CMS}/bad`, { ...cm, metadata: { name: 'other' } }, 'fieldManager=x');
    assert.equal(otherName.status, 400, otherName.body);
    // Managed fields a client sends are kept as sent, and checked as upstream checks them.
    const ops = await server.request(CMS, { method: 'POST', body: { metadata: { name: 'ops', labels: { keep: 'x' } } } });
    assert.equal(ops.status, 201, ops.body);
    const entry = { manager: 'z', operation: 'Foo', fieldsType: 'FieldsV1', fieldsV1: { 'f:metadata': { 'f:labels': { 'f:keep': {} } } } };
    const badOperation = await server.request(`${CMS}/ops`, { method: 'PUT', body: { ...ops.json<any>(), metadata: { ...ops.json<any>().metadata, managedFields: [entry] } } });
    assert.equal(badOperation.status, 422, badOperation.body);
    assert.match(badOperation.json<any>().message, /metadata\.managedFields\[0\]\.operation: Invalid value: "Foo": must be `Apply` or `Update`/);
    const forceOnMerge = await server.request(`${CMS}/cm1?force=true`, { method: 'PATCH', body: {}, headers: { 'Content-Type': 'application/merge-patch+json' } });
    assert.equal(forceOnMerge.status, 422, forceOnMerge.body);
    assert.match(forceOnMerge.json<any>().message, /force: Forbidden: may not be specified for non-apply patch/);
  });

  it('serves kubectl apply --server-side, its conflicts and --force-conflicts', { skip: NO_KUBECTL }, () => {
    const manifest = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: kc\n  namespace: ssa\ndata:\n  k: one\n';
    const first = server.kubectl(['apply', '--server-side', '-f', '-'], { input: manifest });
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /configmap\/kc serverside-applied/);
    const other = manifest.replace('one', 'two');
    const refused = server.kubectl(['apply', '--server-side', '--field-manager=other', '-f', '-'], { input: other });
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /Apply failed with 1 conflict: conflict with "kubectl": \.data\.k/);
    const forced = server.kubectl(['apply', '--server-side', '--field-manager=other', '--force-conflicts', '-f', '-'], { input: other });
    assert.equal(forced.code, 0, forced.stderr);
    const shown = server.kubectl(['get', 'configmap', 'kc', '-n', NS, '-o', 'json', '--show-managed-fields']);
    assert.equal(shown.code, 0, shown.stderr);
    const o = JSON.parse(shown.stdout);
    assert.equal(o.data.k, 'two');
    assert.deepEqual(o.metadata.managedFields.map((e: Entry) => e.manager), ['other']);
  });

  it("lets kubectl's server-side apply take over from its client-side apply and keeps the last-applied annotation in step", { skip: NO_KUBECTL }, () => {
    const manifest = (value: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: both\n  namespace: ssa\ndata:\n  k: ${value}\n`;
    const clientSide = server.kubectl(['apply', '-f', '-'], { input: manifest('one') });
    assert.equal(clientSide.code, 0, clientSide.stderr);
    const serverSide = server.kubectl(['apply', '--server-side', '-f', '-'], { input: manifest('two') });
    assert.equal(serverSide.code, 0, serverSide.stderr);
    const shown = JSON.parse(server.kubectl(['get', 'configmap', 'both', '-n', NS, '-o', 'json']).stdout);
    assert.equal(shown.data.k, 'two');
    const lastApplied = shown.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration'];
    assert.equal(lastApplied, '{"apiVersion":"v1","data":{"k":"two"},"kind":"ConfigMap","metadata":{"name":"both","namespace":"ssa"}}\n');
    // Without the sync the conflict with kubectl-client-side-apply would have refused the apply.
    const again = server.kubectl(['apply', '-f', '-'], { input: manifest('two') });
    assert.equal(again.code, 0, again.stderr);
    assert.equal(JSON.parse(server.kubectl(['get', 'configmap', 'both', '-n', NS, '-o', 'json']).stdout).data.k, 'two');
  });
});
