/**
 * The audit log of the real binary (--audit-policy-file, --audit-log-*), read back from its file:
 * kubectl's create at RequestResponse level with its objects and the authorizer's annotations, a
 * refused credential, a 404, a watch's ResponseStarted, levels and omitted stages from the policy;
 * then the legacy format in upstream's spelling, written in batches; and a policy that does not
 * load.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from '../eventually.js';
import { MAIN, startServer, type TestServer } from './harness.js';

const POLICY = `
apiVersion: audit.k8s.io/v1
kind: Policy
rules:
- level: None
  nonResourceURLs: ["/readyz*", "/healthz*", "/livez*"]
- level: RequestResponse
  resources: [{group: "", resources: [configmaps]}]
- level: Metadata
  omitStages: [RequestReceived]
`;

type Event = Record<string, any>;

function readEvents(path: string): Event[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8').split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as Event);
}

describe('audit log, json, blocking', () => {
  const dir = mkdtempSync(join(tmpdir(), 'capstan-audit-'));
  const log = join(dir, 'audit', 'audit.log');
  let server: TestServer;
  before(async () => {
    writeFileSync(join(dir, 'policy.yaml'), POLICY);
    server = await startServer(['--audit-policy-file', join(dir, 'policy.yaml'), '--audit-log-path', log]);
  });
  after(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('records kubectl\'s create at RequestResponse level, each stage, with the objects and the decision', async () => {
    const created = server.kubectl(['create', 'configmap', 'audited', '--from-literal=k=v']);
    assert.equal(created.code, 0, created.stderr);
    // The name comes with the body: the RequestReceived event, written before it is read, lacks it.
    const completeOf = () => readEvents(log).find((e) => e.verb === 'create' && e.objectRef?.name === 'audited');
    await eventually('the create is in the log', () => completeOf() !== undefined);
    const complete = completeOf()!;
    const stages = readEvents(log).filter((e) => e.auditID === complete.auditID);
    assert.deepEqual(stages.map((e) => e.stage), ['RequestReceived', 'ResponseComplete']);
    const received = stages[0]!;
    assert.deepEqual(received.objectRef, { resource: 'configmaps', namespace: 'default', apiVersion: 'v1' });
    assert.equal(complete.apiVersion, 'audit.cluster.io/v1', 'the spec\'s spelling by default');
    assert.equal(complete.kind, 'Event');
    assert.equal(complete.level, 'RequestResponse');
    assert.match(complete.auditID, /^[0-9a-f-]{36}$/);
    assert.match(complete.requestURI, /^\/api\/v1\/namespaces\/default\/configmaps\?fieldManager=kubectl-create/);
    assert.deepEqual(complete.sourceIPs, ['127.0.0.1']);
    assert.match(complete.userAgent, /^kubectl/);
    assert.ok(complete.user.groups.includes('system:masters'));
    assert.deepEqual(complete.objectRef, { resource: 'configmaps', namespace: 'default', name: 'audited', apiVersion: 'v1' });
    assert.deepEqual(complete.responseStatus, { metadata: {}, code: 201 });
    assert.deepEqual(complete.requestObject.data, { k: 'v' });
    assert.equal(complete.requestObject.metadata.uid, undefined, 'the request as sent');
    assert.match(complete.responseObject.metadata.uid, /^[0-9a-f-]{36}$/, 'the response as stored');
    assert.equal(complete.annotations['authorization.k8s.io/decision'], 'allow');
    assert.equal(typeof complete.annotations['authorization.k8s.io/reason'], 'string');
    assert.equal(received.responseStatus, undefined);
    assert.equal(received.stageTimestamp, received.requestReceivedTimestamp);
    assert.match(complete.stageTimestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    assert.ok(complete.stageTimestamp >= complete.requestReceivedTimestamp);
  });

  it('records other resources at Metadata level without RequestReceived, and no health probe', async () => {
    const res = await server.request('/api/v1/namespaces/default/secrets/absent');
    assert.equal(res.status, 404);
    await eventually('the 404 is in the log', () => readEvents(log).some((e) => e.objectRef?.name === 'absent'));
    const events = readEvents(log).filter((e) => e.objectRef?.name === 'absent');
    assert.deepEqual(events.map((e) => e.stage), ['ResponseComplete']);
    assert.equal(events[0]!.level, 'Metadata');
    assert.equal(events[0]!.verb, 'get');
    assert.deepEqual(events[0]!.responseStatus, { metadata: {}, status: 'Failure', message: 'secrets "absent" not found', reason: 'NotFound', details: { name: 'absent', kind: 'secrets' }, code: 404 });
    assert.equal(events[0]!.responseObject, undefined, 'Metadata keeps no objects');
    assert.ok(!readEvents(log).some((e) => String(e.requestURI).startsWith('/readyz')), 'the rule with level None');
  });

  it('records a refused credential once, at ResponseStarted, with upstream\'s message', async () => {
    const res = await server.request('/api/v1/namespaces?audit=bad-token', { anonymous: true, headers: { Authorization: 'Bearer not-a-token' } });
    assert.equal(res.status, 401);
    await eventually('the 401 is in the log', () => readEvents(log).some((e) => e.requestURI === '/api/v1/namespaces?audit=bad-token'));
    const events = readEvents(log).filter((e) => e.requestURI === '/api/v1/namespaces?audit=bad-token');
    assert.equal(events.length, 1);
    assert.equal(events[0]!.stage, 'ResponseStarted');
    assert.deepEqual(events[0]!.user, {});
    assert.deepEqual(events[0]!.responseStatus, { metadata: {}, message: 'Authentication failed, attempted: bearer', code: 401 });
  });

  it('records a watch\'s start when its head goes out, and its end', async () => {
    const res = await server.request('/api/v1/namespaces/default/configmaps?watch=1&timeoutSeconds=1');
    assert.equal(res.status, 200);
    const watchEvents = () => readEvents(log).filter((e) => e.verb === 'watch' && String(e.requestURI).includes('timeoutSeconds=1'));
    await eventually('the watch\'s end is in the log', () => watchEvents().some((e) => e.stage === 'ResponseComplete'));
    assert.deepEqual(watchEvents().map((e) => e.stage), ['RequestReceived', 'ResponseStarted', 'ResponseComplete']);
    assert.equal(watchEvents()[1]!.responseStatus.code, 200);
    assert.equal(watchEvents()[2]!.responseObject, undefined, 'a stream has no response object');
  });
});

describe('audit log, legacy, batch, upstream spelling', () => {
  const dir = mkdtempSync(join(tmpdir(), 'capstan-audit-'));
  const log = join(dir, 'audit.log');
  let server: TestServer;
  before(async () => {
    writeFileSync(join(dir, 'policy.json'), JSON.stringify({ apiVersion: 'audit.cluster.io/v1', kind: 'Policy', rules: [{ level: 'Metadata', verbs: ['list'] }] }));
    server = await startServer([
      '--audit-policy-file', join(dir, 'policy.json'), '--audit-log-path', log, '--audit-log-format', 'legacy',
      '--audit-log-version', 'audit.k8s.io/v1', '--audit-log-mode', 'batch', '--audit-log-batch-max-size', '100', '--audit-log-batch-max-wait', '50ms',
    ]);
  });
  after(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes one line of text per event, only for the verbs the policy names', async () => {
    assert.equal((await server.request('/api/v1/namespaces/default/configmaps')).status, 200);
    assert.equal((await server.request('/api/v1/namespaces/default')).status, 200);
    const lines = () => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter((l) => l.includes('uri="/api/v1/namespaces/default/configmaps"')) : []);
    await eventually('the list\'s events are written', () => lines().length === 2);
    assert.match(lines()[0]!, /^\d{4}-\d\d-\d\dT[\d:.]+Z AUDIT: id="[0-9a-f-]{36}" stage="RequestReceived" ip="127\.0\.0\.1" method="list" user="[^"]+" groups=".*\\"system:masters\\".*" as="<self>" asgroups="<lookup>" user-agent=".*" namespace="default" uri="\/api\/v1\/namespaces\/default\/configmaps" response="<deferred>"$/);
    assert.match(lines()[1]!, /stage="ResponseComplete" .* response="200"$/);
    assert.ok(!readFileSync(log, 'utf8').includes('method="get"'), 'gets are not audited by this policy');
  });
});

describe('audit flags the server refuses', () => {
  it('names a policy that does not load, and a bad mode, in upstream\'s words', () => {
    const dir = mkdtempSync(join(tmpdir(), 'capstan-audit-'));
    try {
      writeFileSync(join(dir, 'empty.yaml'), 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules: []\n');
      const run = (args: string[]) => spawnSync(process.execPath, [MAIN, '--data-dir', join(dir, 'data'), '--secure-port', '0', ...args], { encoding: 'utf8', timeout: 20_000 });
      const noRules = run(['--audit-policy-file', join(dir, 'empty.yaml'), '--audit-log-path', join(dir, 'a.log')]);
      assert.equal(noRules.status, 1);
      assert.match(noRules.stderr, /loading audit policy file: .*0 rules/);
      const badMode = run(['--audit-log-path', join(dir, 'a.log'), '--audit-log-mode', 'sometimes']);
      assert.equal(badMode.status, 1);
      assert.match(badMode.stderr, /invalid audit log mode sometimes, allowed modes are "batch,blocking,blocking-strict"/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
