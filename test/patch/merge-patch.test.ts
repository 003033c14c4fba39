import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../../src/api/errors.js';
import { applyMergePatch } from '../../src/patch/merge-patch.js';
import type { FieldValidation } from '../../src/patch/patch-request.js';

function doc(): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'cm1', labels: { a: '1', b: '2' } },
    data: { a: 'b', n: null },
    list: [1, { x: 1 }],
  };
}

function merge(body: unknown, current = doc(), fieldValidation: FieldValidation = 'Warn') {
  return applyMergePatch({ current, body: Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)), fieldValidation });
}

function expected(edit: (d: Record<string, any>) => void): Record<string, unknown> {
  const d = doc();
  edit(d);
  return d;
}

const cases: { name: string; patch: unknown; want: unknown }[] = [
  { name: 'empty patch changes nothing', patch: {}, want: doc() },
  { name: 'sets a member', patch: { data: { c: 'd' } }, want: expected((d) => (d.data.c = 'd')) },
  { name: 'replaces a member', patch: { data: { a: 'x' } }, want: expected((d) => (d.data.a = 'x')) },
  { name: 'null deletes a member', patch: { metadata: { labels: { a: null } } }, want: expected((d) => delete d.metadata.labels.a) },
  { name: 'null for a missing member is a no-op', patch: { data: { zz: null } }, want: doc() },
  { name: 'null deletes a whole subtree', patch: { metadata: { labels: null } }, want: expected((d) => delete d.metadata.labels) },
  { name: 'arrays are replaced wholesale', patch: { list: [3] }, want: expected((d) => (d.list = [3])) },
  {
    name: 'a new member is pruned of nulls at every depth',
    patch: { spec: { a: null, b: { c: null, d: 1 }, e: [null, { f: null, g: 1 }] } },
    want: expected((d) => (d.spec = { b: { d: 1 }, e: [null, { g: 1 }] })),
  },
  { name: 'merging into a null member prunes nulls', patch: { data: { n: { x: null, y: 1 } } }, want: expected((d) => (d.data.n = { y: 1 })) },
  { name: 'an object replacing a scalar is pruned', patch: { data: { a: { x: null, y: 1 } } }, want: expected((d) => (d.data.a = { y: 1 })) },
  {
    name: 'an array replacing an array has nulls in its objects pruned',
    patch: { list: [null, { a: null, b: 1 }] },
    want: expected((d) => (d.list = [null, { b: 1 }])),
  },
  { name: 'an array replacing an object is taken as is', patch: { metadata: { labels: [null, { a: null }] } }, want: expected((d) => (d.metadata.labels = [null, { a: null }])) },
  { name: 'a scalar replacing an object', patch: { metadata: { labels: 'x' } }, want: expected((d) => (d.metadata.labels = 'x')) },
  { name: 'objects merge recursively', patch: { metadata: { labels: { c: '3' }, annotations: { k: 'v' } } }, want: expected((d) => ((d.metadata.labels.c = '3'), (d.metadata.annotations = { k: 'v' }))) },
];

describe('merge patch apply', () => {
  for (const c of cases) {
    it(c.name, () => {
      const current = doc();
      assert.deepEqual(merge(c.patch, current).value, c.want);
      assert.deepEqual(current, doc(), 'the current object is never modified');
    });
  }

  it('shares nothing with the current object', () => {
    const current = doc();
    const value = merge({ data: { c: 'd' } }, current).value as { metadata: { labels: Record<string, string> } };
    value.metadata.labels['x'] = 'y';
    assert.deepEqual(current, doc());
  });

  it('cannot reach a prototype through __proto__', () => {
    const value = merge('{"metadata":{"labels":{"__proto__":{"polluted":"yes"}}}}').value as { metadata: { labels: object } };
    assert.equal(Object.getPrototypeOf(value.metadata.labels), Object.prototype);
    assert.equal(({} as Record<string, unknown>)['polluted'], undefined);
    assert.deepEqual(Object.keys(value.metadata.labels), ['a', 'b', '__proto__']);
  });

  it('reports duplicate fields as strict errors', () => {
    assert.deepEqual(merge('{"data":{"a":"1","a":"2"}}').strictErrors, ['duplicate field "data.a"']);
    assert.deepEqual(merge('{"data":{"a":"1","a":"2"}}', doc(), 'Ignore').strictErrors, []);
    assert.deepEqual((merge('{"data":{"a":"1","a":"2"}}').value as { data: unknown }).data, { a: '2', n: null });
  });
});

describe('merge patch errors', () => {
  const bad: { name: string; body: string; fieldValidation: FieldValidation; message: string }[] = [
    { name: 'not JSON', body: '{', fieldValidation: 'Warn', message: 'error decoding patch: unexpected end of JSON input' },
    { name: 'not JSON (Ignore)', body: '{', fieldValidation: 'Ignore', message: 'Invalid JSON Patch' },
    { name: 'null', body: 'null', fieldValidation: 'Strict', message: 'Invalid JSON Patch' },
    { name: 'a string', body: '"x"', fieldValidation: 'Warn', message: 'error decoding patch: json: cannot unmarshal string into Go value of type map[string]interface {}' },
    { name: 'a string (Ignore)', body: '"x"', fieldValidation: 'Ignore', message: 'Invalid JSON Patch' },
    { name: 'an array', body: '[]', fieldValidation: 'Warn', message: 'error decoding patch: json: cannot unmarshal array into Go value of type map[string]interface {}' },
  ];
  for (const c of bad) {
    it(c.name, () => {
      assert.throws(
        () => merge(c.body, doc(), c.fieldValidation),
        (err: unknown) => err instanceof ApiError && err.code === 400 && err.reason === 'BadRequest' && err.message === c.message,
      );
    });
  }

  it('an array patch replaces the document when ignoring field validation, as upstream', () => {
    assert.deepEqual(merge('[{"a":null,"b":1}]', doc(), 'Ignore').value, [{ b: 1 }]);
  });
});
