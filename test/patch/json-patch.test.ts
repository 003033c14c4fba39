import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../../src/api/errors.js';
import { applyJsonPatch, applyJsonPatchOperations } from '../../src/patch/json-patch.js';
import type { FieldValidation } from '../../src/patch/patch-request.js';

function doc(): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'cm1', labels: { a: '1' } },
    data: { a: 'b', n: null },
    list: [1, 2, 3],
  };
}

function patch(ops: unknown, current = doc(), fieldValidation: FieldValidation = 'Warn') {
  return applyJsonPatch({ current, body: Buffer.from(typeof ops === 'string' ? ops : JSON.stringify(ops)), fieldValidation });
}

/** Expected result: the document after `edit` on a fresh copy. */
function expected(edit: (d: Record<string, any>) => void): Record<string, unknown> {
  const d = doc();
  edit(d);
  return d;
}

interface ApplyCase {
  name: string;
  ops: unknown[];
  want?: unknown;
  /** Text of the 422's cause. */
  cause?: RegExp;
}

const cases: ApplyCase[] = [
  // add
  { name: 'add a member', ops: [{ op: 'add', path: '/data/c', value: 'd' }], want: expected((d) => (d.data.c = 'd')) },
  { name: 'add replaces an existing member', ops: [{ op: 'add', path: '/data/a', value: 'x' }], want: expected((d) => (d.data.a = 'x')) },
  { name: 'add inserts into an array', ops: [{ op: 'add', path: '/list/1', value: 9 }], want: expected((d) => (d.list = [1, 9, 2, 3])) },
  { name: 'add at the array length appends', ops: [{ op: 'add', path: '/list/3', value: 9 }], want: expected((d) => (d.list = [1, 2, 3, 9])) },
  { name: 'add at - appends', ops: [{ op: 'add', path: '/list/-', value: 9 }], want: expected((d) => (d.list = [1, 2, 3, 9])) },
  { name: 'add at -1 appends (negative index)', ops: [{ op: 'add', path: '/list/-1', value: 9 }], want: expected((d) => (d.list = [1, 2, 3, 9])) },
  { name: 'add at -4 inserts first', ops: [{ op: 'add', path: '/list/-4', value: 9 }], want: expected((d) => (d.list = [9, 1, 2, 3])) },
  { name: 'add index read as Go Atoi (+1)', ops: [{ op: 'add', path: '/list/+1', value: 9 }], want: expected((d) => (d.list = [1, 9, 2, 3])) },
  { name: 'add index with leading zero', ops: [{ op: 'add', path: '/list/01', value: 9 }], want: expected((d) => (d.list = [1, 9, 2, 3])) },
  { name: 'add beyond the array end', ops: [{ op: 'add', path: '/list/5', value: 9 }], cause: /invalid index referenced/ },
  { name: 'add below the array start', ops: [{ op: 'add', path: '/list/-5', value: 9 }], cause: /invalid index referenced/ },
  {
    name: 'add with a non-numeric index (the library wraps strconv.Atoi\'s error)',
    ops: [{ op: 'add', path: '/list/x', value: 9 }], cause: /value was not a proper array index: 'x': strconv\.Atoi: parsing "x": invalid syntax$/,
  },
  {
    name: 'add with an index past 64 bits',
    ops: [{ op: 'add', path: '/list/9223372036854775808', value: 9 }],
    cause: /not a proper array index: '9223372036854775808': strconv\.Atoi: parsing "9223372036854775808": value out of range$/,
  },
  { name: 'add with a huge index names it exactly', ops: [{ op: 'add', path: '/list/9007199254740993', value: 9 }], cause: /invalid index: 9007199254740993: invalid index referenced/ },
  { name: 'add to a missing parent', ops: [{ op: 'add', path: '/spec/replicas', value: 1 }], cause: /doc is missing path: "\/spec\/replicas"/ },
  { name: 'add to a null parent', ops: [{ op: 'add', path: '/data/n/x', value: 1 }], cause: /doc is missing path/ },
  { name: 'add below a string', ops: [{ op: 'add', path: '/data/a/x', value: 1 }], cause: /doc is missing path/ },
  { name: 'add at the root', ops: [{ op: 'add', path: '', value: {} }], cause: /doc is missing path: ""/ },
  { name: 'add without a value adds null', ops: [{ op: 'add', path: '/data/c' }], want: expected((d) => (d.data.c = null)) },
  {
    name: 'add with escaped tokens',
    ops: [
      { op: 'add', path: '/metadata/labels/example.com~1name', value: 'x' },
      { op: 'add', path: '/metadata/labels/a~0b', value: 'y' },
      { op: 'add', path: '/metadata/labels/c~01', value: 'z' },
    ],
    want: expected((d) => Object.assign(d.metadata.labels, { 'example.com/name': 'x', 'a~b': 'y', 'c~1': 'z' })),
  },
  { name: 'path without a leading slash ignores its first segment', ops: [{ op: 'add', path: 'data/x', value: 1 }], want: expected((d) => (d.x = 1)) },
  // remove
  { name: 'remove a member', ops: [{ op: 'remove', path: '/data/a' }], want: expected((d) => delete d.data.a) },
  { name: 'remove a null member', ops: [{ op: 'remove', path: '/data/n' }], want: expected((d) => delete d.data.n) },
  { name: 'remove an element', ops: [{ op: 'remove', path: '/list/0' }], want: expected((d) => (d.list = [2, 3])) },
  { name: 'remove the last element by -1', ops: [{ op: 'remove', path: '/list/-1' }], want: expected((d) => (d.list = [1, 2])) },
  { name: 'remove a missing member', ops: [{ op: 'remove', path: '/data/zz' }], cause: /Unable to remove nonexistent key: zz/ },
  { name: 'remove beyond the array end', ops: [{ op: 'remove', path: '/list/3' }], cause: /invalid index referenced/ },
  { name: 'remove at -', ops: [{ op: 'remove', path: '/list/-' }], cause: /^strconv\.Atoi: parsing "-": invalid syntax$/ },
  { name: 'remove past 64 bits', ops: [{ op: 'remove', path: '/list/-9223372036854775809' }], cause: /^strconv\.Atoi: parsing "-9223372036854775809": value out of range$/ },
  { name: 'remove under a missing parent', ops: [{ op: 'remove', path: '/spec/x' }], cause: /remove operation does not apply/ },
  { name: 'remove at the root', ops: [{ op: 'remove', path: '' }], cause: /doc is missing path/ },
  // replace
  { name: 'replace a member', ops: [{ op: 'replace', path: '/data/a', value: 'x' }], want: expected((d) => (d.data.a = 'x')) },
  { name: 'replace a missing member adds it, as upstream', ops: [{ op: 'replace', path: '/data/c', value: 'x' }], want: expected((d) => (d.data.c = 'x')) },
  { name: 'replace an element', ops: [{ op: 'replace', path: '/list/2', value: 9 }], want: expected((d) => (d.list = [1, 2, 9])) },
  { name: 'replace an element by -3', ops: [{ op: 'replace', path: '/list/-3', value: 9 }], want: expected((d) => (d.list = [9, 2, 3])) },
  { name: 'replace beyond the array end', ops: [{ op: 'replace', path: '/list/3', value: 9 }], cause: /invalid index referenced/ },
  { name: 'replace under a missing parent', ops: [{ op: 'replace', path: '/spec/x', value: 1 }], cause: /replace operation does not apply/ },
  { name: 'replace the whole document', ops: [{ op: 'replace', path: '', value: { kind: 'X' } }], want: { kind: 'X' } },
  { name: 'replace the whole document with a scalar', ops: [{ op: 'replace', path: '', value: 1 }], cause: /must be object or array/ },
  // move
  {
    name: 'move a member',
    ops: [{ op: 'move', from: '/data/a', path: '/metadata/labels/moved' }],
    want: expected((d) => {
      delete d.data.a;
      d.metadata.labels.moved = 'b';
    }),
  },
  { name: 'move an element to the end', ops: [{ op: 'move', from: '/list/0', path: '/list/-' }], want: expected((d) => (d.list = [2, 3, 1])) },
  { name: 'move from a missing member', ops: [{ op: 'move', from: '/data/zz', path: '/data/y' }], cause: /Unable to remove nonexistent key/ },
  { name: 'move from a missing parent', ops: [{ op: 'move', from: '/spec/x', path: '/data/y' }], cause: /missing from path/ },
  { name: 'move to a missing parent', ops: [{ op: 'move', from: '/data/a', path: '/spec/x' }], cause: /missing destination path/ },
  { name: 'move without from', ops: [{ op: 'move', path: '/data/x' }], cause: /failed to decode from/ },
  // copy
  { name: 'copy a member', ops: [{ op: 'copy', from: '/metadata/labels', path: '/data/labels' }], want: expected((d) => (d.data.labels = { a: '1' })) },
  { name: 'copy an element', ops: [{ op: 'copy', from: '/list/0', path: '/list/-' }], want: expected((d) => (d.list = [1, 2, 3, 1])) },
  { name: 'copy of a missing member copies null, as upstream', ops: [{ op: 'copy', from: '/data/zz', path: '/data/y' }], want: expected((d) => (d.data.y = null)) },
  { name: 'copy from beyond the array end', ops: [{ op: 'copy', from: '/list/7', path: '/data/y' }], cause: /invalid index referenced/ },
  { name: 'copy to a missing parent', ops: [{ op: 'copy', from: '/data/a', path: '/spec/x' }], cause: /missing destination path/ },
  // test
  { name: 'test a member', ops: [{ op: 'test', path: '/data/a', value: 'b' }], want: doc() },
  { name: 'test an object, member order ignored', ops: [{ op: 'test', path: '/metadata', value: { labels: { a: '1' }, name: 'cm1' } }], want: doc() },
  { name: 'test an element by negative index', ops: [{ op: 'test', path: '/list/-1', value: 3 }], want: doc() },
  { name: 'test the whole document', ops: [{ op: 'test', path: '', value: doc() }], want: doc() },
  { name: 'test a failing value', ops: [{ op: 'test', path: '/data/a', value: 'zzz' }], cause: /testing value \/data\/a failed/ },
  { name: 'test null against a missing member passes', ops: [{ op: 'test', path: '/data/zz', value: null }], want: doc() },
  { name: 'test null against a null member passes', ops: [{ op: 'test', path: '/data/n', value: null }], want: doc() },
  { name: 'test a value against a missing member', ops: [{ op: 'test', path: '/data/zz', value: 'x' }], cause: /testing value/ },
  { name: 'test without a value', ops: [{ op: 'test', path: '/data/a' }], cause: /testing value/ },
  { name: 'test under a missing parent', ops: [{ op: 'test', path: '/spec/x', value: 1 }], cause: /is missing path/ },
  { name: 'test of a type mismatch', ops: [{ op: 'test', path: '/list', value: { 0: 1, 1: 2, 2: 3 } }], cause: /testing value/ },
  // operation shape
  { name: 'unknown op', ops: [{ op: 'frobnicate', path: '/data/a' }], cause: /Unexpected kind: frobnicate/ },
  { name: 'missing op', ops: [{ path: '/data/a' }], cause: /Unexpected kind: unknown/ },
  { name: 'null operation', ops: [null], cause: /Unexpected kind: unknown/ },
  { name: 'missing path', ops: [{ op: 'add', value: 1 }], cause: /add operation failed to decode path/ },
  { name: 'no operations', ops: [], want: doc() },
  // sequences
  {
    name: 'operations apply in order',
    ops: [
      { op: 'add', path: '/spec', value: {} },
      { op: 'add', path: '/spec/replicas', value: 2 },
      { op: 'test', path: '/spec/replicas', value: 2 },
      { op: 'remove', path: '/list' },
    ],
    want: expected((d) => {
      d.spec = { replicas: 2 };
      delete d.list;
    }),
  },
  {
    name: 'a later failure fails the patch',
    ops: [
      { op: 'add', path: '/data/c', value: 'd' },
      { op: 'test', path: '/data/c', value: 'not d' },
    ],
    cause: /testing value/,
  },
];

