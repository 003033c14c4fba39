import { test } from 'node:test';
import assert from 'node:assert/strict';
import { toTable } from '../../../src/endpoints/table/to-table.js';
import { goldenObject } from '../metadata-only/golden-http.js';
import { NOW, ago, cellsByColumn, definition } from './table-fixtures.js';

function pod(status: Record<string, unknown>, spec: Record<string, unknown> = {}, metadata: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p', namespace: 'ns', creationTimestamp: ago(3 * 3600 + 300), ...metadata },
    spec: { containers: [{ name: 'app', image: 'nginx' }, { name: 'log', image: 'busybox' }], ...spec },
    status,
  };
}

const running = (name: string, restarts = 0, finishedAt?: string): Record<string, unknown> => ({
  name,
  ready: true,
  restartCount: restarts,
  state: { running: { startedAt: ago(100) } },
  ...(finishedAt === undefined ? {} : { lastState: { terminated: { exitCode: 1, finishedAt } } }),
});

const podCells = (object: Record<string, unknown>) => cellsByColumn('', 'v1', 'pods', object);

test('pending pod (the captured p1): 0/1 Pending, no restarts, <none> for IP and node', () => {
  const cells = podCells(goldenObject('object-pod-p1.json'));
  assert.deepEqual(
    { ...cells, Age: undefined },
    { Name: 'p1', Ready: '0/1', Status: 'Pending', Restarts: '0', Age: undefined, IP: '<none>', Node: '<none>', 'Nominated Node': '<none>', 'Readiness Gates': '<none>' },
  );
});

test('running pod with restarts shows the time of the last one', () => {
  const cells = podCells(pod(
    {
      phase: 'Running',
      podIP: '10.1.2.3',
      podIPs: [{ ip: '10.1.2.3' }, { ip: 'fd00::3' }],
      conditions: [{ type: 'Ready', status: 'True' }],
      containerStatuses: [running('app', 3, ago(200)), running('log', 1, ago(3000))],
    },
    { nodeName: 'node-1', readinessGates: [{ conditionType: 'example.com/gate' }] },
  ));
  assert.deepEqual(cells, {
    Name: 'p',
    Ready: '2/2',
    Status: 'Running',
    Restarts: '4 (3m20s ago)',
    Age: '3h5m',
    IP: '10.1.2.3',
    Node: 'node-1',
    'Nominated Node': '<none>',
    'Readiness Gates': '0/1',
  });
});

test('restarts without a recorded termination time print the bare count', () => {
  const cells = podCells(pod({ phase: 'Running', containerStatuses: [running('app', 2), running('log')] }));
  assert.equal(cells.Restarts, '2');
});

test('a waiting container gives its reason; the first container wins', () => {
  const cells = podCells(pod({
    phase: 'Running',
    containerStatuses: [
      { name: 'app', ready: false, restartCount: 5, state: { waiting: { reason: 'CrashLoopBackOff' } } },
      { name: 'log', ready: false, restartCount: 0, state: { waiting: { reason: 'ImagePullBackOff' } } },
    ],
  }));
  assert.equal(cells.Status, 'CrashLoopBackOff');
  assert.equal(cells.Ready, '0/2');
});

test('terminated containers: reason, or ExitCode/Signal when there is none', () => {
  const terminated = (t: Record<string, unknown>) => podCells(pod({
    phase: 'Failed',
    containerStatuses: [{ name: 'app', state: { terminated: t } }],
  }, { containers: [{ name: 'app' }] }));
  assert.equal(terminated({ exitCode: 137, reason: 'OOMKilled' }).Status, 'OOMKilled');
  assert.equal(terminated({ exitCode: 2 }).Status, 'ExitCode:2');
  assert.equal(terminated({ exitCode: 0, signal: 9 }).Status, 'Signal:9');
});

test('a completed pod with a ready running container reads Running, without Ready condition NotReady', () => {
  const status = (conditions: unknown[]) => ({
    phase: 'Running',
    conditions,
    containerStatuses: [
      { name: 'app', state: { terminated: { exitCode: 0, reason: 'Completed' } } },
      running('log'),
    ],
  });
  assert.equal(podCells(pod(status([{ type: 'Ready', status: 'True' }]))).Status, 'Running');
  assert.equal(podCells(pod(status([]))).Status, 'NotReady');
});

