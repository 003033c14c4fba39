import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../src/registry/object.js';
import { created, ctx, messages, strategy, updated } from './fixtures.js';
import { golden } from './golden.js';

test('ingress ing1 is stored as upstream stored it', () => {
  const s = strategy('networking.k8s.io', 'ingresses');
  const expected = golden('ingress-ing1');
  const ingress = created(s, { metadata: { name: 'ing1', namespace: 'golden' }, spec: expected['spec'] });
  assert.deepEqual(ingress['status'], expected['status']);
  assert.equal(ingress.metadata?.generation, 1);
  assert.deepEqual(s.validate(ingress, ctx()), []);
});

test('ingress paths need a path type and absolute prefixes', () => {
  const s = strategy('networking.k8s.io', 'ingresses');
  const path = (p: Record<string, unknown>) => ({ metadata: { name: 'i' }, spec: { rules: [{ http: { paths: [{ backend: { service: { name: 's', port: { number: 80 } } }, ...p }] } }] } });
  assert.deepEqual(messages(s.validate(created(s, path({ path: '/' })), ctx())), ['spec.rules[0].http.paths[0].pathType: Required value: pathType must be specified']);
  assert.deepEqual(messages(s.validate(created(s, path({ path: 'x', pathType: 'Prefix' })), ctx())), [
    'spec.rules[0].http.paths[0].path: Invalid value: "x": must be an absolute path',
  ]);
});

test('network policies default policyTypes and port protocols', () => {
  const s = strategy('networking.k8s.io', 'networkpolicies');
  const cases: [string, Record<string, unknown>, string[]][] = [
    ['ingress only', { podSelector: {} }, ['Ingress']],
    ['with egress', { podSelector: {}, egress: [{}] }, ['Ingress', 'Egress']],
    ['explicit', { podSelector: {}, policyTypes: ['Egress'] }, ['Egress']],
  ];
  for (const [name, spec, types] of cases) {
    const np = created(s, { metadata: { name: 'n' }, spec });
    assert.deepEqual((np['spec'] as Record<string, unknown>)['policyTypes'], types, name);
  }
  const np = created(s, { metadata: { name: 'n' }, spec: { podSelector: {}, ingress: [{ ports: [{ port: 80 }] }] } });
  assert.deepEqual(np['spec'], { podSelector: {}, ingress: [{ ports: [{ port: 80, protocol: 'TCP' }] }], policyTypes: ['Ingress'] });
});

test('horizontal pod autoscalers (v2) default to 80% CPU and min 1 replica', () => {
  const s = strategy('autoscaling', 'horizontalpodautoscalers');
  const hpa = created(s, { metadata: { name: 'h' }, spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'd' }, maxReplicas: 3 } });
  assert.deepEqual(hpa['spec'], {
    scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'd' },
    maxReplicas: 3,
    minReplicas: 1,
    metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }],
  });
  assert.deepEqual(hpa['status'], { currentReplicas: 0, desiredReplicas: 0 });
});

test('pod disruption budgets start with a zero status', () => {
  const pdb = created(strategy('policy', 'poddisruptionbudgets'), { metadata: { name: 'p' }, spec: { minAvailable: 1 } });
  assert.deepEqual(pdb['status'], { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 });
});

test('priority classes: preemption default, reserved names, fixed value', () => {
  const s = strategy('scheduling.k8s.io', 'priorityclasses');
  const pc = created(s, { metadata: { name: 'high' }, value: 1000 });
  assert.equal(pc['preemptionPolicy'], 'PreemptLowerPriority');
  assert.deepEqual(messages(s.validate(created(s, { metadata: { name: 'system-mine' }, value: 1 }), ctx())), [
    `metadata.name: Invalid value: "system-mine": priority class names with 'system-' prefix are reserved`,
  ]);
  const next = updated(s, { ...pc, value: 2000, preemptionPolicy: 'Never' }, pc);
  assert.deepEqual(messages(s.validateUpdate(next, pc, ctx())), [
    'value: Forbidden: may not be changed in an update.',
    'preemptionPolicy: Invalid value: "Never": field is immutable',
  ]);
});

test('storage classes: reclaim and binding defaults; provisioner and parameters fixed', () => {
  const s = strategy('storage.k8s.io', 'storageclasses');
  const sc = created(s, { metadata: { name: 'fast' }, provisioner: 'example.com/disk' });
  assert.equal(sc['reclaimPolicy'], 'Delete');
  assert.equal(sc['volumeBindingMode'], 'Immediate');
  const next = updated(s, { ...sc, provisioner: 'other', parameters: { a: 'b' } }, sc);
  assert.deepEqual(messages(s.validateUpdate(next, sc, ctx())), [
    'parameters: Forbidden: updates to parameters are forbidden.',
    'provisioner: Forbidden: updates to provisioner are forbidden.',
  ]);
});

test('endpoint slices and endpoints default port protocols', () => {
  const slice = created(strategy('discovery.k8s.io', 'endpointslices'), {
    metadata: { name: 'e' }, addressType: 'IPv4', ports: [{ port: 80 }], endpoints: [{ addresses: ['10.1.0.1'] }],
  });
  assert.deepEqual(slice['ports'], [{ port: 80, name: '', protocol: 'TCP' }]);
  assert.deepEqual(slice['endpoints'], [{ addresses: ['10.1.0.1'], conditions: {} }]);
  const endpoints = created(strategy('', 'endpoints'), { metadata: { name: 'e' }, subsets: [{ ports: [{ port: 80 }] }] });
  assert.deepEqual(endpoints['subsets'], [{ ports: [{ port: 80, protocol: 'TCP' }] }]);
});