describe('JSON patch apply', () => {
  for (const c of cases) {
    it(c.name, () => {
      const current = doc();
      if (c.cause === undefined) {
        assert.deepEqual(patch(c.ops, current).value, c.want);
      } else {
        assert.throws(
          () => patch(c.ops, current),
          (err: unknown) =>
            err instanceof ApiError &&
            err.code === 422 &&
            c.cause!.test(String((err.cause as Error | undefined)?.message)),
        );
      }
      assert.deepEqual(current, doc(), 'the current object is never modified');
    });
  }

  it('fails a test with upstream status (golden patch-422-jsonpatch-test)', () => {
    try {
      patch([{ op: 'test', path: '/data/a', value: 'zzz' }]);
      assert.fail('expected 422');
    } catch (err) {
      assert.ok(err instanceof ApiError);
      assert.deepEqual(err.toStatus(), {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'the server rejected our request due to an error in our request',
        reason: 'Invalid',
        details: {},
        code: 422,
      });
    }
  });

  it('cannot reach a prototype through __proto__', () => {
    const { value } = patch([{ op: 'add', path: '/metadata/labels/__proto__', value: { polluted: 'yes' } }]);
    const labels = (value as { metadata: { labels: Record<string, unknown> } }).metadata.labels;
    assert.equal(Object.getPrototypeOf(labels), Object.prototype);
    assert.deepEqual(Object.keys(labels), ['a', '__proto__']);
    assert.equal(({} as Record<string, unknown>)['polluted'], undefined);
    assert.throws(() => patch([{ op: 'test', path: '/data/constructor', value: 'x' }]), ApiError, 'inherited members are not members');
  });

  it('limits bytes added by copy', () => {
    const ops = [
      { op: 'copy', from: '/metadata', path: '/a' },
      { op: 'copy', from: '/metadata', path: '/b' },
    ];
    const size = JSON.stringify(doc().metadata).length;
    assert.doesNotThrow(() => applyJsonPatchOperations(doc(), ops, 2 * size));
    assert.throws(
      () => applyJsonPatchOperations(doc(), ops, 2 * size - 1),
      (err: unknown) => err instanceof ApiError && err.code === 422 && /accumulated size increase of copy is/.test((err.cause as Error).message),
    );
  });

  it('copies are independent of their source', () => {
    const { value } = patch([
      { op: 'copy', from: '/metadata/labels', path: '/data/copy' },
      { op: 'add', path: '/data/copy/b', value: '2' },
    ]);
    const v = value as { metadata: { labels: object }; data: { copy: object } };
    assert.deepEqual(v.metadata.labels, { a: '1' });
    assert.deepEqual(v.data.copy, { a: '1', b: '2' });
  });
});

