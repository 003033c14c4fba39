/**
 * The pods/eviction subresource against the real server: an Eviction deletes a pod that no budget
 * guards, spends a PodDisruptionBudget's allowed disruption for a ready pod, and is refused with
 * upstream's statuses when the budget has none left or has not been processed; dry runs, bad
 * Evictions, and `kubectl drain`, which evicts through it.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { pinnedKubectl, startServer, type TestServer } from './harness.js';

const NS = 'evict';
const PODS = `/api/v1/namespaces/${NS}/pods`;
const BUDGETS = `/apis/policy/v1/namespaces/${NS}/poddisruptionbudgets`;

const eviction = (name: string, extra: Record<string, unknown> = {}) => ({ apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name }, ...extra });

describe('pods/eviction', () => {
  let server: TestServer;
  const send = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
    server.request(path, { method, ...(body !== undefined ? { body } : {}), ...(headers ? { headers } : {}) });

  /** A pod, optionally scheduled and with a status (written through the status subresource). */
  async function pod(name: string, labels: Record<string, string>, status?: Record<string, unknown>, nodeName?: string): Promise<any> {
    const spec = { containers: [{ name: 'c', image: 'nginx' }], ...(nodeName ? { nodeName } : {}) };
    const created = await send('POST', PODS, { metadata: { name, labels }, spec });
    assert.equal(created.status, 201, created.body);
    if (!status) return created.json();
    const updated = await send('PUT', `${PODS}/${name}/status`, { ...created.json<Record<string, unknown>>(), status });
    assert.equal(updated.status, 200, updated.body);
    return updated.json();
  }

  const running = (ready: boolean) => ({ phase: 'Running', conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] });

  /** A budget over `app`, with the status the disruption controller would have written. */
  async function budget(name: string, app: string, status?: Record<string, unknown>, spec: Record<string, unknown> = {}): Promise<void> {
    const created = await send('POST', BUDGETS, { metadata: { name }, spec: { minAvailable: 1, selector: { matchLabels: { app } }, ...spec } });
    assert.equal(created.status, 201, created.body);
    if (!status) return;
    const updated = await send('PUT', `${BUDGETS}/${name}/status`, { ...created.json<Record<string, unknown>>(), status: { observedGeneration: 1, ...status } });
    assert.equal(updated.status, 200, updated.body);
  }

  before(async () => {
    server = await startServer();
    assert.equal((await send('POST', '/api/v1/namespaces', { metadata: { name: NS } })).status, 201);
  });
  after(async () => server?.stop());

  it('deletes a pod that no budget guards and answers 201 with a Success Status', async () => {
    await pod('pending', { app: 'free' });
    const evicted = await send('POST', `${PODS}/pending/eviction`, eviction('pending'));
    assert.equal(evicted.status, 201, evicted.body);
    assert.deepEqual(evicted.json(), { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 });
    assert.equal((await send('GET', `${PODS}/pending`)).status, 404);
  });

  it('accepts the older policy/v1beta1 Eviction', async () => {
    await pod('old-client', { app: 'free' });
    const evicted = await send('POST', `${PODS}/old-client/eviction`, { ...eviction('old-client'), apiVersion: 'policy/v1beta1' });
    assert.equal(evicted.status, 201, evicted.body);
  });

  it('marks a scheduled pod with the DisruptionTarget condition and deletes it gracefully', async () => {
    await pod('scheduled', { app: 'free' }, running(true), 'node-1');
    const evicted = await send('POST', `${PODS}/scheduled/eviction`, eviction('scheduled'));
    assert.equal(evicted.status, 201, evicted.body);
    const after = (await send('GET', `${PODS}/scheduled`)).json();
    assert.ok(after.metadata.deletionTimestamp, 'a scheduled pod gets its grace period');
    const target = after.status.conditions.find((c: any) => c.type === 'DisruptionTarget');
    assert.equal(target.status, 'True');
    assert.equal(target.reason, 'EvictionByEvictionAPI');
    assert.equal(target.message, 'Eviction API: evicting');
    assert.ok(target.lastTransitionTime);
  });

  it('changes nothing on a dry run', async () => {
    await pod('dry', { app: 'free' });
    const evicted = await send('POST', `${PODS}/dry/eviction?dryRun=All`, eviction('dry'));
    assert.equal(evicted.status, 201, evicted.body);
    const still = await send('GET', `${PODS}/dry`);
    assert.equal(still.status, 200);
    assert.equal(still.json().status.conditions, undefined);
    const inBody = await send('POST', `${PODS}/dry/eviction`, eviction('dry', { deleteOptions: { dryRun: ['All'] } }));
    assert.equal(inBody.status, 201, inBody.body);
    assert.equal((await send('GET', `${PODS}/dry`)).status, 200);
    const disagreeing = await send('POST', `${PODS}/dry/eviction?dryRun=All`, eviction('dry', { deleteOptions: { dryRun: ['All', 'All'] } }));
    assert.equal(disagreeing.status, 500);
    assert.equal(disagreeing.json().message, 'Non-matching dry-run options in request and content: [All] and [All All]');
  });

  it('refuses bad Evictions with upstream statuses', async () => {
    await pod('target', { app: 'free' });
    const cases: Array<[unknown, number, RegExp]> = [
      [eviction('other'), 400, /^name in URL does not match name in Eviction object$/],
      [{ ...eviction('target'), metadata: { name: 'target', namespace: 'default' } }, 400, /namespace of the provided object does not match/],
      [{ ...eviction('target'), apiVersion: 'v1' }, 400, /API version in the data \(v1\) does not match the expected API version \(policy\/v1\)/],
      [{ ...eviction('target'), kind: 'Pod' }, 400, /kind in the data \(Pod\) does not match the expected kind \(Eviction\)/],
      [eviction('target', { deleteOptions: { gracePeriodSeconds: 'soon' } }), 400, /gracePeriodSeconds/],
    ];
    for (const [body, code, message] of cases) {
      const answer = await send('POST', `${PODS}/target/eviction`, body);
      assert.equal(answer.status, code, answer.body);
      assert.match(answer.json().message, message);
    }
    const malformed = await server.request(`${PODS}/target/eviction`, { method: 'POST', body: '{"kind": "Eviction",', headers: { 'Content-Type': 'application/json' } });
    assert.equal(malformed.status, 400, malformed.body);
    assert.equal(malformed.json().reason, 'BadRequest');
    const strict = await send('POST', `${PODS}/target/eviction?fieldValidation=Strict`, eviction('target', { bogus: 1 }));
    assert.equal(strict.status, 400, strict.body);
    assert.match(strict.json().message, /unknown field "bogus"/);
    const missing = await send('POST', `${PODS}/absent/eviction`, eviction('absent'));
    assert.equal(missing.status, 404);
    assert.equal(missing.json().message, 'pods "absent" not found');
    const get = await send('GET', `${PODS}/target/eviction`);
    assert.equal(get.status, 405, get.body);
    assert.equal((await send('GET', `${PODS}/target`)).status, 200, 'none of these deleted the pod');
  });

  it('is a create to NamespaceLifecycle: none in a missing or terminating namespace', async () => {
    const missing = await send('POST', '/api/v1/namespaces/nowhere/pods/p/eviction', eviction('p'));
    assert.equal(missing.status, 404, missing.body);
    assert.equal(missing.json().message, 'namespaces "nowhere" not found');
    assert.equal((await send('POST', '/api/v1/namespaces', { metadata: { name: 'closing' } })).status, 201);
    const created = await send('POST', '/api/v1/namespaces/closing/pods', { metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } });
    assert.equal(created.status, 201, created.body);
    const held = await send('PATCH', '/api/v1/namespaces/closing/pods/p', { metadata: { finalizers: ['example.com/hold'] } }, { 'Content-Type': 'application/merge-patch+json' });
    assert.equal(held.status, 200, held.body);
    assert.equal((await send('DELETE', '/api/v1/namespaces/closing')).status, 200);
    const refused = await send('POST', '/api/v1/namespaces/closing/pods/p/eviction', eviction('p'));
    assert.equal(refused.status, 403, refused.body);
    assert.equal(refused.json().message, 'pods "p" is forbidden: unable to create new content in namespace closing because it is being terminated');
    assert.deepEqual(refused.json().details.causes, [{ reason: 'NamespaceTerminating', message: 'namespace closing is being terminated', field: 'metadata.namespace' }]);
  });

  it('answers 429 while the budget has not been processed by its controller', async () => {
    await budget('unprocessed', 'web');
    await pod('web-0', { app: 'web' }, running(true));
    const refused = await send('POST', `${PODS}/web-0/eviction`, eviction('web-0'));
    assert.equal(refused.status, 429, refused.body);
    assert.equal(refused.headers['retry-after'], '10');
    assert.deepEqual(refused.json(), {
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
      message: "Cannot evict pod as it would violate the pod's disruption budget.",
      reason: 'TooManyRequests',
      details: { causes: [{ reason: 'DisruptionBudget', message: 'The disruption budget unprocessed is still being processed by the server.' }], retryAfterSeconds: 10 },
      code: 429,
    });
  });

  it('spends an allowed disruption, then refuses when none is left', async () => {
    await budget('db', 'db', { disruptionsAllowed: 1, currentHealthy: 2, desiredHealthy: 1, expectedPods: 2 });
    await pod('db-0', { app: 'db' }, running(true));
    await pod('db-1', { app: 'db' }, running(true));
    const first = await send('POST', `${PODS}/db-0/eviction`, eviction('db-0'));
    assert.equal(first.status, 201, first.body);
    assert.equal((await send('GET', `${PODS}/db-0`)).status, 404);
    const spent = (await send('GET', `${BUDGETS}/db`)).json().status;
    assert.equal(spent.disruptionsAllowed, 0);
    assert.ok(spent.disruptedPods['db-0'], 'the evicted pod is recorded for the disruption controller');
    const condition = spent.conditions.find((c: any) => c.type === 'DisruptionAllowed');
    assert.equal(condition.status, 'False');
    assert.equal(condition.reason, 'InsufficientPods');

    const second = await send('POST', `${PODS}/db-1/eviction`, eviction('db-1'));
    assert.equal(second.status, 429, second.body);
    assert.equal(second.headers['retry-after'], undefined);
    assert.deepEqual(second.json().details, { causes: [{ reason: 'DisruptionBudget', message: 'The disruption budget db needs 1 healthy pods and has 2 currently' }] });
    assert.equal((await send('GET', `${PODS}/db-1`)).status, 200);
  });

  it('spends nothing on a dry run', async () => {
    await budget('cache', 'cache', { disruptionsAllowed: 1, currentHealthy: 2, desiredHealthy: 1 });
    await pod('cache-0', { app: 'cache' }, running(true));
    assert.equal((await send('POST', `${PODS}/cache-0/eviction?dryRun=All`, eviction('cache-0'))).status, 201);
    assert.equal((await send('GET', `${BUDGETS}/cache`)).json().status.disruptionsAllowed, 1);
    assert.equal((await send('GET', `${PODS}/cache-0`)).status, 200);
  });

  it('lets an unready pod go without spending a disruption when the budget allows it', async () => {
    await budget('lax', 'lax', { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 1 }, { unhealthyPodEvictionPolicy: 'AlwaysAllow' });
    await pod('lax-0', { app: 'lax' }, running(false));
    const evicted = await send('POST', `${PODS}/lax-0/eviction`, eviction('lax-0'));
    assert.equal(evicted.status, 201, evicted.body);
    assert.equal((await send('GET', `${BUDGETS}/lax`)).json().status.disruptionsAllowed, 0);
    assert.equal((await send('GET', `${PODS}/lax-0`)).status, 404);

    await budget('strict', 'strict', { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 1 });
    await pod('strict-0', { app: 'strict' }, running(false));
    const refused = await send('POST', `${PODS}/strict-0/eviction`, eviction('strict-0'));
    assert.equal(refused.status, 429, 'IfHealthyBudget: an unhealthy application keeps its unready pods');
  });

  it('answers a Failure Status (code 500, sent as 201) when two budgets cover the pod', async () => {
    await budget('both-a', 'both', { disruptionsAllowed: 5 });
    await budget('both-b', 'both', { disruptionsAllowed: 5 });
    await pod('both-0', { app: 'both' }, running(true));
    const answer = await send('POST', `${PODS}/both-0/eviction`, eviction('both-0'));
    assert.equal(answer.status, 201, answer.body);
    assert.deepEqual(answer.json(), {
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
      message: 'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.',
      code: 500,
    });
    assert.equal((await send('GET', `${PODS}/both-0`)).status, 200);
  });

  it('is what kubectl drain evicts through', { skip: pinnedKubectl() === undefined && 'kubectl is not installed' }, async () => {
    assert.equal((await send('POST', '/api/v1/nodes', { metadata: { name: 'node-drain' } })).status, 201);
    await pod('on-node', { app: 'free' }, running(true), 'node-drain');
    const drained = spawnSync(
      pinnedKubectl()!,
      ['--kubeconfig', server.kubeconfig, 'drain', 'node-drain', '--force', '--grace-period=0', '--timeout=20s'],
      { encoding: 'utf8' },
    );
    assert.equal(drained.status, 0, drained.stderr);
    assert.match(drained.stdout, /pod\/on-node evicted/);
    assert.equal((await send('GET', `${PODS}/on-node`)).status, 404);
    assert.equal((await send('GET', '/api/v1/nodes/node-drain')).json().spec.unschedulable, true);
  });
});
