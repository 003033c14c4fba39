import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FieldSet } from '../../src/apply/field-set.js';
import { FieldTypes } from '../../src/apply/field-types.js';
import { newObjectFields } from '../../src/apply/new-object-fields.js';
import { fieldElement } from '../../src/apply/path-element.js';
import { compare } from '../../src/apply/typed-walks.js';
import { loadBuiltinSchemas } from '../../src/registry/schema/schema-set.js';

const types = new FieldTypes(loadBuiltinSchemas());
const f = (...names: string[]) => names.map(fieldElement);
const SERVER = FieldSet.of([f('apiVersion'), f('kind'), f('metadata'), ...['name', 'namespace', 'uid', 'creationTimestamp', 'generation', 'resourceVersion'].map((n) => f('metadata', n))]);

/** What the general path (compare with nothing, then leave out what nobody owns) records. */
function generalPath(schema: string, object: Record<string, unknown>, resetStatus: boolean): Record<string, unknown> | undefined {
  let set = compare(types, types.root(schema), undefined, object).added.difference(SERVER);
  if (resetStatus) set = set.withoutTrees(FieldSet.of([f('status')]));
  return set.isEmpty() ? undefined : set.toFieldsV1();
}

const cases: Array<[string, string, Record<string, unknown>, boolean]> = [
  ['a ConfigMap', 'io.k8s.api.core.v1.ConfigMap', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'n', uid: 'u', labels: { a: 'b' }, annotations: {} }, data: { k: 'v', e: '' }, immutable: false }, false],
  ['a ConfigMap with nothing of its own', 'io.k8s.api.core.v1.ConfigMap', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } }, false],
  [
    'a defaulted Deployment',
    'io.k8s.api.apps.v1.Deployment',
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'd', generation: 1, finalizers: ['x'] },
      spec: {
        replicas: 2,
        selector: { matchLabels: { app: 'w' } },
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%' } },
        template: {
          metadata: { labels: { app: 'w' } },
          spec: {
            containers: [
              { name: 'b', image: 'i', ports: [{ containerPort: 80 }, { containerPort: 53, protocol: 'UDP' }], env: [{ name: 'Z', value: '1' }, { name: 'A', value: '2' }], args: ['x'], resources: {} },
              { name: 'a', image: 'j' },
            ],
            tolerations: [{ key: 'k', operator: 'Exists' }],
            nodeSelector: { disk: 'ssd' },
          },
        },
      },
      status: { replicas: 0 },
    },
    true,
  ],
];

describe('newObjectFields', () => {
  for (const [what, schema, object, resetStatus] of cases) {
    it(`records what the general path records for ${what}`, () => {
      const fast = newObjectFields(types, types.root(schema), object, resetStatus);
      assert.deepEqual(fast, generalPath(schema, object, resetStatus));
      assert.equal(JSON.stringify(fast), JSON.stringify(generalPath(schema, object, resetStatus)));
    });
  }
});
