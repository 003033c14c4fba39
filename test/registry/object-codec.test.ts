import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { decodeFromStorage, encodeForStorage } from '../../src/registry/object-codec.js';
import type { KubeObject } from '../../src/registry/object.js';

const kv = (value: Uint8Array, modRevision: number) => ({ key: '/registry/configmaps/ns/c', value, createRevision: modRevision, modRevision });
const withFields = (name: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, managedFields: [{ manager: 'm', operation: 'Update', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { '.': {}, 'f:k': {} } } }] },
  data: { k: name },
});

describe('object codec', () => {
  it('stores objects without their resourceVersion and decodes them with the revision as resourceVersion', () => {
    const bytes = encodeForStorage({ ...withFields('a'), metadata: { ...withFields('a').metadata, resourceVersion: '3' } });
    assert.doesNotMatch(Buffer.from(bytes).toString(), /resourceVersion/);
    const decoded = decodeFromStorage(kv(Buffer.from(bytes), 9));
    assert.equal(decoded.metadata!.resourceVersion, '9');
  });

  it('hands back the object just written for the very bytes it was encoded to, once', () => {
    const object = withFields('b');
    const bytes = encodeForStorage(object);
    assert.equal(decodeFromStorage(kv(bytes, 10)), object);
    assert.equal(object.metadata!.resourceVersion, '10');
    const again = decodeFromStorage(kv(bytes, 10));
    assert.notEqual(again, object);
    assert.deepEqual(again, object);
  });

  it('shares equal field sets among decoded objects', () => {
    const first = decodeFromStorage(kv(Buffer.from(encodeForStorage(withFields('c'))), 11));
    const second = decodeFromStorage(kv(Buffer.from(encodeForStorage(withFields('d'))), 12));
    const fieldsOf = (o: KubeObject) => (o.metadata!.managedFields as Array<{ fieldsV1: unknown }>)[0]!.fieldsV1;
    assert.equal(fieldsOf(first), fieldsOf(second));
    assert.deepEqual(fieldsOf(first), { 'f:data': { '.': {}, 'f:k': {} } });
  });

  it('refuses bytes that are not a stored object', () => {
    assert.throws(() => decodeFromStorage(kv(Buffer.from('{'), 1)), /cannot be decoded/);
    assert.throws(() => decodeFromStorage(kv(Buffer.from('[]'), 1)), /is not an object/);
  });
});
