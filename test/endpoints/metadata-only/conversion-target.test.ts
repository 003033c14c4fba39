import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readConversionTarget } from '../../../src/endpoints/metadata-only/conversion-target.js';

const cases: readonly { name: string; params: Record<string, string>; expected: unknown }[] = [
  { name: 'no parameters', params: {}, expected: { type: 'none' } },
  { name: 'unrelated parameters', params: { q: '0.9', pretty: '1' }, expected: { type: 'none' } },
  {
    name: 'kubectl get, v1',
    params: { as: 'Table', v: 'v1', g: 'meta.k8s.io' },
    expected: { type: 'conversion', target: { kind: 'Table', group: 'meta.k8s.io', version: 'v1', spelling: 'k8s' } },
  },
  {
    name: 'kubectl get, v1beta1 fallback',
    params: { as: 'Table', v: 'v1beta1', g: 'meta.k8s.io' },
    expected: { type: 'conversion', target: { kind: 'Table', group: 'meta.k8s.io', version: 'v1beta1', spelling: 'k8s' } },
  },
  {
    name: 'the spec spelling',
    params: { as: 'PartialObjectMetadataList', g: 'meta.cluster.io', v: 'v1' },
    expected: {
      type: 'conversion',
      target: { kind: 'PartialObjectMetadataList', group: 'meta.cluster.io', version: 'v1', spelling: 'cluster' },
    },
  },
  {
    name: 'parameter names are case-insensitive',
    params: { AS: 'PartialObjectMetadata', G: 'meta.k8s.io', V: 'v1' },
    expected: { type: 'conversion', target: { kind: 'PartialObjectMetadata', group: 'meta.k8s.io', version: 'v1', spelling: 'k8s' } },
  },
];

for (const c of cases) {
  test(`conversion target: ${c.name}`, () => {
    assert.deepEqual(readConversionTarget(c.params), c.expected);
  });
}

const unsupported: readonly Record<string, string>[] = [
  { as: 'Table' },
  { as: 'Table', g: 'meta.k8s.io' },
  { as: 'Table', g: 'meta.k8s.io', v: 'v2' },
  { as: 'Table', g: 'apps', v: 'v1' },
  { as: 'table', g: 'meta.k8s.io', v: 'v1' },
  { as: 'Deployment', g: 'meta.k8s.io', v: 'v1' },
  { g: 'meta.k8s.io', v: 'v1' },
];

for (const params of unsupported) {
  test(`conversion target unsupported: ${JSON.stringify(params)}`, () => {
    assert.equal(readConversionTarget(params).type, 'unsupported');
  });
}

test('a Map of parameters works like a record', () => {
  const result = readConversionTarget(new Map([['as', 'Table'], ['g', 'meta.k8s.io'], ['v', 'v1']]));
  assert.equal(result.type, 'conversion');
});
