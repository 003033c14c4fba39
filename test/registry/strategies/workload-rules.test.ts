import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../src/registry/object.js';
import { created, ctx, messages, strategy, updated } from './fixtures.js';

const podTemplate = (labels: Record<string, string>, extra: Record<string, unknown> = {}) => ({
  metadata: { labels },
  spec: { containers: [{ name: 'c', image: 'nginx' }], ...extra },
});
const deployment = (selector: Record<string, string>, labels: Record<string, string>): KubeObject => ({
  metadata: { name: 'd1' },
  spec: { selector: { matchLabels: selector }, template: podTemplate(labels) },
});

test('deployment validation messages', () => {
  const s = strategy('apps', 'deployments');
  const cases: [string, KubeObject, string[]][] = [
    ['ok', deployment({ app: 'web' }, { app: 'web', tier: 'x' }), []],
    ['mismatch', deployment({ app: 'web' }, { app: 'api' }), [
      'spec.template.metadata.labels: Invalid value: {"app":"api"}: `selector` does not match template `labels`',
    ]],
    ['empty selector', deployment({}, { app: 'web' }), [
      'spec.selector: Invalid value: {}: empty selector is invalid for deployment',
    ]],
    ['no selector', { metadata: { name: 'd' }, spec: { template: podTemplate({ app: 'web' }) } }, ['spec.selector: Required value']],
    ['restart policy', { metadata: { name: 'd' }, spec: { selector: { matchLabels: { a: 'b' } }, template: podTemplate({ a: 'b' }, { restartPolicy: 'Never' }) } }, [
      'spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"',
    ]],
    ['negative replicas', { ...deployment({ a: 'b' }, { a: 'b' }), spec: { ...deployment({ a: 'b' }, { a: 'b' })['spec'] as object, replicas: -1 } }, [
      'spec.replicas: Invalid value: -1: must be greater than or equal to 0',
    ]],
  ];
  for (const [name, input, expected] of cases) assert.deepEqual(messages(s.validate(created(s, input), ctx())), expected, name);
});

test('selectors are validated as upstream does, and an invalid one is not matched against the template', () => {
  const withSelector = (selector: Record<string, unknown>, labels: Record<string, string>): KubeObject => ({
    metadata: { name: 'w1' },
    spec: { selector, template: podTemplate(labels) },
  });
  const unknownOperator = { matchExpressions: [{ key: 'tier', operator: 'Foo' }] };
  assert.deepEqual(messages(strategy('apps', 'deployments').validate(created(strategy('apps', 'deployments'), withSelector(unknownOperator, { app: 'web' })), ctx())), [
    'spec.selector.matchExpressions[0].operator: Invalid value: "Foo": not a valid selector operator',
    'spec.selector: Invalid value: {"matchExpressions":[{"key":"tier","operator":"Foo"}]}: invalid label selector',
  ]);
  const daemonSets = strategy('apps', 'daemonsets');
  const cases: [string, Record<string, unknown>, string[]][] = [
    ['In without values', { matchExpressions: [{ key: 'tier', operator: 'In' }] }, [
      "spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
    ]],
    ['Exists with values', { matchExpressions: [{ key: 'tier', operator: 'Exists', values: ['x'] }] }, [
      "spec.selector.matchExpressions[0].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
    ]],
    ['bad key and value', { matchExpressions: [{ key: '-tier', operator: 'In', values: ['a b'] }] }, [
      "spec.selector.matchExpressions[0].key: Invalid value: \"-tier\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
      "spec.selector.matchExpressions[0].values[0]: Invalid value: \"a b\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
    ]],
    ['bad matchLabels value', { matchLabels: { app: 'a b' } }, [
      "spec.selector.matchLabels: Invalid value: \"a b\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
    ]],
    ['valid expressions that select the template', { matchExpressions: [{ key: 'app', operator: 'In', values: ['web', 'api'] }, { key: 'canary', operator: 'DoesNotExist' }] }, []],
  ];
  for (const [name, selector, expected] of cases) {
    assert.deepEqual(messages(daemonSets.validate(created(daemonSets, withSelector(selector, { app: 'web' })), ctx())), expected, name);
  }
});

