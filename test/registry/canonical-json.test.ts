import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { canonicalJsonOf } from '../../src/registry/canonical-json.js';
import { canonicalOrder, type KubeObject } from '../../src/registry/object.js';
import { encodeForStorage, writtenJsonText } from '../../src/registry/object-codec.js';

/** What the split text must equal: the object with `revision` as its resourceVersion, in canonical order. */
function expected(object: KubeObject, revision: string | undefined): string {
  const metadata = { ...object.metadata };
  if (revision === undefined) delete metadata.resourceVersion;
  else metadata.resourceVersion = revision;
  return JSON.stringify(canonicalOrder({ ...object, metadata }));
}

const cases: Record<string, KubeObject> = {
  'a ConfigMap as created': {
    apiVersion: 'v1', kind: 'ConfigMap',
    metadata: { name: 'c', namespace: 'ns', uid: 'u', creationTimestamp: '2026-11-22T00:00:00Z', managedFields: [{ manager: 'm', fieldsV1: { 'f:data': {} } }] },
    data: { payload: 'x<y>&z \u2028 "quoted" \\ \u00e9 \u{1F600}' },
  },
  'members only after the slot': { kind: 'Namespace', apiVersion: 'v1', metadata: { labels: { a: 'b' }, finalizers: ['f'] }, spec: {} },
  'members only before the slot': { kind: 'Pod', metadata: { name: 'p', namespace: 'n' }, spec: { containers: [] } },
  'empty metadata, no kind or apiVersion': { metadata: {}, data: null },
  'fields out of order, an old resourceVersion, undefined values, unknown metadata fields': {
    data: { b: '1' }, metadata: { zeta: 1, annotations: { x: 'y' }, resourceVersion: '7', uid: 'u', generation: undefined, name: 'n', constructor: 'kept' },
    status: undefined, kind: 'ConfigMap', apiVersion: 'v1', toString: 'kept too',
  },
  'keys JavaScript orders as array indices': { kind: 'X', metadata: { 0: 'a', name: 'n' }, 7: 'x', spec: {} } as KubeObject,
  'a __proto__ key, which JSON.parse makes an ordinary field': JSON.parse('{"kind":"X","metadata":{"name":"n","__proto__":{"a":1}},"__proto__":[1]}') as KubeObject,
};

describe('canonical JSON split at resourceVersion', () => {
  for (const [name, object] of Object.entries(cases)) {
    it(`equals JSON.stringify(canonicalOrder(...)) with and without a resourceVersion: ${name}`, () => {
      const json = canonicalJsonOf(object);
      assert.ok(json);
      assert.equal(json.withoutResourceVersion(), expected(object, undefined));
      assert.equal(json.withResourceVersion('42'), expected(object, '42'));
      assert.equal(json.withResourceVersion('a"b'), expected(object, 'a"b'));
    });
  }

  it('declines objects whose metadata is not an object, or whose fields before the slot are not strings', () => {
    assert.equal(canonicalJsonOf({ kind: 'X' }), undefined);
    assert.equal(canonicalJsonOf({ kind: 'X', metadata: null } as unknown as KubeObject), undefined);
    const placeholder = { resourceVersion: '\u0000capstan:resourceVersion' };
    assert.equal(canonicalJsonOf({ kind: placeholder, metadata: {} } as unknown as KubeObject), undefined);
    assert.equal(canonicalJsonOf({ kind: 'X', metadata: { name: placeholder } } as unknown as KubeObject), undefined);
  });

  it('finds the slot whatever the object holds after it, the placeholder included', () => {
    const object = { kind: 'X', metadata: { name: 'n', labels: { resourceVersion: '\u0000capstan:resourceVersion' } }, spec: { resourceVersion: '\u0000capstan:resourceVersion' } } as KubeObject;
    assert.equal(canonicalJsonOf(object)!.withResourceVersion('5'), expected(object, '5'));
  });
});

describe('writtenJsonText', () => {
  it('gives a stored object its response text with the resourceVersion it has now, and nothing for others', () => {
    const object: KubeObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { k: 'v' } };
    const bytes = encodeForStorage(object);
    assert.equal(Buffer.from(bytes).toString(), '{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"c"},"data":{"k":"v"}}');
    assert.equal(writtenJsonText(object), undefined, 'no resourceVersion yet');
    object.metadata!.resourceVersion = '12';
    assert.equal(writtenJsonText(object), JSON.stringify(canonicalOrder(object)));
    assert.equal(writtenJsonText({ ...object }), undefined, 'another object');
  });

  it('forgets all but the latest writes', () => {
    const first: KubeObject = { kind: 'ConfigMap', metadata: { name: 'first', resourceVersion: '1' } };
    encodeForStorage(first);
    for (let i = 0; i < 1024; i++) encodeForStorage({ kind: 'ConfigMap', metadata: { name: `n${i}` } });
    first.metadata!.resourceVersion = '1';
    assert.equal(writtenJsonText(first), undefined);
  });
});
