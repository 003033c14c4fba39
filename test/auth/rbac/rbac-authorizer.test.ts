import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildAuthorizer, type AuthorizationAttributes } from '../../../src/auth/authorizer.js';
import { RbacAuthorizer } from '../../../src/auth/rbac/rbac-authorizer.js';
import { RbacPolicyIndex } from '../../../src/auth/rbac/rbac-policy-index.js';
import type { UserInfo } from '../../../src/auth/user-info.js';

const alice: UserInfo = { name: 'alice', groups: ['devs', 'system:authenticated'] };

const request = (over: Partial<AuthorizationAttributes>): AuthorizationAttributes => ({
  user: alice,
  verb: 'list',
  isResourceRequest: true,
  path: '/api/v1/namespaces/team/pods',
  namespace: 'team',
  apiGroup: '',
  apiVersion: 'v1',
  resource: 'pods',
  subresource: '',
  name: '',
  ...over,
});

const role = (namespace: string, name: string, rules: unknown[]) => ({
  apiVersion: 'rbac.authorization.k8s.io/v1', kind: namespace === '' ? 'ClusterRole' : 'Role', metadata: { name, ...(namespace ? { namespace } : {}) }, rules,
});
const binding = (namespace: string, name: string, roleRef: { kind: string; name: string }, subjects: unknown[]) => ({
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: namespace === '' ? 'ClusterRoleBinding' : 'RoleBinding',
  metadata: { name, ...(namespace ? { namespace } : {}) },
  roleRef: { apiGroup: 'rbac.authorization.k8s.io', ...roleRef },
  subjects,
});
const user = (name: string) => ({ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name });
const group = (name: string) => ({ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name });
const podReader = [{ verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['pods'] }];

function policy(): RbacPolicyIndex {
  const index = new RbacPolicyIndex();
  index.put('Role', role('team', 'pod-reader', podReader));
  index.put('ClusterRole', role('', 'node-reader', [{ verbs: ['get'], apiGroups: [''], resources: ['nodes'] }, { verbs: ['get'], nonResourceURLs: ['/healthz'] }]));
  return index;
}