test('deployment selectors are immutable (apps/v1)', () => {
  const s = strategy('apps', 'deployments');
  const old = created(s, deployment({ app: 'web' }, { app: 'web' }));
  const next = updated(s, deployment({ app: 'web2' }, { app: 'web2' }), old);
  assert.deepEqual(messages(s.validateUpdate(next, old, ctx())), [
    'spec.selector: Invalid value: {"matchLabels":{"app":"web2"}}: field is immutable',
  ]);
  const scaled = updated(s, { ...structuredClone(old), spec: { ...(old['spec'] as object), replicas: 3 } }, old);
  assert.deepEqual(s.validateUpdate(scaled, old, ctx()), []);
  assert.equal(scaled.metadata?.generation, 2);
  assert.deepEqual(scaled['status'], {});
});

test('replica sets and replication controllers start with replicas 0 in status', () => {
  const rs = created(strategy('apps', 'replicasets'), deployment({ app: 'web' }, { app: 'web' }));
  assert.deepEqual(rs['status'], { replicas: 0 });
  assert.equal((rs['spec'] as Record<string, unknown>)['replicas'], 1);
  const rc = created(strategy('', 'replicationcontrollers'), { metadata: { name: 'rc' }, spec: { template: podTemplate({ app: 'web' }) } });
  assert.deepEqual((rc['spec'] as Record<string, unknown>)['selector'], { app: 'web' });
  assert.deepEqual(rc.metadata?.labels, { app: 'web' });
  assert.deepEqual(rc['status'], { replicas: 0 });
});

test('a daemon set counts template changes in its template-generation annotation', () => {
  const s = strategy('apps', 'daemonsets');
  const old = created(s, deployment({ app: 'a' }, { app: 'a' }));
  const sameTemplate = updated(s, { ...structuredClone(old), metadata: { name: 'd1', annotations: { 'deprecated.daemonset.template.generation': '9' } } }, old);
  assert.equal(sameTemplate.metadata?.annotations?.['deprecated.daemonset.template.generation'], '1');
  const changed = structuredClone(old);
  (((changed['spec'] as Record<string, unknown>)['template'] as Record<string, unknown>)['spec'] as Record<string, unknown>)['containers'] = [
    { name: 'c', image: 'other' },
  ];
  const next = updated(s, changed, old);
  assert.equal(next.metadata?.annotations?.['deprecated.daemonset.template.generation'], '2');
  assert.equal(next.metadata?.generation, 2);
});

test('stateful sets forbid changes outside the updatable fields', () => {
  const s = strategy('apps', 'statefulsets');
  const old = created(s, { ...deployment({ app: 'db' }, { app: 'db' }), metadata: { name: 'ss' } });
  const scaled = updated(s, { ...structuredClone(old), spec: { ...(old['spec'] as object), replicas: 5 } }, old);
  assert.deepEqual(s.validateUpdate(scaled, old, ctx()), []);
  const renamed = updated(s, { ...structuredClone(old), spec: { ...(old['spec'] as object), serviceName: 'other' } }, old);
  assert.deepEqual(messages(s.validateUpdate(renamed, old, ctx())), [
    "spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', " +
      "'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
  ]);
});

test('stateful set claim templates are defaulted as claims', () => {
  const s = strategy('apps', 'statefulsets');
  const ss = created(s, { ...deployment({ app: 'db' }, { app: 'db' }), spec: {
    ...(deployment({ app: 'db' }, { app: 'db' })['spec'] as object),
    volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }],
  } });
  const claim = ((ss['spec'] as Record<string, unknown>)['volumeClaimTemplates'] as Record<string, unknown>[])[0]!;
  assert.equal((claim['spec'] as Record<string, unknown>)['volumeMode'], 'Filesystem');
  assert.deepEqual(claim['status'], { phase: 'Pending' });
});