describe('JSON patch decoding', () => {
  const bad: { name: string; body: string; fieldValidation: FieldValidation; code: number; message: string }[] = [
    { name: 'not JSON', body: 'x', fieldValidation: 'Warn', code: 400, message: "error decoding patch: invalid character 'x' looking for beginning of value" },
    { name: 'empty', body: '', fieldValidation: 'Strict', code: 400, message: 'error decoding patch: unexpected end of JSON input' },
    { name: 'an object', body: '{"op":"add"}', fieldValidation: 'Warn', code: 400, message: 'error decoding patch: json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp' },
    { name: 'a string element', body: '["add"]', fieldValidation: 'Warn', code: 400, message: 'error decoding patch: json: cannot unmarshal string into Go value of type handlers.jsonPatchOp' },
    { name: 'op not a string', body: '[{"op":1,"path":"/a"}]', fieldValidation: 'Warn', code: 400, message: 'error decoding patch: json: cannot unmarshal number into Go struct field jsonPatchOp.op of type string' },
    { name: 'path not a string', body: '[{"op":"add","path":["a"]}]', fieldValidation: 'Strict', code: 400, message: 'error decoding patch: json: cannot unmarshal array into Go struct field jsonPatchOp.path of type string' },
    { name: 'not JSON (Ignore)', body: 'x', fieldValidation: 'Ignore', code: 400, message: "invalid character 'x' looking for beginning of value" },
    { name: 'an object (Ignore)', body: '{}', fieldValidation: 'Ignore', code: 400, message: 'json: cannot unmarshal object into Go value of type jsonpatch.Patch' },
    { name: 'a number element (Ignore)', body: '[1]', fieldValidation: 'Ignore', code: 400, message: 'json: cannot unmarshal number into Go value of type jsonpatch.Operation' },
    { name: 'op not a string (Ignore) fails at apply', body: '[{"op":1,"path":"/a"}]', fieldValidation: 'Ignore', code: 422, message: 'the server rejected our request due to an error in our request' },
    {
      name: 'too many operations',
      body: JSON.stringify(Array(10001).fill({ op: 'test', path: '/kind', value: 'ConfigMap' })),
      fieldValidation: 'Warn',
      code: 413,
      message: 'Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001',
    },
  ];
  for (const c of bad) {
    it(c.name, () => {
      assert.throws(
        () => patch(c.body, doc(), c.fieldValidation),
        (err: unknown) => err instanceof ApiError && err.code === c.code && err.message === c.message,
      );
    });
  }

  it('accepts exactly 10000 operations', () => {
    assert.doesNotThrow(() => patch(Array(10000).fill({ op: 'test', path: '/kind', value: 'ConfigMap' })));
  });

  it('treats a null body as no operations', () => {
    assert.deepEqual(patch('null').value, doc());
  });

  const strict: { name: string; body: string; fieldValidation: FieldValidation; want: string[] }[] = [
    { name: 'clean patch', body: '[{"op":"add","path":"/data/x","value":"y"}]', fieldValidation: 'Warn', want: [] },
    {
      name: 'unknown and duplicate fields, in field order',
      body: '[{"op":"add","path":"/data/x","value":"y","extra":1,"op":"add"},{"OP":"x","op":"test","path":"/kind","value":"ConfigMap"}]',
      fieldValidation: 'Strict',
      want: ['json patch duplicate field "[0].op"', 'json patch unknown field "[0].extra"', 'json patch unknown field "[1].OP"'],
    },
    {
      name: 'duplicates inside a value',
      body: '[{"op":"add","path":"/data","value":{"a":"1","a":"2"}}]',
      fieldValidation: 'Warn',
      want: ['json patch duplicate field "[0].value.a"'],
    },
    { name: 'nothing reported when ignoring', body: '[{"op":"add","path":"/data/x","value":"y","extra":1}]', fieldValidation: 'Ignore', want: [] },
  ];
  for (const c of strict) {
    it(`strict errors: ${c.name}`, () => {
      assert.deepEqual(patch(c.body, doc(), c.fieldValidation).strictErrors, c.want);
    });
  }
});
