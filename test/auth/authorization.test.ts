import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildAuthorizer, type AuthorizationAttributes } from '../../src/auth/authorizer.js';
import { forbiddenError } from '../../src/auth/forbidden-message.js';

const attrs = (over: Partial<AuthorizationAttributes>): AuthorizationAttributes => ({
  user: { name: 'bob', groups: ['system:authenticated'] },
  verb: 'get',
  isResourceRequest: true,
  path: '/api/v1/pods',
  namespace: '',
  apiGroup: '',
  apiVersion: 'v1',
  resource: 'pods',
  subresource: '',
  name: '',
  ...over,
});

describe('buildAuthorizer', () => {
  it('AlwaysAllow allows', async () => assert.equal((await buildAuthorizer(['AlwaysAllow']).authorize(attrs({}))).decision, 'allow'));
  it('AlwaysDeny has no opinion with its reason', async () =>
    assert.deepEqual(await buildAuthorizer(['AlwaysDeny']).authorize(attrs({})), { decision: 'no-opinion', reason: 'Everything is forbidden.' }));
  it('AlwaysDeny then AlwaysAllow allows (first decision wins)', async () =>
    assert.equal((await buildAuthorizer(['AlwaysDeny', 'AlwaysAllow']).authorize(attrs({}))).decision, 'allow'));
  it('system:masters is always allowed', async () =>
    assert.equal((await buildAuthorizer(['AlwaysDeny']).authorize(attrs({ user: { name: 'root', groups: ['system:masters'] } }))).decision, 'allow'));
  it('throws for modes not implemented', () => assert.throws(() => buildAuthorizer(['Node']), /Node is not implemented/));
  it('throws for RBAC without roles and bindings', () => assert.throws(() => buildAuthorizer(['RBAC']), /RBAC needs the cluster's roles and bindings/));
  it('throws for ABAC without its policy file, in upstream\'s words', () => assert.throws(() => buildAuthorizer(['ABAC']), { message: "ABAC's authorization policy file not passed" }));
});

describe('rules of buildAuthorizer (SelfSubjectRulesReview)', () => {
  const everything = {
    resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
    nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
    incomplete: false,
  };
  const bob = { name: 'bob', groups: ['system:authenticated'] };
  const root = { name: 'root', groups: ['system:masters'] };

  it('AlwaysAllow lists everything, AlwaysDeny nothing', () => {
    assert.deepEqual(buildAuthorizer(['AlwaysAllow']).rulesFor(bob, 'default'), everything);
    assert.deepEqual(buildAuthorizer(['AlwaysDeny']).rulesFor(bob, 'default'), { resourceRules: [], nonResourceRules: [], incomplete: false });
  });

  it('lists every mode\'s rules together', () => {
    assert.deepEqual(buildAuthorizer(['AlwaysDeny', 'AlwaysAllow', 'AlwaysAllow']).rulesFor(bob, 'default'), {
      resourceRules: [...everything.resourceRules, ...everything.resourceRules],
      nonResourceRules: [...everything.nonResourceRules, ...everything.nonResourceRules],
      incomplete: false,
    });
  });

  it('system:masters lists no rules of its own, as upstream', () => {
    assert.deepEqual(buildAuthorizer(['AlwaysDeny']).rulesFor(root, 'default'), { resourceRules: [], nonResourceRules: [], incomplete: false });
  });
});

describe('forbiddenError', () => {
  const table: Array<{ name: string; a: Partial<AuthorizationAttributes>; message: string }> = [
    { name: 'cluster list', a: { verb: 'list' }, message: 'pods is forbidden: User "bob" cannot list resource "pods" in API group "" at the cluster scope: why' },
    { name: 'namespaced get', a: { namespace: 'ns', name: 'p1' }, message: 'pods "p1" is forbidden: User "bob" cannot get resource "pods" in API group "" in the namespace "ns": why' },
    { name: 'subresource in a group', a: { apiGroup: 'apps', resource: 'deployments', subresource: 'scale', verb: 'update', name: 'd', namespace: 'ns' }, message: 'deployments.apps "d" is forbidden: User "bob" cannot update resource "deployments/scale" in API group "apps" in the namespace "ns": why' },
    { name: 'non-resource path', a: { isResourceRequest: false, resource: '', path: '/metrics' }, message: 'forbidden: User "bob" cannot get path "/metrics": why' },
    { name: 'escapes markup', a: { isResourceRequest: false, resource: '', path: '/<script>' }, message: 'forbidden: User "bob" cannot get path "/&lt;script&gt;": why' },
  ];
  for (const c of table) {
    it(c.name, () => {
      const err = forbiddenError(attrs(c.a), 'why');
      assert.equal(err.code, 403);
      assert.equal(err.reason, 'Forbidden');
      assert.equal(err.message, c.message);
    });
  }
});
