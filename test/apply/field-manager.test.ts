import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../../src/api/errors.js';
import { FieldManager } from '../../src/apply/field-manager.js';
import { FieldTypes } from '../../src/apply/field-types.js';
import type { KubeObject } from '../../src/registry/object.js';
import { loadBuiltinSchemas } from '../../src/registry/schema/schema-set.js';

const manager = new FieldManager({ types: new FieldTypes(loadBuiltinSchemas()), schema: 'io.k8s.api.core.v1.ConfigMap', apiVersion: 'v1', hasStatus: false });
const writer = (name: string, now = '2026-11-22T10:00:00Z') => ({ manager: name, subresource: '', now });
const cm = (metadata: Record<string, unknown>, data?: Record<string, string>): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', ...metadata }, ...(data ? { data } : {}) });
const entries = (o: KubeObject) => (o.metadata!.managedFields as Array<Record<string, unknown>>).map((e) => [e['manager'], e['operation'], e['time'], e['fieldsV1']]);

describe('FieldManager', () => {
  it('records an update: the writer owns what it changed, others lose it, removed fields are nobody’s', () => {
    const live = cm({ labels: { a: '1', b: '2' } }, { k: 'v' });
    manager.trackUpdate(undefined, live, writer('creator', '2026-11-22T09:00:00Z'));
    const updated = cm({ labels: { a: '9' } }, { k: 'v' });
    updated.metadata!.managedFields = undefined;
    manager.trackUpdate(live, updated, writer('editor'));
    assert.deepEqual(entries(updated), [
      ['creator', 'Update', '2026-11-22T09:00:00Z', { 'f:data': { '.': {}, 'f:k': {} }, 'f:metadata': { 'f:labels': {} } }],
      ['editor', 'Update', '2026-11-22T10:00:00Z', { 'f:metadata': { 'f:labels': { 'f:a': {} } } }],
    ]);
  });

  it('removes what an applier stopped setting without touching the live object it was given', () => {
    const first = manager.apply(undefined, cm({ labels: { l: '1' } }, { a: '1' }), writer('m1', '2026-11-22T09:00:00Z'), false);
    const live = structuredClone(first);
    const second = manager.apply(live, cm({}, { a: '1' }), writer('m1'), false);
    assert.equal(second.metadata!.labels, undefined);
    assert.deepEqual(live.metadata!.labels, { l: '1' });
    assert.deepEqual(entries(second), [['m1', 'Apply', '2026-11-22T10:00:00Z', { 'f:data': { 'f:a': {} } }]]);
  });

  it('refuses to change another manager’s field unless forced, and then takes it', () => {
    const live = manager.apply(undefined, cm({}, { a: '1' }), writer('m1', '2026-11-22T09:00:00Z'), false);
    assert.throws(
      () => manager.apply(live, cm({}, { a: '2' }), writer('m2'), false),
      (err: unknown) => err instanceof ApiError && err.code === 409 && err.message === 'Apply failed with 1 conflict: conflict with "m1": .data.a',
    );
    const forced = manager.apply(live, cm({}, { a: '2' }), writer('m2'), true);
    assert.deepEqual(forced.data, { a: '2' });
    assert.deepEqual(entries(forced).map((e) => e[0]), ['m2']);
  });

  it('lists several conflicts by manager', () => {
    let live = manager.apply(undefined, cm({}, { a: '1', b: '1' }), writer('m1'), false);
    live = manager.apply(live, cm({}, { c: '1' }), writer('m0'), false);
    assert.throws(
      () => manager.apply(live, cm({}, { a: '2', b: '2', c: '2' }), writer('m2'), false),
      (err: unknown) => err instanceof ApiError && err.message === 'Apply failed with 3 conflicts: conflicts with "m0":\n- .data.c\nconflicts with "m1":\n- .data.a\n- .data.b',
    );
  });

  it('refuses a configuration with two list items of one key, as upstream does when it types it', () => {
    const pods = new FieldManager({ types: new FieldTypes(loadBuiltinSchemas()), schema: 'io.k8s.api.core.v1.Pod', apiVersion: 'v1', hasStatus: true });
    const pod: KubeObject = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'ns' }, spec: { containers: [{ name: 'web', image: 'a' }, { name: 'web', image: 'b' }] } };
    assert.throws(
      () => pods.apply(undefined, pod, writer('m'), false),
      (err: unknown) =>
        err instanceof ApiError &&
        err.code === 500 &&
        err.message === 'Internal error occurred: failed to create typed patch object (/v1, Kind=Pod ns/p): .spec.containers: duplicate entries for key [name="web"]',
    );
  });
});
