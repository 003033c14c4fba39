/**
 * The audit webhook (--audit-webhook-config-file) of the real binary, sending to a real HTTPS
 * server this test starts (its own CA, a bearer token in the kubeconfig): batches as EventLists,
 * a failed send tried again, and blocking mode, where a request waits for its RequestReceived event
 * to be taken.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from '../eventually.js';
import { startServer, type TestServer } from './harness.js';
import { startWebhookServer } from './webhook-server.js';

interface Received {
  readonly authorization: string | undefined;
  readonly body: Record<string, any>;
}

/** An audit sink server: records each POST; `answer` decides each status (and may delay). */
async function startSink(answer: (n: number) => Promise<number> | number) {
  const received: Received[] = [];
  let posts = 0;
  const server = await startWebhookServer('sink', { path: '/audit', token: 'sink-token' }, async ({ authorization, text }) => {
    const status = await answer(++posts);
    if (status === 200) received.push({ authorization, body: JSON.parse(text) });
    return { code: status, body: '{}' };
  });
  return { received, kubeconfig: server.kubeconfig, posts: () => posts, close: server.close };
}

const POLICY = 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Metadata\n  resources: [{group: "", resources: [configmaps]}]\n';

function eventsOf(received: readonly Received[]): Record<string, any>[] {
  return received.flatMap((r) => r.body.items as Record<string, any>[]);
}

/** A sink and a Capstan sending to it (the policy above, the given webhook flags); `stop` ends both. */
function auditedServer(answer: (n: number) => Promise<number> | number, flags: readonly string[]) {
  const dir = mkdtempSync(join(tmpdir(), 'capstan-audit-webhook-'));
  const state: { sink?: Awaited<ReturnType<typeof startSink>>; server?: TestServer } = {};
  return {
    get sink() {
      return state.sink!;
    },
    get server() {
      return state.server!;
    },
    async start() {
      state.sink = await startSink(answer);
      writeFileSync(join(dir, 'policy.yaml'), POLICY);
      writeFileSync(join(dir, 'sink.kubeconfig'), state.sink.kubeconfig);
      state.server = await startServer(['--audit-policy-file', join(dir, 'policy.yaml'), '--audit-webhook-config-file', join(dir, 'sink.kubeconfig'), ...flags]);
    },
    async stop() {
      await state.server?.stop();
      await state.sink?.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

describe('audit webhook, batch mode, with a failed send', () => {
  // The first send fails with 500, which upstream's client tries again.
  const audited = auditedServer((n) => (n === 1 ? 500 : 200), ['--audit-webhook-batch-max-wait', '100ms', '--audit-webhook-initial-backoff', '50ms']);
  before(() => audited.start());
  after(() => audited.stop());

  it('sends EventLists with the token, and sends again after a 500', async () => {
    const created = audited.server.kubectl(['create', 'configmap', 'hooked', '--from-literal=a=b']);
    assert.equal(created.code, 0, created.stderr);
    const completeOf = () => eventsOf(audited.sink.received).find((e) => e.objectRef?.name === 'hooked');
    const mine = () => eventsOf(audited.sink.received).filter((e) => e.auditID === completeOf()?.auditID);
    await eventually('both stages reached the webhook', () => mine().length === 2, 5000);
    assert.ok(audited.sink.posts() >= 2, 'the failed send was tried again');
    const list = audited.sink.received[0]!;
    assert.equal(list.authorization, 'Bearer sink-token');
    assert.equal(list.body.kind, 'EventList');
    assert.equal(list.body.apiVersion, 'audit.cluster.io/v1');
    assert.deepEqual(list.body.metadata, {});
    const [received, complete] = mine() as [Record<string, any>, Record<string, any>];
    assert.equal(received.kind, undefined, 'list items carry no kind');
    assert.deepEqual([received.stage, complete.stage], ['RequestReceived', 'ResponseComplete']);
    assert.equal(complete.level, 'Metadata');
    assert.equal(complete.responseStatus.code, 201);
  });
});

describe('audit webhook, blocking mode', () => {
  const audited = auditedServer(() => new Promise((resolve) => setTimeout(() => resolve(200), 150)), ['--audit-webhook-mode', 'blocking', '--audit-webhook-version', 'audit.k8s.io/v1']);
  before(() => audited.start());
  after(() => audited.stop());

  it('answers a request only after its RequestReceived event was taken, one event per send', async () => {
    const res = await audited.server.request('/api/v1/namespaces/default/configmaps', { method: 'POST', body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'blocked' } } });
    assert.equal(res.status, 201);
    const mine = () => eventsOf(audited.sink.received).filter((e) => e.objectRef?.name === 'blocked' || (e.verb === 'create' && e.stage === 'RequestReceived'));
    assert.ok(mine().some((e) => e.stage === 'RequestReceived'), 'the event was taken before the answer');
    assert.equal(audited.sink.received.at(-1)!.body.apiVersion, 'audit.k8s.io/v1');
    await eventually('the ResponseComplete event arrives', () => mine().some((e) => e.stage === 'ResponseComplete'), 5000);
    assert.ok(audited.sink.received.every((r) => r.body.items.length === 1));
  });
});
