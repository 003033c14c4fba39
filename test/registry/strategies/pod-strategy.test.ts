import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../src/registry/object.js';
import { pullPolicyFor } from '../../../src/registry/strategies/pod-spec-defaults.js';
import { created, ctx, messages, strategy, testDeps, updated } from './fixtures.js';
import { golden } from './golden.js';

const ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';
/** A random source that spells `text` in the suffix alphabet. */
function spelling(text: string): () => number {
  let i = 0;
  return () => (ALPHABET.indexOf(text[i++ % text.length]!) + 0.5) / ALPHABET.length;
}

function pods(serviceAccountExists?: (ns: string, name: string) => boolean | undefined) {
  return strategy('', 'pods', testDeps({
    pods: { notReadyTolerationSeconds: 300, unreachableTolerationSeconds: 300, serviceAccountExists, random: spelling('652qs') },
  }));
}

const p1: KubeObject = { metadata: { name: 'p1', namespace: 'golden', labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } };

test('a pod is defaulted field for field as the golden p1 (service account known to exist)', () => {
  const pod = created(pods(() => true), p1);
  const expected = golden('pod-p1');
  assert.deepEqual(pod['spec'], expected['spec']);
  assert.deepEqual(pod['status'], expected['status']);
  assert.equal(pod.metadata?.generation, 1);
});

test('without a known service account no token volume is added', () => {
  for (const exists of [undefined, () => undefined, () => false]) {
    const spec = created(pods(exists), p1)['spec'] as Record<string, unknown>;
    assert.equal(spec['volumes'], undefined);
    assert.equal(spec['serviceAccountName'], 'default');
    assert.equal((spec['containers'] as Record<string, unknown>[])[0]!['volumeMounts'], undefined);
  }
});

test('automountServiceAccountToken: false opts out of the token volume', () => {
  const pod = created(pods(() => true), { ...p1, spec: { containers: [{ name: 'c', image: 'x' }], automountServiceAccountToken: false } });
  assert.equal((pod['spec'] as Record<string, unknown>)['volumes'], undefined);
});

test('image pull policy follows the tag', () => {
  const cases: [string, string][] = [
    ['nginx', 'Always'], ['nginx:latest', 'Always'], ['nginx:1.27', 'IfNotPresent'],
    ['localhost:5000/nginx', 'Always'], ['localhost:5000/nginx:v1', 'IfNotPresent'],
    ['nginx@sha256:abcd', 'IfNotPresent'], ['nginx:latest@sha256:abcd', 'Always'],
  ];
  for (const [image, policy] of cases) assert.equal(pullPolicyFor(image), policy, image);
});

test('QoS class: BestEffort, Burstable, Guaranteed (requests default to limits)', () => {
  const cases: [string, Record<string, unknown> | undefined, string][] = [
    ['none', undefined, 'BestEffort'],
    ['requests only', { requests: { cpu: '100m' } }, 'Burstable'],
    ['limits both', { limits: { cpu: '1', memory: '1Gi' } }, 'Guaranteed'],
    ['limits equal in other units', { limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '1000m', memory: '1024Mi' } }, 'Guaranteed'],
    ['limits cpu only', { limits: { cpu: '1' } }, 'Burstable'],
    ['requests below limits', { limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '500m' } }, 'Burstable'],
  ];
  for (const [name, resources, qos] of cases) {
    const pod = created(pods(), { metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'x', ...(resources ? { resources } : {}) }] } });
    assert.equal((pod['status'] as Record<string, unknown>)['qosClass'], qos, name);
  }
});

test('existing not-ready/unreachable tolerations are kept; a wildcard covers both', () => {
  const own = created(pods(), {
    metadata: { name: 'p' },
    spec: { containers: [{ name: 'c', image: 'x' }], tolerations: [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 5 }] },
  });
  assert.deepEqual((own['spec'] as Record<string, unknown>)['tolerations'], [
    { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 5 },
    { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
  ]);
  const wildcard = created(pods(), { metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'x' }], tolerations: [{ operator: 'Exists' }] } });
  assert.deepEqual((wildcard['spec'] as Record<string, unknown>)['tolerations'], [{ operator: 'Exists' }]);
});

test('toleration seconds come from the options', () => {
  const s = strategy('', 'pods', testDeps({ pods: { notReadyTolerationSeconds: 10, unreachableTolerationSeconds: 20 } }));
  const pod = created(s, p1);
  const seconds = ((pod['spec'] as Record<string, unknown>)['tolerations'] as Record<string, unknown>[]).map((t) => t['tolerationSeconds']);
  assert.deepEqual(seconds, [10, 20]);
});