test('jobs: generated selector, manual selector, restart policy, immutable template', () => {
  const s = strategy('batch', 'jobs');
  const base = { metadata: { name: 'j', uid: 'u1' }, spec: { template: { spec: { containers: [{ name: 'c', image: 'x' }], restartPolicy: 'Never' } } } };
  const job = created(s, base);
  assert.deepEqual((job['spec'] as Record<string, unknown>)['selector'], { matchLabels: { 'batch.kubernetes.io/controller-uid': 'u1' } });

  const manual = created(s, { ...base, spec: { ...base.spec, manualSelector: true, selector: { matchLabels: { a: 'b' } }, template: { ...base.spec.template, metadata: { labels: { a: 'b' } } } } });
  assert.deepEqual((manual['spec'] as Record<string, unknown>)['selector'], { matchLabels: { a: 'b' } });
  assert.deepEqual(s.validate(manual, ctx()), []);

  const foreign = created(s, { ...base, spec: { ...base.spec, selector: { matchLabels: { a: 'b' } }, template: { ...base.spec.template, metadata: { labels: { a: 'b' } } } } });
  assert.ok(messages(s.validate(foreign, ctx())).some((m) => m.endsWith('`selector` not auto-generated')));

  const always = created(s, { ...base, spec: { template: { spec: { containers: [{ name: 'c', image: 'x' }] } } } });
  assert.deepEqual(messages(s.validate(always, ctx())), [
    'spec.template.spec.restartPolicy: Unsupported value: "Always": supported values: "OnFailure", "Never"',
  ]);

  const changed = structuredClone(job);
  (((changed['spec'] as Record<string, unknown>)['template'] as Record<string, unknown>)['spec'] as Record<string, unknown>)['containers'] = [{ name: 'c', image: 'y' }];
  const next = updated(s, changed, job);
  assert.ok(messages(s.validateUpdate(next, job, ctx())).some((m) => m.startsWith('spec.template: Invalid value: {') && m.endsWith(': field is immutable')));
});

test('cron job names are at most 52 characters', () => {
  const s = strategy('batch', 'cronjobs');
  const name = 'x'.repeat(53);
  const cj = created(s, { metadata: { name }, spec: { schedule: '* * * * *', jobTemplate: { spec: { template: { spec: { containers: [{ name: 'c', image: 'x' }], restartPolicy: 'OnFailure' } } } } } });
  assert.deepEqual(messages(s.validate(cj, ctx())), [`metadata.name: Invalid value: "${name}": must be no more than 52 characters`]);
});

test('persistent volume claims: defaults, requirements, immutable spec except size', () => {
  const s = strategy('', 'persistentvolumeclaims');
  const pvc = created(s, { metadata: { name: 'pvc1' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } });
  assert.deepEqual(pvc['spec'], { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, volumeMode: 'Filesystem' });
  assert.deepEqual(pvc['status'], { phase: 'Pending' });
  assert.deepEqual(messages(s.validate(created(s, { metadata: { name: 'p' }, spec: {} }), ctx())), [
    'spec.accessModes: Required value: at least 1 access mode is required',
    'spec.resources[storage]: Required value',
  ]);
  const bigger = updated(s, { ...structuredClone(pvc), spec: { ...(pvc['spec'] as object), resources: { requests: { storage: '2Gi' } } } }, pvc);
  assert.deepEqual(s.validateUpdate(bigger, pvc, ctx()), []);
  const modes = updated(s, { ...structuredClone(pvc), spec: { ...(pvc['spec'] as object), accessModes: ['ReadWriteMany'] } }, pvc);
  assert.equal(s.validateUpdate(modes, pvc, ctx()).length, 1);
});
