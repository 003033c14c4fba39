/**
 * The pods/resize rules the end-to-end test does not reach: init containers (sidecars or not),
 * pods that cannot be resized at all, resizePolicy, container order, and quantities compared by
 * value.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../src/registry/object.js';
import { created, ctx, messages, strategy, updated } from './fixtures.js';

type Json = Record<string, any>;

const RESIZE = ctx({ subresource: 'resize' });
const burstable = { requests: { cpu: '100m', memory: '64Mi' }, limits: { cpu: '200m', memory: '128Mi' } };

function pod(spec: Json, metadata: Json = {}): KubeObject {
  return created(strategy('', 'pods'), { metadata: { name: 'p', ...metadata }, spec });
}

const sidecarPod = () =>
  pod({
    initContainers: [
      { name: 'setup', image: 'x', resources: structuredClone(burstable) },
      { name: 'proxy', image: 'x', restartPolicy: 'Always', resources: structuredClone(burstable) },
    ],
    containers: [{ name: 'c', image: 'x', resources: structuredClone(burstable) }],
  });

/** The field errors of a resize that applies `mutate` to a copy of `old`. */
function resize(old: KubeObject, mutate: (pod: Json) => void): string[] {
  const s = strategy('', 'pods');
  const next = structuredClone(old) as Json;
  mutate(next);
  const prepared = updated(s, next, old, RESIZE);
  return messages(s.validateUpdate(prepared, old, RESIZE));
}

test('a write carries over resources and resizePolicy only, of every container', () => {
  const old = sidecarPod();
  const next = structuredClone(old) as Json;
  next['metadata'].labels = { a: 'b' };
  next['spec'].nodeName = 'elsewhere';
  next['spec'].containers[0].image = 'y';
  next['spec'].containers[0].resources.requests.cpu = '150m';
  next['spec'].containers[0].resizePolicy = [{ resourceName: 'memory', restartPolicy: 'RestartContainer' }];
  next['spec'].initContainers[1].resources.limits.cpu = '300m';
  const prepared = updated(strategy('', 'pods'), next, old, RESIZE) as Json;
  assert.equal(prepared['metadata'].labels, undefined);
  assert.equal(prepared['spec'].nodeName, undefined);
  assert.equal(prepared['spec'].containers[0].image, 'x');
  assert.equal(prepared['spec'].containers[0].resources.requests.cpu, '150m');
  assert.deepEqual(prepared['spec'].containers[0].resizePolicy, [{ resourceName: 'memory', restartPolicy: 'RestartContainer' }]);
  assert.equal(prepared['spec'].initContainers[1].resources.limits.cpu, '300m');
  assert.equal(prepared['metadata'].generation, 2);
});

test('sidecars resize like containers; other init containers keep their resources', () => {
  const old = sidecarPod();
  assert.deepEqual(resize(old, (p) => { p['spec'].initContainers[1].resources.requests.memory = '96Mi'; }), []);
  assert.deepEqual(resize(old, (p) => { p['spec'].initContainers[0].resources.requests.memory = '96Mi'; }), [
    'spec: Forbidden: resources for non-sidecar init containers are immutable',
  ]);
  assert.deepEqual(resize(old, (p) => { delete p['spec'].initContainers[1].resources.limits.cpu; }), [
    'spec.initContainers[1].resources.limits: Forbidden: resource limits cannot be removed',
  ]);
  assert.deepEqual(resize(old, (p) => { p['spec'].initContainers[1].resources.limits['ephemeral-storage'] = '1Gi'; }), [
    'spec: Forbidden: only cpu and memory resources for sidecar containers are mutable',
  ]);
});

test('pods with pod-level resources, static pods and Windows pods cannot be resized', () => {
  const bump = (p: Json) => { p['spec'].containers[0].resources.requests.cpu = '150m'; };
  const container = { name: 'c', image: 'x', resources: structuredClone(burstable) };
  const cases: [string, KubeObject, string][] = [
    ['pod-level', pod({ containers: [container], resources: { limits: { cpu: '1' } } }), 'pods with pod-level resources cannot be resized'],
    ['static', pod({ containers: [container], nodeName: 'n' }, { annotations: { 'kubernetes.io/config.mirror': 'x' } }), 'static pods cannot be resized'],
    ['windows', pod({ containers: [container], os: { name: 'windows' } }), 'windows pods cannot be resized'],
  ];
  for (const [name, old, message] of cases) assert.deepEqual(resize(old, bump), [`[]: Forbidden: ${message}`], name);
});

test('a pod running on a node that reports no container resources cannot be resized', () => {
  const old = pod({ containers: [{ name: 'c', image: 'x', resources: structuredClone(burstable) }] }) as Json;
  old['status'].containerStatuses = [{ name: 'c', state: { running: {} } }];
  const bump = (p: Json) => { p['spec'].containers[0].resources.requests.cpu = '150m'; };
  assert.deepEqual(resize(old, bump), ['spec: Forbidden: Pod running on node without support for resize']);
  old['status'].containerStatuses[0].resources = structuredClone(burstable);
  assert.deepEqual(resize(old, bump), []);
});

test('containers may not be reordered, and their resizePolicy may not change', () => {
  const two = pod({ containers: [{ name: 'a', image: 'x' }, { name: 'b', image: 'x' }] });
  assert.deepEqual(resize(two, (p) => { p['spec'].containers.reverse(); }), [
    'spec.containers[0].name: Forbidden: containers may not be renamed or reordered on resize',
    'spec.containers[1].name: Forbidden: containers may not be renamed or reordered on resize',
  ]);
  assert.deepEqual(resize(two, (p) => { p['spec'].containers[0].resizePolicy = [{ resourceName: 'cpu', restartPolicy: 'RestartContainer' }]; }), [
    'spec: Forbidden: only cpu and memory resources are mutable',
  ]);
  assert.deepEqual(resize(two, (p) => { p['spec'].containers[0].resizePolicy = []; }), [], 'an empty policy list is no policy');
});

test('other resources compare by value and may not be added to a container without resources', () => {
  const old = pod({ containers: [{ name: 'c', image: 'x', resources: { requests: { cpu: '100m', 'ephemeral-storage': '1Gi' } } }] });
  assert.deepEqual(resize(old, (p) => { p['spec'].containers[0].resources.requests['ephemeral-storage'] = '1024Mi'; }), []);
  const bare = pod({ containers: [{ name: 'c', image: 'x' }] });
  assert.deepEqual(resize(bare, (p) => { p['spec'].containers[0].resources = { requests: { 'ephemeral-storage': '1Gi' } }; }), [
    'spec: Forbidden: only cpu and memory resources are mutable',
  ]);
  // Upstream 1.35 rebuilds resources without their claims before comparing, so such a container never resizes.
  const claimed = pod({ containers: [{ name: 'c', image: 'x', resources: { requests: { cpu: '100m' }, claims: [{ name: 'gpu' }] } }] });
  assert.deepEqual(resize(claimed, (p) => { p['spec'].containers[0].resources.requests.cpu = '150m'; }), [
    'spec: Forbidden: only cpu and memory resources are mutable',
  ]);
});

test('cpu and memory may not go negative', () => {
  const old = pod({ containers: [{ name: 'c', image: 'x', resources: { requests: { cpu: '100m', memory: '64Mi' } } }] });
  assert.deepEqual(resize(old, (p) => { p['spec'].containers[0].resources.requests.cpu = '-1'; }), [
    'spec.containers[0].resources.requests[cpu]: Invalid value: "-1": must be greater than or equal to 0',
  ]);
});
