import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  toPartialObjectMetadata,
  toPartialObjectMetadataList,
} from '../../../src/endpoints/metadata-only/partial-object-metadata.js';
import { goldenBody } from './golden-http.js';

/** Same JSON including key order. */
function assertSameJson(actual: unknown, expected: unknown): void {
  assert.equal(JSON.stringify(actual, null, 2), JSON.stringify(expected, null, 2));
}

/** Rebuilds the stored config maps behind a captured metadata list: its metadata plus a body. */
function configMapsFrom(items: readonly Record<string, unknown>[]): Record<string, unknown>[] {
  return items.map((item) => ({ kind: 'ConfigMap', apiVersion: 'v1', metadata: item.metadata, data: { k: 'v' } }));
}

test('PartialObjectMetadataList reproduces the captured upstream list field for field', () => {
  const golden = goldenBody('pom-list.txt');
  const items = golden.items as Record<string, unknown>[];
  const list = toPartialObjectMetadataList(configMapsFrom(items), { resourceVersion: '214', continue: '' }, 'k8s');
  assertSameJson(list, golden);
});

test('list items carry kind PartialObjectMetadata and the list apiVersion', () => {
  const list = toPartialObjectMetadataList([{ metadata: { name: 'a' } }], { resourceVersion: '1' }, 'k8s');
  assert.equal(list.items?.[0].kind, 'PartialObjectMetadata');
  assert.equal(list.items?.[0].apiVersion, 'meta.k8s.io/v1');
});

test('the cluster spelling and v1beta1 answer in kind', () => {
  const list = toPartialObjectMetadataList([{ metadata: { name: 'a' } }], undefined, 'cluster', 'v1beta1');
  assert.equal(list.apiVersion, 'meta.cluster.io/v1beta1');
  assert.equal(list.items?.[0].apiVersion, 'meta.cluster.io/v1beta1');
  assert.equal(toPartialObjectMetadata({ metadata: { name: 'a' } }, 'cluster').apiVersion, 'meta.cluster.io/v1');
});

test('list metadata keeps continue and remainingItemCount and omits empty values', () => {
  const list = toPartialObjectMetadataList([], { resourceVersion: '9', continue: 'tok', remainingItemCount: 3 }, 'k8s');
  assertSameJson(list.metadata, { resourceVersion: '9', continue: 'tok', remainingItemCount: 3 });
  assertSameJson(toPartialObjectMetadataList([], { resourceVersion: '', continue: '' }, 'k8s').metadata, {});
});

test('an empty list has null items, as upstream encodes its nil slice', () => {
  assert.equal(toPartialObjectMetadataList([], { resourceVersion: '1' }, 'k8s').items, null);
});

test('metadata keeps ObjectMeta order, drops spec, status and unknown or empty metadata', () => {
  const object = {
    apiVersion: 'v1',
    kind: 'Pod',
    spec: { containers: [] },
    status: { phase: 'Running' },
    metadata: {
      finalizers: ['f'],
      labels: { a: 'b' },
      annotations: {},
      unknownField: 'x',
      generation: 0,
      deletionGracePeriodSeconds: 0,
      resourceVersion: '5',
      namespace: 'ns',
      name: 'p',
    },
  };
  assertSameJson(toPartialObjectMetadata(object, 'k8s'), {
    kind: 'PartialObjectMetadata',
    apiVersion: 'meta.k8s.io/v1',
    metadata: {
      name: 'p',
      namespace: 'ns',
      resourceVersion: '5',
      creationTimestamp: null,
      deletionGracePeriodSeconds: 0,
      labels: { a: 'b' },
      finalizers: ['f'],
    },
  });
});

test('the input object is not mutated', () => {
  const object = { metadata: { name: 'a', labels: { x: 'y' } }, spec: {} };
  const before = JSON.stringify(object);
  toPartialObjectMetadata(object, 'k8s');
  assert.equal(JSON.stringify(object), before);
});
