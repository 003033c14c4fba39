import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { decodeFromStorage, encodeForStorage, sameJson } from '../../src/registry/object-codec.js';
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

  it('shares a field set only with one of the same JSON text, keys in the same order', () => {
    const decodeWith = (fieldsV1: unknown, revision: number) => {
      const object: KubeObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'e', managedFields: [{ manager: 'm', fieldsType: 'FieldsV1', fieldsV1 }] } };
      return (decodeFromStorage(kv(Buffer.from(encodeForStorage(object)), revision)).metadata!.managedFields as Array<{ fieldsV1: unknown }>)[0]!.fieldsV1;
    };
    const ab = decodeWith({ 'f:a': {}, 'f:b': {} }, 21);
    const ba = decodeWith({ 'f:b': {}, 'f:a': {} }, 22);
    const abAgain = decodeWith({ 'f:a': {}, 'f:b': {} }, 23);
    assert.notEqual(ab, ba);
    assert.deepEqual(Object.keys(ba as object), ['f:b', 'f:a']);
    assert.equal(abAgain, ab);
    assert.equal(decodeWith({ 'f:b': {}, 'f:a': {} }, 24), ba);
    assert.notEqual(decodeWith({ 'f:a': {}, 'f:b': { '.': {} } }, 25), ab);
  });

  it('tells JSON-equal values apart from others as JSON.stringify would', () => {
    const cases: [unknown, unknown][] = [
      [{}, {}],
      [{ a: {} }, { a: {} }],
      [{ a: {}, b: {} }, { b: {}, a: {} }],
      [{ a: { x: {} } }, { a: { y: {} } }],
      [{ a: 1 }, { a: '1' }],
      [{ a: [1, 2] }, { a: [1, 2] }],
      [{ a: [] }, { a: {} }],
      [{ a: {} }, { a: {}, b: {} }],
      [{ a: null }, { a: {} }],
    ];
    for (const [a, b] of cases) assert.equal(sameJson(a, b), JSON.stringify(a) === JSON.stringify(b), `${JSON.stringify(a)} vs ${JSON.stringify(b)}`);
  });

  it('refuses bytes that are not a stored object', () => {
    assert.throws(() => decodeFromStorage(kv(Buffer.from('{'), 1)), /cannot be decoded/);
    assert.throws(() => decodeFromStorage(kv(Buffer.from('[]'), 1)), /is not an object/);
  });
});
