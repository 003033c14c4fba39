import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { reconcileBinding, reconcileRole, type BindingObject, type RoleObject } from '../../src/app/rbac-reconcile.js';

const DEFAULTS = { labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults' }, annotations: { 'rbac.authorization.kubernetes.io/autoupdate': 'true' } };
const GET_PODS = { apiGroups: [''], resources: ['pods'], verbs: ['get'] };
const LIST_PODS = { apiGroups: [''], resources: ['pods'], verbs: ['list'] };

const role = (over: Partial<RoleObject> = {}, meta: RoleObject['metadata'] = {}): RoleObject => ({
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'ClusterRole',
  metadata: { name: 'r', ...structuredClone(DEFAULTS), ...meta },
  rules: [GET_PODS],
  ...over,
});

const group = (name: string) => ({ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name });
const binding = (over: Partial<BindingObject> = {}, meta: BindingObject['metadata'] = {}): BindingObject => ({
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'ClusterRoleBinding',
  metadata: { name: 'b', ...structuredClone(DEFAULTS), ...meta },
  roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'r' },
  subjects: [group('g1')],
  ...over,
});

describe('reconcileRole', () => {
  it('needs nothing when the role is as expected', () => {
    assert.deepEqual(reconcileRole(role(), role()), { update: undefined, protected: false, missingRules: [] });
  });

  it('keeps extra permissions and extra metadata', () => {
    const existing = role({ rules: [GET_PODS, LIST_PODS] }, { labels: { ...DEFAULTS.labels, mine: 'x' }, resourceVersion: '7' });
    assert.equal(reconcileRole(existing, role()).update, undefined);
  });

  it('appends the missing rules as atoms after the existing ones', () => {
    const existing = role({ rules: [LIST_PODS] }, { resourceVersion: '7' });
    const expected = role({ rules: [{ apiGroups: [''], resources: ['pods', 'secrets'], verbs: ['get', 'list'] }] });
    const result = reconcileRole(existing, expected);
    const missing = [GET_PODS, { apiGroups: [''], resources: ['secrets'], verbs: ['get'] }, { apiGroups: [''], resources: ['secrets'], verbs: ['list'] }];
    assert.deepEqual(result.missingRules, missing);
    assert.deepEqual(result.update, role({ rules: [LIST_PODS, ...missing] }, { resourceVersion: '7' }));
    assert.deepEqual(existing.rules, [LIST_PODS], 'the existing object is not changed');
  });

  it('adds missing label and annotation keys, keeping the values already there', () => {
    const existing = role({}, { labels: { 'kubernetes.io/bootstrapping': 'mine' }, annotations: undefined });
    assert.deepEqual(reconcileRole(existing, role()).update?.metadata, {
      name: 'r',
      labels: { 'kubernetes.io/bootstrapping': 'mine' },
      annotations: { 'rbac.authorization.kubernetes.io/autoupdate': 'true' },
    });
  });

  it('says what would change but marks a role with autoupdate "false" protected', () => {
    const existing = role({ rules: [] }, { annotations: { 'rbac.authorization.kubernetes.io/autoupdate': 'false' } });
    const result = reconcileRole(existing, role());
    assert.equal(result.protected, true);
    assert.deepEqual(result.missingRules, [GET_PODS]);
    assert.equal(result.update?.metadata?.annotations?.['rbac.authorization.kubernetes.io/autoupdate'], 'false');
  });

  it('a protected role with nothing missing needs nothing', () => {
    const existing = role({}, { annotations: { 'rbac.authorization.kubernetes.io/autoupdate': 'false' } });
    assert.deepEqual(reconcileRole(existing, role()), { update: undefined, protected: true, missingRules: [] });
  });

  const aggregating = (...labels: string[]) => ({ clusterRoleSelectors: labels.map((l) => ({ matchLabels: { [l]: 'true' } })) });

  it('leaves the rules of an aggregated role to the aggregation controller', () => {
    const existing = role({ aggregationRule: aggregating('to-admin'), rules: [LIST_PODS] });
    const expected = role({ aggregationRule: aggregating('to-admin'), rules: undefined });
    assert.equal(reconcileRole(existing, expected).update, undefined);
  });

  it('appends missing aggregation selectors, keeping extra ones', () => {
    const existing = role({ aggregationRule: aggregating('mine'), rules: null });
    const expected = role({ aggregationRule: aggregating('to-admin'), rules: undefined });
    assert.deepEqual(reconcileRole(existing, expected).update?.aggregationRule, aggregating('mine', 'to-admin'));
  });

  it('sees an empty matchExpressions as none when comparing selectors', () => {
    const existing = role({ aggregationRule: { clusterRoleSelectors: [{ matchLabels: { 'to-admin': 'true' }, matchExpressions: [] }] } });
    assert.equal(reconcileRole(existing, role({ aggregationRule: aggregating('to-admin') })).update, undefined);
  });

  it('makes an unexpectedly aggregating role plain again', () => {
    const result = reconcileRole(role({ aggregationRule: aggregating('x') }), role());
    assert.ok(result.update);
    assert.equal('aggregationRule' in result.update, false);
  });
});

describe('reconcileBinding', () => {
  it('needs nothing when the binding is as expected', () => {
    assert.deepEqual(reconcileBinding(binding(), binding()), { update: undefined, recreate: false, protected: false, missingSubjects: [] });
  });

  it('appends missing subjects once, keeping extra ones', () => {
    const existing = binding({ subjects: [group('mine'), group('g1')] });
    const expected = binding({ subjects: [group('g1'), group('g2'), group('g2')] });
    const result = reconcileBinding(existing, expected);
    assert.deepEqual(result.missingSubjects, [group('g2')]);
    assert.deepEqual(result.update?.subjects, [group('mine'), group('g1'), group('g2')]);
  });

  it('treats a missing subject list as empty', () => {
    assert.deepEqual(reconcileBinding(binding({ subjects: null }), binding()).update?.subjects, [group('g1')]);
  });

  it('sees a stored service account subject with apiGroup "" as the expected one without', () => {
    const sa = { kind: 'ServiceAccount', name: 'kube-dns', namespace: 'kube-system' };
    assert.equal(reconcileBinding(binding({ subjects: [{ ...sa, apiGroup: '' }] }), binding({ subjects: [sa] })).update, undefined);
  });

  it('recreates a binding whose roleRef differs, with the expected object', () => {
    const existing = binding({ roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'other' }, subjects: [group('mine')] });
    const result = reconcileBinding(existing, binding());
    assert.equal(result.recreate, true);
    assert.deepEqual(result.update, binding());
  });

  it('marks a binding with autoupdate "false" protected', () => {
    const existing = binding({ subjects: [] }, { annotations: { 'rbac.authorization.kubernetes.io/autoupdate': 'false' } });
    const result = reconcileBinding(existing, binding());
    assert.equal(result.protected, true);
    assert.deepEqual(result.missingSubjects, [group('g1')]);
  });
});