test('validation of a new pod', () => {
  const cases: [string, Record<string, unknown>, string[]][] = [
    ['no containers', {}, ['spec.containers: Required value']],
    ['no image', { containers: [{ name: 'c' }] }, ['spec.containers[0].image: Required value']],
    ['duplicate names', { containers: [{ name: 'c', image: 'x' }, { name: 'c', image: 'y' }] }, ['spec.containers[1].name: Duplicate value: "c"']],
    ['bad restart policy', { containers: [{ name: 'c', image: 'x' }], restartPolicy: 'Sometimes' }, [
      'spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"',
    ]],
    ['bad port', { containers: [{ name: 'c', image: 'x', ports: [{ containerPort: 70000 }] }] }, [
      'spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive',
    ]],
  ];
  for (const [name, spec, expected] of cases) {
    const pod = created(pods(), { metadata: { name: 'p' }, spec });
    assert.deepEqual(messages(pods().validate(pod, ctx())), expected, name);
  }
});

test('updates may change images, add tolerations and shorten the deadline; nothing else', () => {
  const s = pods();
  const old = created(s, {
    metadata: { name: 'p' },
    spec: { containers: [{ name: 'c', image: 'x' }], activeDeadlineSeconds: 100, tolerations: [{ key: 'own', operator: 'Exists' }] },
  });
  const change = (mutate: (spec: Record<string, unknown>) => void) => {
    const next = structuredClone(old);
    mutate(next['spec'] as Record<string, unknown>);
    const prepared = updated(s, next, old);
    return messages(s.validateUpdate(prepared, old, ctx()));
  };
  const containers = (spec: Record<string, unknown>) => spec['containers'] as Record<string, unknown>[];
  assert.deepEqual(change((spec) => { containers(spec)[0]!['image'] = 'y'; }), []);
  assert.deepEqual(change((spec) => { spec['activeDeadlineSeconds'] = 50; }), []);
  assert.deepEqual(change((spec) => { (spec['tolerations'] as unknown[]).push({ key: 'k', operator: 'Exists' }); }), []);
  assert.deepEqual(change((spec) => { spec['activeDeadlineSeconds'] = 200; }), [
    'spec.activeDeadlineSeconds: Invalid value: 200: must be less than or equal to previous value',
  ]);
  assert.deepEqual(change((spec) => { spec['tolerations'] = [{ key: 'own', operator: 'Exists', tolerationSeconds: 5 }]; }), []);
  assert.deepEqual(change((spec) => { spec['tolerations'] = []; }), [
    'spec.tolerations: Forbidden: existing toleration can not be modified except its tolerationSeconds',
  ]);
  assert.deepEqual(change((spec) => { containers(spec).push({ name: 'd', image: 'z' }); }), [
    'spec.containers: Forbidden: pod updates may not add or remove containers',
  ]);
  const [message] = change((spec) => { containers(spec)[0]!['ports'] = [{ containerPort: 80 }]; });
  assert.ok(message?.startsWith(
    'spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,' +
      '`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),' +
      '`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)\n',
  ), message);
  assert.ok(message.includes('+ spec.containers[0].ports'), message);
});

test('an update counts generation on spec changes only and keeps status', () => {
  const s = pods();
  const old = created(s, p1);
  const relabeled = updated(s, { ...structuredClone(old), metadata: { ...old.metadata, labels: { x: 'y' } }, status: { phase: 'Running' } }, old);
  assert.equal(relabeled.metadata?.generation, 1);
  assert.deepEqual(relabeled['status'], old['status']);
  const next = structuredClone(old);
  ((next['spec'] as Record<string, unknown>)['containers'] as Record<string, unknown>[])[0]!['image'] = 'other';
  assert.equal(updated(s, next, old).metadata?.generation, 2);
});

test('grace period: requested, else the spec; 0 when unscheduled or finished; 1 for negative', () => {
  const s = pods();
  const pod = (spec: Record<string, unknown>, phase = 'Running'): KubeObject => ({ metadata: { name: 'p' }, spec, status: { phase } });
  const cases: [string, KubeObject, number | undefined, number][] = [
    ['unscheduled', pod({ terminationGracePeriodSeconds: 30 }), undefined, 0],
    ['scheduled default', pod({ nodeName: 'n1', terminationGracePeriodSeconds: 45 }), undefined, 45],
    ['requested', pod({ nodeName: 'n1', terminationGracePeriodSeconds: 45 }), 5, 5],
    ['requested zero', pod({ nodeName: 'n1' }), 0, 0],
    ['succeeded', pod({ nodeName: 'n1' }, 'Succeeded'), 10, 0],
    ['failed', pod({ nodeName: 'n1' }, 'Failed'), undefined, 0],
    ['negative', pod({ nodeName: 'n1' }), -5, 1],
  ];
  for (const [name, object, requested, expected] of cases) {
    assert.equal(s.gracePeriod(object, { gracePeriodSeconds: requested, dryRun: false }), expected, name);
  }
});
