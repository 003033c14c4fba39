import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadBootstrapPolicy } from '../../src/app/rbac-bootstrap-policy.js';

const policy = loadBootstrapPolicy();

describe('the bootstrap policy', () => {
  it('holds upstream’s objects, each labelled and annotated as a default', () => {
    assert.deepEqual(
      { clusterRoles: policy.clusterRoles.length, clusterRoleBindings: policy.clusterRoleBindings.length, namespaces: Object.keys(policy.namespaceRoles).sort() },
      { clusterRoles: 69, clusterRoleBindings: 50, namespaces: ['kube-public', 'kube-system'] },
    );
    const all = [...policy.clusterRoles, ...policy.clusterRoleBindings, ...Object.values(policy.namespaceRoles).flat(), ...Object.values(policy.namespaceRoleBindings).flat()];
    for (const object of all) {
      assert.equal(object.apiVersion, 'rbac.authorization.k8s.io/v1', object.metadata?.name);
      assert.equal(object.metadata?.labels?.['kubernetes.io/bootstrapping'], 'rbac-defaults', object.metadata?.name);
      assert.equal(object.metadata?.annotations?.['rbac.authorization.kubernetes.io/autoupdate'], 'true', object.metadata?.name);
    }
    const names = policy.clusterRoles.map((r) => r.metadata?.name);
    for (const name of ['cluster-admin', 'admin', 'edit', 'view', 'system:discovery', 'system:basic-user', 'system:public-info-viewer', 'system:monitoring', 'system:node', 'system:controller:namespace-controller']) {
      assert.ok(names.includes(name), name);
    }
  });

  it('binds every role it names', () => {
    const roles = new Set(policy.clusterRoles.map((r) => r.metadata?.name));
    for (const b of policy.clusterRoleBindings) assert.ok(roles.has(b.roleRef?.name), b.metadata?.name);
  });
});
