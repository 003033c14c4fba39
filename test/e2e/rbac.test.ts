/**
 * The server with --authorization-mode=RBAC: a user may do what the roles bound to it grant, and
 * nothing more; grants and their withdrawal take effect without a restart; kubectl's own checks
 * (auth can-i, its rules review) and its Forbidden errors read as against kube-apiserver.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from '../eventually.js';
import { createNamespace, pinnedKubectl, startServer, type TestServer } from './harness.js';

const kubectlPath = pinnedKubectl();

describe('--authorization-mode=RBAC', () => {
  let server: TestServer;
  const dir = mkdtempSync(join(tmpdir(), 'capstan-rbac-'));
  const aliceKubeconfig = join(dir, 'alice.kubeconfig');
  const asAlice = { anonymous: true, headers: { Authorization: 'Bearer alice-token' } };
  const admin = (args: string[]): string => {
    const r = server.kubectl(args);
    assert.equal(r.code, 0, `kubectl ${args.join(' ')} failed:\n${r.stderr}`);
    return r.stdout;
  };
  const alice = (args: string[]) => server.kubectl(['--kubeconfig', aliceKubeconfig, ...args]);

  before(async () => {
    const tokens = join(dir, 'tokens.csv');
    writeFileSync(tokens, 'alice-token,alice,uid-alice,devs\n');
    server = await startServer(['--authorization-mode', 'RBAC', '--token-auth-file', tokens]);
    // Alice's kubeconfig: the server and its CA from the admin's, her token instead of the admin's certificate.
    const adminConfig = readFileSync(server.kubeconfig, 'utf8');
    const ca = /certificate-authority-data:\s*(\S+)/.exec(adminConfig)![1];
    writeFileSync(
      aliceKubeconfig,
      `apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n    server: ${server.url}\n    certificate-authority-data: ${ca}\n` +
        'users:\n- name: alice\n  user:\n    token: alice-token\ncontexts:\n- name: alice\n  context: {cluster: c, user: alice}\ncurrent-context: alice\n',
    );
    await createNamespace(server, 'team');
  });
  after(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses what no role grants, in upstream\'s words', async () => {
    const res = await server.request('/api/v1/namespaces/team/pods', asAlice);
    assert.equal(res.status, 403);
    assert.equal(res.json().message, 'pods is forbidden: User "alice" cannot list resource "pods" in API group "" in the namespace "team"');
  });

  it('the default roles let every user discover the API and read who it is', async () => {
    assert.equal((await server.request('/api', asAlice)).status, 200);
    assert.equal((await server.request('/apis', asAlice)).status, 200);
    assert.equal((await server.request('/version', { anonymous: true })).status, 200, 'system:public-info-viewer');
    const review = await server.request('/apis/authentication.k8s.io/v1/selfsubjectreviews', {
      ...asAlice, method: 'POST', body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
    });
    assert.equal(review.status, 201, review.body);
  });

  it('grants by a RoleBinding take effect at once and end with it', { skip: kubectlPath === undefined }, async () => {
    admin(['-n', 'team', 'create', 'role', 'pod-reader', '--verb=get,list,watch', '--resource=pods']);
    admin(['-n', 'team', 'create', 'rolebinding', 'alice-reads-pods', '--role=pod-reader', '--user=alice']);
    await eventually('alice may list pods', async () => (await server.request('/api/v1/namespaces/team/pods', asAlice)).status === 200, 10_000);
    const listed = alice(['-n', 'team', 'get', 'pods']);
    assert.equal(listed.code, 0, listed.stderr);
    assert.equal(alice(['-n', 'team', 'auth', 'can-i', 'list', 'pods']).stdout.trim(), 'yes');
    assert.equal(alice(['-n', 'team', 'auth', 'can-i', 'delete', 'pods']).stdout.trim(), 'no');
    assert.equal(alice(['-n', 'default', 'auth', 'can-i', 'list', 'pods']).stdout.trim(), 'no');
    // The admin (system:masters) may impersonate her, and is then judged as she is.
    assert.equal(server.kubectl(['-n', 'team', 'auth', 'can-i', 'list', 'pods', '--as', 'alice']).stdout.trim(), 'yes');
    assert.equal(server.kubectl(['-n', 'team', 'auth', 'can-i', 'create', 'pods', '--as', 'alice']).stdout.trim(), 'no');
    const rules = alice(['-n', 'team', 'auth', 'can-i', '--list']);
    assert.equal(rules.code, 0, rules.stderr);
    assert.match(rules.stdout, /^pods\s+\[\]\s+\[\]\s+\[get list watch\]$/m);
    const refused = alice(['-n', 'team', 'delete', 'pod', 'p1']);
    assert.match(refused.stderr, /Error from server \(Forbidden\): pods "p1" is forbidden: User "alice" cannot delete resource "pods" in API group "" in the namespace "team"/);

    admin(['-n', 'team', 'delete', 'rolebinding', 'alice-reads-pods']);
    await eventually('alice may no longer list pods', async () => (await server.request('/api/v1/namespaces/team/pods', asAlice)).status === 403, 10_000);
  });

  it('grants by a ClusterRoleBinding to a group apply in every namespace', { skip: kubectlPath === undefined }, async () => {
    admin(['create', 'clusterrolebinding', 'devs-view', '--clusterrole=view', '--group=devs']);
    await eventually('devs may read configmaps', async () => (await server.request('/api/v1/namespaces/default/configmaps', asAlice)).status === 200, 10_000);
    assert.equal(alice(['-n', 'team', 'auth', 'can-i', 'get', 'configmaps']).stdout.trim(), 'yes');
    assert.equal(alice(['-n', 'team', 'auth', 'can-i', 'get', 'secrets']).stdout.trim(), 'no', 'view reads no secrets');
    assert.equal(alice(['-n', 'team', 'auth', 'can-i', 'create', 'configmaps']).stdout.trim(), 'no');
    admin(['delete', 'clusterrolebinding', 'devs-view']);
  });

  it('a user may hand out only what it holds, unless allowed to escalate or bind', async () => {
    const role = (name: string, rules: unknown[]) => ({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name }, rules });
    const grant = (name: string, roleRef: { kind: string; name: string }) => ({
      apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', ...roleRef }, subjects: [{ kind: 'User', name: 'bob', apiGroup: 'rbac.authorization.k8s.io' }],
    });
    const post = (resource: string, body: unknown) => server.request(`/apis/rbac.authorization.k8s.io/v1/namespaces/team/${resource}`, { ...asAlice, method: 'POST', body });
    // Alice may manage roles and bindings in team, and read pods there; nothing else.
    for (const body of [
      role('role-manager', [
        { apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles', 'rolebindings'], verbs: ['get', 'list', 'create', 'update', 'patch'] },
        { apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] },
      ]),
      grant('alice-manages-roles', { kind: 'Role', name: 'role-manager' }),
    ]) {
      const res = await server.request(`/apis/rbac.authorization.k8s.io/v1/namespaces/team/${body.kind === 'Role' ? 'roles' : 'rolebindings'}`, { method: 'POST', body });
      assert.equal(res.status, 201, res.body);
    }
    const binding = await server.request('/apis/rbac.authorization.k8s.io/v1/namespaces/team/rolebindings/alice-manages-roles', {
      method: 'PATCH', body: { subjects: [{ kind: 'User', name: 'alice', apiGroup: 'rbac.authorization.k8s.io' }] }, headers: { 'Content-Type': 'application/merge-patch+json' },
    });
    assert.equal(binding.status, 200, binding.body);
    await eventually('alice may create roles', async () => (await server.request('/apis/rbac.authorization.k8s.io/v1/namespaces/team/roles', asAlice)).status === 200, 10_000);

    const held = await post('roles', role('pods-only', [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }]));
    assert.equal(held.status, 201, held.body);
    const escalating = await post('roles', role('secrets-too', [{ apiGroups: [''], resources: ['pods', 'secrets'], verbs: ['get', 'delete'] }]));
    assert.equal(escalating.status, 403, escalating.body);
    assert.deepEqual(escalating.json().details, { name: 'secrets-too', group: 'rbac.authorization.k8s.io', kind: 'roles' });
    assert.equal(
      escalating.json().message,
      'roles.rbac.authorization.k8s.io "secrets-too" is forbidden: user "alice" (groups=["devs" "system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n' +
        '{APIGroups:[""], Resources:["pods"], Verbs:["delete"]}\n{APIGroups:[""], Resources:["secrets"], Verbs:["get" "delete"]}',
    );
    assert.equal((await post('rolebindings', grant('bob-pods', { kind: 'Role', name: 'pods-only' }))).status, 201);
    const binds = await post('rolebindings', grant('bob-admin', { kind: 'ClusterRole', name: 'admin' }));
    assert.equal(binds.status, 403, binds.body);
    assert.match(binds.json().message, /^rolebindings\.rbac\.authorization\.k8s\.io "bob-admin" is forbidden: user "alice" .* not currently held:\n/);
    const missing = await post('rolebindings', grant('bob-nothing', { kind: 'Role', name: 'no-such-role' }));
    assert.equal(missing.status, 404, missing.body);
    assert.equal(missing.json().message, 'roles.rbac.authorization.k8s.io "no-such-role" not found');

    // With `bind` on the admin ClusterRole, alice may grant it without holding it.
    const mayBind = await server.request('/apis/rbac.authorization.k8s.io/v1/namespaces/team/roles', {
      method: 'POST', body: role('bind-admin', [{ apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterroles'], verbs: ['bind'], resourceNames: ['admin'] }]),
    });
    assert.equal(mayBind.status, 201, mayBind.body);
    assert.equal((await server.request('/apis/rbac.authorization.k8s.io/v1/namespaces/team/rolebindings', { method: 'POST', body: { ...grant('alice-binds', { kind: 'Role', name: 'bind-admin' }), subjects: [{ kind: 'User', name: 'alice', apiGroup: 'rbac.authorization.k8s.io' }] } })).status, 201);
    await eventually('alice may bind admin', async () => (await post('rolebindings', grant('bob-admin', { kind: 'ClusterRole', name: 'admin' }))).status === 201, 10_000);
  });

  it('the allowing grant is the audit reason and the access review\'s', async () => {
    const review = await server.request('/apis/authorization.k8s.io/v1/subjectaccessreviews', {
      method: 'POST',
      body: {
        apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview',
        spec: { user: 'alice', groups: ['system:authenticated'], nonResourceAttributes: { path: '/api', verb: 'get' } },
      },
    });
    assert.equal(review.status, 201, review.body);
    assert.deepEqual(review.json().status, {
      allowed: true,
      reason: 'RBAC: allowed by ClusterRoleBinding "system:discovery" of ClusterRole "system:discovery" to Group "system:authenticated"',
    });
  });
});
