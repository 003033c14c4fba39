import { test } from 'node:test';
import assert from 'node:assert/strict';
import { goldenObject } from '../metadata-only/golden-http.js';
import { ago, cellsByColumn } from './table-fixtures.js';

const template = { spec: { containers: [{ name: 'web', image: 'nginx:1' }, { name: 'side', image: 'envoy' }] } };

test('deployment with status', () => {
  const cells = cellsByColumn('apps', 'v1', 'deployments', {
    metadata: { name: 'd', creationTimestamp: ago(12 * 60) },
    spec: {
      replicas: 3,
      selector: { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'env', operator: 'In', values: ['prod', 'dev'] }] },
      template,
    },
    status: { replicas: 3, updatedReplicas: 2, readyReplicas: 1, availableReplicas: 1 },
  });
  assert.deepEqual(cells, {
    Name: 'd', Ready: '1/3', 'Up-to-date': 2, Available: 1, Age: '12m',
    Containers: 'web,side', Images: 'nginx:1,envoy', Selector: 'app=web,env in (dev,prod)',
  });
});

test('deployment without status (the captured d1)', () => {
  const cells = cellsByColumn('apps', 'v1', 'deployments', goldenObject('object-deployment-d1.json'));
  assert.deepEqual({ ...cells, Age: undefined }, {
    Name: 'd1', Ready: '0/1', 'Up-to-date': 0, Available: 0, Age: undefined, Containers: 'c', Images: 'nginx', Selector: 'app=web',
  });
});

test('deployment selector: empty prints "", an invalid operator "<invalid>"', () => {
  const selector = (value: unknown) => cellsByColumn('apps', 'v1', 'deployments', { spec: { selector: value } }).Selector;
  assert.equal(selector({}), '');
  assert.equal(selector({ matchExpressions: [{ key: 'a', operator: 'Near' }] }), '<invalid>');
  assert.equal(selector({ matchExpressions: [{ key: 'b', operator: 'DoesNotExist' }, { key: 'a', operator: 'Exists' }] }), 'a,!b');
});

test('replica sets and stateful sets', () => {
  const rs = cellsByColumn('apps', 'v1', 'replicasets', {
    metadata: { name: 'rs' }, spec: { replicas: 2, selector: {}, template }, status: { replicas: 2, readyReplicas: 1 },
  });
  assert.deepEqual([rs.Desired, rs.Current, rs.Ready, rs.Selector, rs.Age], [2, 2, 1, '<none>', '<unknown>']);
  const sts = cellsByColumn('apps', 'v1', 'statefulsets', { metadata: { name: 'db' }, spec: { replicas: 3, template }, status: { readyReplicas: 3 } });
  assert.deepEqual([sts.Ready, sts.Containers, sts.Images], ['3/3', 'web,side', 'nginx:1,envoy']);
});

test('daemon sets', () => {
  const cells = cellsByColumn('apps', 'v1', 'daemonsets', {
    metadata: { name: 'ds' },
    spec: { selector: { matchLabels: { app: 'agent' } }, template: { spec: { ...template.spec, nodeSelector: { 'kubernetes.io/os': 'linux' } } } },
    status: { desiredNumberScheduled: 4, currentNumberScheduled: 4, numberReady: 3, updatedNumberScheduled: 4, numberAvailable: 3 },
  });
  assert.deepEqual([cells.Desired, cells.Current, cells.Ready, cells['Up-to-date'], cells.Available, cells['Node Selector'], cells.Selector],
    [4, 4, 3, 4, 3, 'kubernetes.io/os=linux', 'app=agent']);
});

test('jobs: status, completions and duration', () => {
  const job = (spec: Record<string, unknown>, status: Record<string, unknown>, metadata: Record<string, unknown> = {}) =>
    cellsByColumn('batch', 'v1', 'jobs', { metadata: { name: 'j', ...metadata }, spec: { template, ...spec }, status });
  const done = job({ completions: 3 }, {
    succeeded: 3, startTime: ago(600), completionTime: ago(400), conditions: [{ type: 'Complete', status: 'True' }],
  });
  assert.deepEqual([done.Status, done.Completions, done.Duration], ['Complete', '3/3', '3m20s']);
  const runningJob = job({ parallelism: 4 }, { succeeded: 1, startTime: ago(90) });
  assert.deepEqual([runningJob.Status, runningJob.Completions, runningJob.Duration], ['Running', '1/1 of 4', '90s']);
  assert.equal(job({}, {}).Duration, '');
  assert.equal(job({}, {}).Completions, '0/1');
  assert.equal(job({}, { conditions: [{ type: 'Failed', status: 'True' }] }).Status, 'Failed');
  assert.equal(job({}, { conditions: [{ type: 'Suspended', status: 'True' }] }).Status, 'Suspended');
  assert.equal(job({}, { conditions: [{ type: 'Suspended', status: 'True' }] }, { deletionTimestamp: ago(1) }).Status, 'Terminating');
});

test('cron jobs (the captured cj1 and a scheduled one)', () => {
  const captured = cellsByColumn('batch', 'v1', 'cronjobs', goldenObject('object-cronjob-cj1.json'));
  assert.deepEqual([captured.Schedule, captured.Timezone, captured.Suspend, captured.Active, captured['Last Schedule']],
    ['*/5 * * * *', '<none>', 'False', 0, '<none>']);
  const scheduled = cellsByColumn('batch', 'v1', 'cronjobs', {
    spec: { schedule: '@hourly', timeZone: 'Etc/UTC', jobTemplate: { spec: { template } } },
    status: { active: [{ name: 'a' }], lastScheduleTime: ago(125) },
  });
  assert.deepEqual([scheduled.Timezone, scheduled.Suspend, scheduled.Active, scheduled['Last Schedule'], scheduled.Containers],
    ['Etc/UTC', '<unset>', 1, '2m5s', 'web,side']);
});