describe('RbacAuthorizer', () => {
  it('allows what a RoleBinding grants, in its namespace only, with upstream\'s reason', () => {
    const index = policy();
    index.put('RoleBinding', binding('team', 'read-pods', { kind: 'Role', name: 'pod-reader' }, [user('alice')]));
    const rbac = new RbacAuthorizer(index);
    assert.deepEqual(rbac.authorize(request({})), { decision: 'allow', reason: 'RBAC: allowed by RoleBinding "read-pods/team" of Role "pod-reader" to User "alice"' });
    assert.deepEqual(rbac.authorize(request({ namespace: 'other' })), { decision: 'no-opinion', reason: '' });
    assert.deepEqual(rbac.authorize(request({ verb: 'delete' })), { decision: 'no-opinion', reason: '' });
  });

  it('allows what a ClusterRoleBinding grants to a group, everywhere', () => {
    const index = policy();
    index.put('ClusterRoleBinding', binding('', 'nodes', { kind: 'ClusterRole', name: 'node-reader' }, [user('bob'), group('devs')]));
    const rbac = new RbacAuthorizer(index);
    assert.deepEqual(rbac.authorize(request({ verb: 'get', resource: 'nodes', namespace: '', name: 'n1' })), {
      decision: 'allow', reason: 'RBAC: allowed by ClusterRoleBinding "nodes" of ClusterRole "node-reader" to Group "devs"',
    });
    assert.equal(rbac.authorize(request({ verb: 'get', isResourceRequest: false, path: '/healthz', namespace: '' })).decision, 'allow');
  });

  it('a RoleBinding may grant a ClusterRole within its namespace', () => {
    const index = policy();
    index.put('RoleBinding', binding('team', 'nodes-here', { kind: 'ClusterRole', name: 'node-reader' }, [user('alice')]));
    const rbac = new RbacAuthorizer(index);
    assert.equal(rbac.authorize(request({ verb: 'get', resource: 'nodes', name: 'n1' })).decision, 'allow');
    assert.equal(rbac.authorize(request({ verb: 'get', resource: 'nodes', name: 'n1', namespace: '' })).decision, 'no-opinion');
  });

  it('service accounts: by namespace and name, defaulting to the binding\'s namespace', () => {
    const index = policy();
    index.put('RoleBinding', binding('team', 'sa', { kind: 'Role', name: 'pod-reader' }, [{ kind: 'ServiceAccount', name: 'builder' }]));
    const rbac = new RbacAuthorizer(index);
    const sa = (name: string): UserInfo => ({ name, groups: ['system:serviceaccounts'] });
    assert.deepEqual(rbac.authorize(request({ user: sa('system:serviceaccount:team:builder') })), {
      decision: 'allow', reason: 'RBAC: allowed by RoleBinding "sa/team" of Role "pod-reader" to ServiceAccount "builder/team"',
    });
    assert.equal(rbac.authorize(request({ user: sa('system:serviceaccount:other:builder') })).decision, 'no-opinion');
  });

  it('reports bindings to missing roles in the reason, and still allows by other grants', () => {
    const index = policy();
    index.put('ClusterRoleBinding', binding('', 'broken', { kind: 'ClusterRole', name: 'gone' }, [user('alice')]));
    index.put('RoleBinding', binding('team', 'broken-too', { kind: 'Role', name: 'missing' }, [user('alice')]));
    const rbac = new RbacAuthorizer(index);
    assert.deepEqual(rbac.authorize(request({ verb: 'delete' })), {
      decision: 'no-opinion',
      reason: 'RBAC: [clusterrole.rbac.authorization.k8s.io "gone" not found, role.rbac.authorization.k8s.io "missing" not found]',
    });
    index.put('RoleBinding', binding('team', 'works', { kind: 'Role', name: 'pod-reader' }, [user('alice')]));
    assert.equal(rbac.authorize(request({})).decision, 'allow');
  });

  it('forgets deleted roles and bindings', () => {
    const index = policy();
    const grant = binding('team', 'read-pods', { kind: 'Role', name: 'pod-reader' }, [user('alice')]);
    index.put('RoleBinding', grant);
    const rbac = new RbacAuthorizer(index);
    index.remove('Role', role('team', 'pod-reader', []));
    assert.deepEqual(rbac.authorize(request({})), { decision: 'no-opinion', reason: 'RBAC: role.rbac.authorization.k8s.io "pod-reader" not found' });
    index.remove('RoleBinding', grant);
    assert.deepEqual(rbac.authorize(request({})), { decision: 'no-opinion', reason: '' });
  });

  it('lists the rules granted in a namespace (SelfSubjectRulesReview)', () => {
    const index = policy();
    index.put('ClusterRoleBinding', binding('', 'nodes', { kind: 'ClusterRole', name: 'node-reader' }, [group('devs')]));
    index.put('RoleBinding', binding('team', 'read-pods', { kind: 'Role', name: 'pod-reader' }, [user('alice')]));
    const rbac = new RbacAuthorizer(index);
    assert.deepEqual(rbac.rulesFor(alice, 'team'), {
      resourceRules: [
        { verbs: ['get'], apiGroups: [''], resources: ['nodes'] },
        { verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['pods'] },
      ],
      nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }],
      incomplete: false,
    });
    assert.equal(rbac.rulesFor(alice, 'other').resourceRules.length, 1);
  });

  it('is a mode of buildAuthorizer, behind system:masters', () => {
    const authorizer = buildAuthorizer(['RBAC'], { rbac: policy() });
    assert.equal((authorizer.authorize(request({})) as { decision: string }).decision, 'no-opinion');
    assert.equal((authorizer.authorize(request({ user: { name: 'root', groups: ['system:masters'] } })) as { decision: string }).decision, 'allow');
  });
});

describe('RbacPolicyIndex', () => {
  it('lists bindings in name order, and a namespace\'s only', () => {
    const index = new RbacPolicyIndex();
    for (const name of ['c', 'a', 'b']) index.put('RoleBinding', binding('team', name, { kind: 'Role', name: 'r' }, []));
    index.put('RoleBinding', binding('other', 'z', { kind: 'Role', name: 'r' }, []));
    index.put('ClusterRoleBinding', binding('', 'y', { kind: 'ClusterRole', name: 'r' }, []));
    assert.deepEqual(index.roleBindings('team').map((b) => b.name), ['a', 'b', 'c']);
    assert.deepEqual(index.clusterRoleBindings().map((b) => b.name), ['y']);
    assert.deepEqual(index.roleBindings(''), []);
    assert.deepEqual([...index.snapshot('RoleBinding').keys()].sort(), ['other/z', 'team/a', 'team/b', 'team/c']);
    assert.deepEqual([...index.snapshot('ClusterRoleBinding').keys()], ['/y']);
  });

  it('keeps Roles and ClusterRoles apart', () => {
    const index = policy();
    assert.equal(index.role('team', 'pod-reader')?.rules.length, 1);
    assert.equal(index.clusterRole('pod-reader'), undefined);
    assert.equal(index.role('', 'node-reader'), undefined);
    assert.deepEqual([...index.snapshot('ClusterRole').keys()], ['/node-reader']);
    assert.deepEqual([...index.snapshot('Role').keys()], ['team/pod-reader']);
  });
});
