import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { canonicalOrder, type KubeObject } from '../../src/registry/object.js';

describe('canonicalOrder', () => {
  it('puts kind, apiVersion and metadata first, metadata in upstream order, and keeps the rest in order', () => {
    const object: KubeObject = { data: { b: '1' }, metadata: { labels: { a: 'b' }, zeta: 1, uid: 'u', name: 'n', resourceVersion: '3' }, kind: 'ConfigMap', apiVersion: 'v1', extra: true };
    assert.equal(JSON.stringify(canonicalOrder(object)), '{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"n","uid":"u","resourceVersion":"3","labels":{"a":"b"},"zeta":1},"data":{"b":"1"},"extra":true}');
  });

  it('keeps fields named like Object.prototype members, and __proto__, which JSON.parse makes ordinary keys', () => {
    const object = JSON.parse('{"kind":"X","metadata":{"name":"n","constructor":"c","__proto__":{"a":1}},"toString":"t","__proto__":[1]}') as KubeObject;
    assert.equal(JSON.stringify(canonicalOrder(object)), '{"kind":"X","metadata":{"name":"n","constructor":"c","__proto__":{"a":1}},"toString":"t","__proto__":[1]}');
    assert.equal(Object.getPrototypeOf(canonicalOrder(object)), Object.prototype);
  });
});
