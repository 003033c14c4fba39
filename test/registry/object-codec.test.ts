import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { decodeFromStorage, encodeForStorage, jsonAtRevision, sameJson } from '../../src/registry/object-codec.js';
import { canonicalOrder } from '../../src/registry/object.js';
import { encodeJsonText } from '../../src/serialization/json-encode.js';
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
    const bytes = encodeForStorage({ ...withFields('a'), metadata: { ...withFields('a').metadata, resourceVersion: '3' } }).bytes;
    assert.doesNotMatch(Buffer.from(bytes).toString(), /resourceVersion/);
    const decoded = decodeFromStorage(kv(Buffer.from(bytes), 9));
    assert.equal(decoded.metadata!.resourceVersion, '9');
  });

  it('hands back the object just written for the very bytes it was encoded to, once', () => {
    const object = withFields('b');
    const bytes = encodeForStorage(object).bytes;
    assert.equal(decodeFromStorage(kv(bytes, 10)), object);
    assert.equal(object.metadata!.resourceVersion, '10');
    const again = decodeFromStorage(kv(bytes, 10));
    assert.notEqual(again, object);
    assert.deepEqual(again, object);
  });

  it('shares equal field sets among decoded objects', () => {
    const first = decodeFromStorage(kv(Buffer.from(encodeForStorage(withFields('c')).bytes), 11));
    const second = decodeFromStorage(kv(Buffer.from(encodeForStorage(withFields('d')).bytes), 12));
    const fieldsOf = (o: KubeObject) => (o.metadata!.managedFields as Array<{ fieldsV1: unknown }>)[0]!.fieldsV1;
    assert.equal(fieldsOf(first), fieldsOf(second));
    assert.deepEqual(fieldsOf(first), { 'f:data': { '.': {}, 'f:k': {} } });
  });

  it('shares a field set only with one of the same JSON text, keys in the same order', () => {
    const decodeWith = (fieldsV1: unknown, revision: number) => {
      const object: KubeObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'e', managedFields: [{ manager: 'm', fieldsType: 'FieldsV1', fieldsV1 }] } };
      return (decodeFromStorage(kv(Buffer.from(encodeForStorage(object).bytes), revision)).metadata!.managedFields as Array<{ fieldsV1: unknown }>)[0]!.fieldsV1;
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

  it('makes the JSON response of a stored object from its bytes, as encoding the object would', () => {
    const shapes: KubeObject[] = [
      // A create's object: no resourceVersion yet, uid before its place, more members after it.
      { data: { k: 'v' }, kind: 'ConfigMap', apiVersion: 'v1', metadata: { namespace: 'ns', name: 'a', uid: 'u-1', creationTimestamp: '2026-01-01T00:00:00Z' } },
      // An update's: a resourceVersion to drop, members in another order.
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { labels: { resourceVersion: '' }, resourceVersion: '41', name: 'b' }, data: { x: '"resourceVersion":""' } },
      // Its place last in metadata, then the only member.
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } },
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: {} },
      // Characters Go escapes, and non-ASCII text before the place and after it.
      { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'ünïcode-名', generateName: '<&>' }, stringData: { a: 'x\u2028y<z>' } },
    ];
    for (const object of shapes) {
      const encoding = encodeForStorage(structuredClone(object));
      assert.doesNotMatch(Buffer.from(encoding.bytes).toString(), /"resourceVersion":"4/);
      const expected = encodeJsonText(canonicalOrder({ ...object, metadata: { ...object.metadata, resourceVersion: '1234' } }));
      assert.equal(jsonAtRevision(encoding, '1234')?.toString(), expected, JSON.stringify(object));
      assert.deepEqual(decodeFromStorage(kv(Buffer.from(encoding.bytes), 1234)), JSON.parse(expected));
    }
  });

  it('makes no response for an object without metadata or a version that is not a revision', () => {
    assert.equal(jsonAtRevision(encodeForStorage({ apiVersion: 'v1', kind: 'List' }), '1'), undefined);
    assert.equal(jsonAtRevision(encodeForStorage(withFields('f')), '1"'), undefined);
  });

  it('refuses bytes that are not a stored object', () => {
    assert.throws(() => decodeFromStorage(kv(Buffer.from('{'), 1)), /cannot be decoded/);
    assert.throws(() => decodeFromStorage(kv(Buffer.from('[]'), 1)), /is not an object/);
  });
});
