import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../src/registry/object.js';
import { created, ctx, strategy } from './fixtures.js';
import { golden, withoutNullTimestamps } from './golden.js';

const container = (image: string) => ({ containers: [{ name: 'c', image }] });
const template = (app: string, spec: Record<string, unknown>) => ({ metadata: { labels: { app } }, spec });

/** What a client sent for each golden object (kubectl apply of a minimal manifest). */
const cases: { name: string; group: string; resource: string; input: KubeObject }[] = [
  {
    name: 'deployment-d1', group: 'apps', resource: 'deployments',
    input: { metadata: { name: 'd1', namespace: 'golden' }, spec: { selector: { matchLabels: { app: 'web' } }, template: template('web', container('nginx')) } },
  },
  {
    name: 'statefulset-ss1', group: 'apps', resource: 'statefulsets',
    input: {
      metadata: { name: 'ss1', namespace: 'golden' },
      spec: { serviceName: 's1', selector: { matchLabels: { app: 'db' } }, template: template('db', container('nginx')) },
    },
  },
  {
    name: 'daemonset-ds1', group: 'apps', resource: 'daemonsets',
    input: { metadata: { name: 'ds1', namespace: 'golden' }, spec: { selector: { matchLabels: { app: 'agent' } }, template: template('agent', container('nginx')) } },
  },
  {
    name: 'job-j1', group: 'batch', resource: 'jobs',
    input: {
      metadata: { name: 'j1', namespace: 'golden', uid: '4e998283-d2ed-485c-8b4c-8457f58ba17e' },
      spec: { template: { spec: { ...container('busybox'), restartPolicy: 'Never' } } },
    },
  },
  {
    name: 'cronjob-cj1', group: 'batch', resource: 'cronjobs',
    input: {
      metadata: { name: 'cj1', namespace: 'golden' },
      spec: { schedule: '*/5 * * * *', jobTemplate: { spec: { template: { spec: { ...container('busybox'), restartPolicy: 'Never' } } } } },
    },
  },
];

for (const { name, group, resource, input } of cases) {
  test(`${name} is defaulted field for field as upstream stored it`, () => {
    const s = strategy(group, resource);
    const object = created(s, input);
    const expected = withoutNullTimestamps(golden(name)) as KubeObject;
    assert.deepEqual(object['spec'], expected['spec']);
    assert.deepEqual(object['status'], expected['status']);
    assert.deepEqual(object.metadata?.labels, expected.metadata?.labels);
    assert.deepEqual(object.metadata?.annotations, expected.metadata?.annotations);
    assert.equal(object.metadata?.generation, 1);
    assert.deepEqual(s.validate(object, ctx()), []);
  });
}