test('init containers: Init:i/n, Init:<reason>, Init:ExitCode', () => {
  const initPod = (statuses: unknown[]) => pod(
    { phase: 'Pending', initContainerStatuses: statuses },
    { initContainers: [{ name: 'one' }, { name: 'two' }] },
  );
  const done = { name: 'one', state: { terminated: { exitCode: 0 } } };
  assert.equal(podCells(initPod([done, { name: 'two', state: { running: {} } }])).Status, 'Init:1/2');
  assert.equal(podCells(initPod([{ name: 'one', state: { waiting: { reason: 'ErrImagePull' } } }])).Status, 'Init:ErrImagePull');
  assert.equal(podCells(initPod([{ name: 'one', state: { waiting: { reason: 'PodInitializing' } } }])).Status, 'Init:0/2');
  assert.equal(podCells(initPod([{ name: 'one', state: { terminated: { exitCode: 3 } } }])).Status, 'Init:ExitCode:3');
  assert.equal(podCells(initPod([{ name: 'one', state: { terminated: { exitCode: 1, reason: 'Error' } } }])).Status, 'Init:Error');
});

test('a started sidecar counts towards READY and does not block initialization', () => {
  const cells = podCells(pod(
    {
      phase: 'Running',
      conditions: [{ type: 'Initialized', status: 'True' }, { type: 'Ready', status: 'True' }],
      initContainerStatuses: [{ name: 'proxy', started: true, ready: true, restartCount: 1, state: { running: {} } }],
      containerStatuses: [running('app'), running('log')],
    },
    { initContainers: [{ name: 'proxy', restartPolicy: 'Always' }] },
  ));
  assert.equal(cells.Ready, '3/3');
  assert.equal(cells.Status, 'Running');
  assert.equal(cells.Restarts, '1');
});

test('deletion: Terminating, Unknown for a lost node, phase kept once terminal', () => {
  const deleting = { deletionTimestamp: ago(5) };
  assert.equal(podCells(pod({ phase: 'Running', containerStatuses: [running('app')] }, {}, deleting)).Status, 'Terminating');
  assert.equal(podCells(pod({ phase: 'Running', reason: 'NodeLost' }, {}, deleting)).Status, 'Unknown');
  assert.equal(podCells(pod({ phase: 'Succeeded' }, {}, deleting)).Status, 'Succeeded');
});

test('status.reason and SchedulingGated replace the phase', () => {
  assert.equal(podCells(pod({ phase: 'Failed', reason: 'Evicted' })).Status, 'Evicted');
  assert.equal(podCells(pod({ phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False', reason: 'SchedulingGated' }] })).Status, 'SchedulingGated');
});

test('nominated node and readiness gates in the wide columns', () => {
  const cells = podCells(pod(
    { phase: 'Pending', nominatedNodeName: 'node-2', conditions: [{ type: 'g1', status: 'True' }, { type: 'g2', status: 'False' }] },
    { readinessGates: [{ conditionType: 'g1' }, { conditionType: 'g2' }] },
  ));
  assert.equal(cells['Nominated Node'], 'node-2');
  assert.equal(cells['Readiness Gates'], '1/2');
});

test('succeeded and failed pods carry a Completed row condition', () => {
  const table = toTable(definition('', 'v1', 'pods'), [pod({ phase: 'Succeeded' }), pod({ phase: 'Running' })], {
    includeObject: 'None', now: NOW, groupVersionSpelling: 'k8s',
  });
  assert.deepEqual(table.rows?.[0].conditions?.map((c) => [c.type, c.status, c.reason]), [['Completed', 'True', 'Succeeded']]);
  assert.deepEqual(Object.keys(table.rows?.[0] ?? {}), ['cells', 'conditions', 'object']);
  assert.equal(table.rows?.[1].conditions, undefined);
});