test('role bindings: roleRef defaults and may never change', () => {
  const s = strategy('rbac.authorization.k8s.io', 'rolebindings');
  const binding: KubeObject = {
    metadata: { name: 'b' },
    roleRef: { kind: 'Role', name: 'reader' },
    subjects: [{ kind: 'User', name: 'alice' }, { kind: 'ServiceAccount', name: 'default', namespace: 'ns' }],
  };
  const rb = created(s, binding);
  assert.deepEqual(rb['roleRef'], { kind: 'Role', name: 'reader', apiGroup: 'rbac.authorization.k8s.io' });
  assert.deepEqual(rb['subjects'], [
    { kind: 'User', name: 'alice', apiGroup: 'rbac.authorization.k8s.io' },
    { kind: 'ServiceAccount', name: 'default', namespace: 'ns', apiGroup: '' },
  ]);
  assert.deepEqual(s.validate(rb, ctx()), []);
  const next = updated(s, { ...rb, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'admin' } }, rb);
  assert.deepEqual(messages(s.validateUpdate(next, rb, ctx())), [
    'roleRef: Invalid value: {"APIGroup":"rbac.authorization.k8s.io","Kind":"ClusterRole","Name":"admin"}: cannot change roleRef',
  ]);
});

test('cluster role bindings reference cluster roles only', () => {
  const s = strategy('rbac.authorization.k8s.io', 'clusterrolebindings');
  const crb = created(s, { metadata: { name: 'b' }, roleRef: { kind: 'Role', name: 'r' }, subjects: [{ kind: 'Robot', name: 'x' }] });
  assert.deepEqual(messages(s.validate(crb, ctx())), [
    'roleRef.kind: Unsupported value: "Role": supported values: "ClusterRole"',
    'subjects[0].kind: Unsupported value: "Robot": supported values: "ServiceAccount", "User", "Group"',
  ]);
});

test('role rules: verbs, and either groups with resources or (cluster roles only) URLs', () => {
  const rules = (resource: string, rs: unknown[]) => {
    const s = strategy('rbac.authorization.k8s.io', resource);
    return messages(s.validate(created(s, { metadata: { name: 'r' }, rules: rs }), ctx()));
  };
  assert.deepEqual(rules('roles', [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }]), []);
  assert.deepEqual(rules('roles', [{}]), [
    'rules[0].verbs: Required value: verbs must contain at least one value',
    'rules[0].apiGroups: Required value: resource rules must supply at least one api group',
    'rules[0].resources: Required value: resource rules must supply at least one resource',
  ]);
  assert.deepEqual(rules('roles', [{ verbs: ['get'], nonResourceURLs: ['/x'] }]), ['rules[0].nonResourceURLs: Invalid value: ["/x"]: namespaced rules cannot apply to non-resource URLs']);
  assert.deepEqual(rules('clusterroles', [{ verbs: ['get'], nonResourceURLs: ['/x'] }]), []);
  assert.deepEqual(rules('clusterroles', [{ verbs: ['get'], nonResourceURLs: ['/x'], resources: ['pods'] }]), [
    'rules[0].nonResourceURLs: Invalid value: ["/x"]: rules cannot apply to both regular resources and non-resource URLs',
  ]);
});

test('cluster role aggregation rules need valid selectors', () => {
  const s = strategy('rbac.authorization.k8s.io', 'clusterroles');
  const check = (aggregationRule: unknown) => messages(s.validate(created(s, { metadata: { name: 'r' }, aggregationRule }), ctx()));
  assert.deepEqual(check({ clusterRoleSelectors: [{ matchLabels: { 'example.com/aggregate': 'true' } }] }), []);
  assert.deepEqual(check({}), ['aggregationRule.clusterRoleSelectors: Required value: at least one clusterRoleSelector required if aggregationRule is non-nil']);
  const bad = check({ clusterRoleSelectors: [{ matchExpressions: [{ key: 'k', operator: 'Foo' }] }] });
  assert.equal(bad.at(-1), 'aggregationRule.clusterRoleSelectors[0]: Invalid value: null: invalid label selector.');
  assert.ok(bad.length >= 2, bad.join('\n'));
});

test('role binding subjects: a service account may take the binding\'s namespace; names are checked', () => {
  const check = (resource: string, binding: Record<string, unknown>) => {
    const s = strategy('rbac.authorization.k8s.io', resource);
    return messages(s.validate(created(s, { metadata: { name: 'b' }, ...binding }), ctx()));
  };
  const sa = { roleRef: { kind: 'ClusterRole', name: 'view' }, subjects: [{ kind: 'ServiceAccount', name: 'builder' }] };
  assert.deepEqual(check('rolebindings', sa), []);
  assert.deepEqual(check('clusterrolebindings', sa), ['subjects[0].namespace: Required value']);
  assert.deepEqual(check('rolebindings', { roleRef: { kind: 'Role', name: 'a/b' }, subjects: [{ kind: 'ServiceAccount', name: 'Bad_Name' }] }), [
    'roleRef.name: Invalid value: "a/b": may not contain \'/\'',
    'subjects[0].name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, \'-\' or \'.\', and must start and end with an alphanumeric character (e.g. \'example.com\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\')',
  ]);
});
