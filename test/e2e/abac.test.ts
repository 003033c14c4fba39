/**
 * The server with --authorization-mode=ABAC: the policy file's lines decide, v0 and v1beta1 alike;
 * what no line allows is forbidden with ABAC's reason; the rules review lists a user's policies; a
 * file upstream would refuse stops the start with one line naming the file and the line.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAIN, createNamespace, startServer, type TestServer } from './harness.js';

const policy = (spec: object) => JSON.stringify({ apiVersion: 'abac.authorization.kubernetes.io/v1beta1', kind: 'Policy', spec });
const POLICIES = [
  '# discovery for every authenticated user',
  policy({ group: 'system:authenticated', readonly: true, nonResourcePath: '*' }),
  policy({ group: 'system:authenticated', namespace: '*', resource: 'selfsubjectrulesreviews', apiGroup: 'authorization.k8s.io' }),
  policy({ user: 'alice', namespace: 'team', resource: '*', apiGroup: '*' }),
  '',
  '{"user": "bob", "readonly": true, "resource": "pods"}',
].join('\n');

describe('--authorization-mode=ABAC', () => {
  let server: TestServer;
  const dir = mkdtempSync(join(tmpdir(), 'capstan-abac-'));
  const as = (token: string) => ({ anonymous: true, headers: { Authorization: `Bearer ${token}` } });

  before(async () => {
    const tokens = join(dir, 'tokens.csv');
    const policies = join(dir, 'policy.jsonl');
    writeFileSync(tokens, 'alice-token,alice,uid-alice\nbob-token,bob,uid-bob\n');
    writeFileSync(policies, POLICIES);
    server = await startServer(['--authorization-mode', 'ABAC', '--authorization-policy-file', policies, '--token-auth-file', tokens]);
    await createNamespace(server, 'team');
    await createNamespace(server, 'other');
  });
  after(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('allows what a v1beta1 line grants, in its namespace only', async () => {
    const created = await server.request('/api/v1/namespaces/team/configmaps', {
      ...as('alice-token'), method: 'POST', body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } },
    });
    assert.equal(created.status, 201, created.body);
    const elsewhere = await server.request('/api/v1/namespaces/other/configmaps', as('alice-token'));
    assert.equal(elsewhere.status, 403);
    assert.equal(elsewhere.json().message, 'configmaps is forbidden: User "alice" cannot list resource "configmaps" in API group "" in the namespace "other": No policy matched.');
  });

  it('warns, as upstream, that the file has unversioned lines', () =>
    assert.match(server.output(), /Policy file \S+policy\.jsonl contained unversioned rules\. See docs\/admin\/authorization\.md#abac-mode for ABAC file format details\./));

  it('lets a readonly v0 line read but not write', async () => {
    assert.equal((await server.request('/api/v1/namespaces/other/pods', as('bob-token'))).status, 200);
    const write = await server.request('/api/v1/namespaces/other/pods/p', { ...as('bob-token'), method: 'DELETE' });
    assert.equal(write.status, 403);
  });

  it('serves a non-resource path to the group a line names, not to the anonymous user', async () => {
    assert.equal((await server.request('/api', as('bob-token'))).status, 200);
    assert.equal((await server.request('/api', { anonymous: true })).status, 403);
  });

  it('lists a user\'s policies in a SelfSubjectRulesReview', async () => {
    const res = await server.request('/apis/authorization.k8s.io/v1/selfsubjectrulesreviews', {
      ...as('alice-token'), method: 'POST', body: { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectRulesReview', spec: { namespace: 'team' } },
    });
    assert.equal(res.status, 201, res.body);
    assert.deepEqual(res.json().status.resourceRules, [
      { verbs: ['*'], apiGroups: ['authorization.k8s.io'], resources: ['selfsubjectrulesreviews'] },
      { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
    ]);
  });

  it('refuses to start on a file upstream refuses, with one line naming the file and the line', () => {
    const bad = join(dir, 'bad.jsonl');
    writeFileSync(bad, '{"user":"alice"}\n{"user": }\n');
    const run = spawnSync(process.execPath, [MAIN, '--data-dir', join(dir, 'data'), '--secure-port', '0', '--authorization-mode', 'ABAC', '--authorization-policy-file', bad], { encoding: 'utf8', timeout: 30_000 });
    assert.equal(run.status, 1);
    assert.equal(run.stderr, `capstan: failed to start: error reading policy file ${bad}, line 2: {"user": }: couldn't get version/kind; json parse error: invalid character '}' looking for beginning of value\n`);
  });

  it('refuses ABAC without a policy file in upstream\'s words', () => {
    const run = spawnSync(process.execPath, [MAIN, '--data-dir', join(dir, 'data'), '--authorization-mode', 'ABAC'], { encoding: 'utf8', timeout: 30_000 });
    assert.equal(run.status, 1);
    assert.equal(run.stderr, "capstan: authorization-mode ABAC's authorization policy file not passed\n");
  });
});
